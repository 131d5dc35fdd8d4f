#!/usr/bin/env bash
# ensure-packages.sh PKG... [--optional PKG...]: make sure the Debian
# packages that Ebitengine loads at run time (and the tests' virtual display
# and browser) are installed.
#
# On Debian/Ubuntu it installs what is missing with apt-get, through sudo
# when not root. Packages after --optional are nice to have (chromium, for
# the browser test): when they cannot be installed (Ubuntu ships chromium
# as a snap, which a container cannot run) it says so and goes on. On other
# Linux systems it prints exactly what to install and stops. On macOS and
# Windows Ebitengine needs no system packages, so it does nothing.
set -euo pipefail

if [ "$(uname -s)" != "Linux" ]; then
	exit 0
fi

required=() optional=() opt=0
for arg in "$@"; do
	if [ "$arg" = --optional ]; then
		opt=1
	elif [ $opt = 1 ]; then
		optional+=("$arg")
	else
		required+=("$arg")
	fi
done

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
	if [ ${#required[@]} -gt 0 ]; then
		echo "netcubes needs these libraries (Debian names; install your distribution's equivalents):" >&2
		echo "  ${required[*]}" >&2
		echo "  e.g. Fedora: mesa-libGL mesa-libEGL mesa-dri-drivers libX11 libXcursor libXext libXi libXinerama libXrandr libXrender alsa-lib xorg-x11-server-Xvfb xorg-x11-xauth" >&2
		[ ${#optional[@]} -gt 0 ] && echo "  and, for the browser test, ${optional[*]}" >&2
		echo "Install them, then run make again." >&2
		exit 1
	fi
	exit 0
fi

# installed PKG: the package, or its 64-bit-time rename (Debian 13 and
# Ubuntu 24.04 call libasound2 libasound2t64), is installed.
installed() {
	local p
	for p in "$1" "$1t64"; do
		if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" = "install ok installed" ]; then
			return 0
		fi
	done
	return 1
}

missing=() missing_optional=()
for pkg in "${required[@]}"; do
	installed "$pkg" || missing+=("$pkg")
done
for pkg in "${optional[@]}"; do
	installed "$pkg" || missing_optional+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_optional[@]} -eq 0 ] && exit 0

sudo=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null 2>&1; then
		if [ ${#missing[@]} -gt 0 ]; then
			echo "Not root and no sudo: install these packages, then run make again:" >&2
			echo "  apt-get install ${missing[*]} ${missing_optional[*]}" >&2
			exit 1
		fi
		echo "Not root and no sudo: ${missing_optional[*]} not installed (apt-get install ${missing_optional[*]}); the tests that need it are skipped."
		exit 0
	fi
	sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
all=("${missing[@]}" "${missing_optional[@]}")
echo "Installing missing system packages: ${all[*]}"
"${sudo[@]}" apt-get update -qq

# The name this system's apt installs: the package, or its t64 rename.
candidate() {
	if apt-cache show "$1" >/dev/null 2>&1; then echo "$1"; elif apt-cache show "$1t64" >/dev/null 2>&1; then echo "$1t64"; else echo "$1"; fi
}
if [ ${#missing[@]} -gt 0 ]; then
	names=()
	for pkg in "${missing[@]}"; do names+=("$(candidate "$pkg")"); done
	"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${names[@]}"
fi
for pkg in "${missing_optional[@]}"; do
	if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$pkg"; then
		echo "Could not install $pkg: the tests that need it are skipped."
	fi
done
