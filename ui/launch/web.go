package launch

// The browser build's rules (main_js.go uses them), kept free of
// syscall/js so that the tests run them natively: how the page's address
// becomes the command line, what a web page cannot do, and what it does
// differently.

import (
	"fmt"
	"net/url"
	"strings"

	"netcubes/assets"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/talk"
)

// webArgs turns the query of the page's address (without the "?") into the
// command line: ?strategy=statesync&preset=mobile is -strategy=statesync
// -preset=mobile, in the same order, and a name without a value is a
// boolean flag (?mute is -mute). The "=" form keeps a value that starts
// with a dash a value, and lets ?antialias=false reach a boolean.
func webArgs(query string) ([]string, error) {
	var args []string
	for _, part := range strings.Split(query, "&") {
		if part == "" {
			continue
		}
		name, value, hasValue := strings.Cut(part, "=")
		name, err := url.QueryUnescape(name)
		if err != nil {
			return nil, usagef("the address's parameter %q is not URL-encoded right", part)
		}
		name = strings.TrimLeft(name, "-")
		if name == "" {
			return nil, usagef("the address has a parameter without a name: %q", part)
		}
		if !hasValue {
			args = append(args, "-"+name)
			continue
		}
		if value, err = url.QueryUnescape(value); err != nil {
			return nil, usagef("the address's parameter %q is not URL-encoded right", part)
		}
		args = append(args, "-"+name+"="+value)
	}
	return args, nil
}

// webLoadScript loads only the built-in scripts: a web page reads no files.
func webLoadScript(name string) (*cubes.Script, error) {
	if _, ok := assets.Script(name); !ok {
		return nil, fmt.Errorf("script %q: a web page reads no files; the built-in scripts are %s",
			name, strings.Join(assets.ScriptNames(), ", "))
	}
	return cubes.LoadScript(name)
}

// webLoadTrack loads only the built-in scripts and talk tracks (whose
// play commands play built-in scripts only).
func webLoadTrack(name string) (*talk.Track, error) {
	_, isScript := assets.Script(name)
	if _, isTrack := assets.Track(name); !isScript && !isTrack {
		return nil, fmt.Errorf("script %q: a web page reads no files; the built-in scripts are %s",
			name, strings.Join(talk.Names(), ", "))
	}
	return talk.LoadWith(name, webLoadScript)
}

// webCheck refuses, in one line each, what needs a file system or sockets.
// (-record works: the page keeps the recording and offers it as a
// download.)
func webCheck(o options) error {
	switch {
	case o.ui.Screenshot != "":
		return usagef("-screenshot writes a file, which a web page cannot: use the browser's screenshot, or the desktop app")
	case o.ui.Capture.On():
		return usagef("-capture and -video write files, which a web page cannot: use the desktop app")
	case o.net.role != game.RoleBoth && o.net.join == "":
		return usagef("-role: two processes talk over UDP, which a web page cannot: run the desktop app (go run . -role left -listen :40000)")
	}
	return nil
}

// webNotes are the one-line notes for flags a web page honours
// differently; the app runs all the same.
func webNotes(o options) []string {
	var notes []string
	if o.width != defaultWidth || o.height != defaultHeight {
		notes = append(notes, "-width and -height do not apply here: the app fills the browser window")
	}
	if o.ui.Fullscreen {
		notes = append(notes, "-fullscreen: a browser goes fullscreen only after a key press: press F11")
	}
	return notes
}
