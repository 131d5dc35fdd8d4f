package assets

import (
	"embed"
	"path"
	"sort"
	"strings"
)

//go:embed scripts/*.txt
var scripts embed.FS

//go:embed tracks/*.txt
var tracks embed.FS

// Script returns the text of the built-in input script with this name
// ("katamari", "idle"), and whether it exists.
func Script(name string) (string, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return "", false
	}
	b, err := scripts.ReadFile(path.Join("scripts", name+".txt"))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// ScriptNames lists the built-in scripts, sorted.
func ScriptNames() []string {
	entries, _ := scripts.ReadDir("scripts")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txt"))
	}
	sort.Strings(names)
	return names
}

// Track returns the text of the built-in talk track with this name
// ("tour"): a script that also sets the network, switches strategies and
// shows captions (package track reads it).
func Track(name string) (string, bool) {
	if strings.ContainsAny(name, "/\\.") {
		return "", false
	}
	b, err := tracks.ReadFile(path.Join("tracks", name+".txt"))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// TrackNames lists the built-in tracks, sorted.
func TrackNames() []string {
	entries, _ := tracks.ReadDir("tracks")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txt"))
	}
	sort.Strings(names)
	return names
}
