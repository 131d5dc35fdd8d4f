#!/usr/bin/env bash
# ensure-packages.sh PKG...: make sure the Debian packages that Ebitengine
# loads at run time (and the headless test display) are installed.
#
# On Debian/Ubuntu it installs what is missing with apt-get, through sudo when
# not root. On other Linux systems it prints exactly what to install and
# stops. On macOS and Windows Ebitengine needs no system packages, so it does
# nothing.
set -euo pipefail

if [ "$(uname -s)" != "Linux" ]; then
	exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	echo "netcubes needs these libraries (Debian names; install your distribution's equivalents):" >&2
	echo "  $*" >&2
	echo "  e.g. Fedora: mesa-libGL mesa-libEGL mesa-dri-drivers libX11 libXcursor libXext libXi libXinerama libXrandr libXrender alsa-lib xorg-x11-server-Xvfb xorg-x11-xauth" >&2
	echo "Install them, then run make again." >&2
	exit 1
fi

missing=()
for pkg in "$@"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	if [ "$status" != "install ok installed" ]; then
		missing+=("$pkg")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing missing system packages: ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		echo "Not root and no sudo: install these packages, then run make again:" >&2
		echo "  apt-get install ${missing[*]}" >&2
		exit 1
	fi
	sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
