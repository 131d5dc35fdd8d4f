package launch

// The browser build's side of main (main_desktop.go is the desktop's):
// the command line comes from the page's address (web.go), messages go on
// the page, what needs files or sockets is refused in one line, and a
// recording is kept by the page for download instead of written to a file.

import (
	"fmt"
	"strings"
	"syscall/js"

	"netcubes/ui"
)

func init() {
	loadTrack = webLoadTrack
	// The recording becomes a download: its name is the file's name in
	// the browser's downloads, so there is nothing to check.
	checkRecordPath = func(string) error { return nil }
	// -join in the room's own page needs only the token.
	pageOrigin = func() string { return js.Global().Get("location").Get("origin").String() }
}

// messages shows errors, notes and -h on the page.
var messages pageWriter

// commandLine is the page address's query.
func commandLine() ([]string, error) {
	return webArgs(strings.TrimPrefix(js.Global().Get("location").Get("search").String(), "?"))
}

func checkPlatform(o options) error { return webCheck(o) }

func exitCode(error) int { return 1 }

func run(o options) error {
	for _, n := range webNotes(o) {
		fmt.Fprintln(messages, "netcubes:", n)
	}
	if o.net.join != "" {
		// A classroom's page: join the room that served it first.
		if err := openNetwork(&o, messages); err != nil {
			return err
		}
		defer o.ui.Session.Client.Close()
	}
	app, err := ui.Run(o.ui)
	if app != nil && o.ui.RecordPath != "" {
		// The last seconds, for the page's download button.
		if _, werr := app.SaveRecording(); err == nil {
			err = werr
		}
	}
	return err
}

// pageWriter hands text to the page's netcubesSay function (index.html
// shows it over the app), or to the console on a page without one.
type pageWriter struct{}

func (pageWriter) Write(p []byte) (int, error) {
	if say := js.Global().Get("netcubesSay"); say.Type() == js.TypeFunction {
		say.Invoke(string(p))
	} else {
		js.Global().Get("console").Call("log", string(p))
	}
	return len(p), nil
}
