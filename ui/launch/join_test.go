package launch

import (
	"testing"
)

func TestJoinTarget(t *testing.T) {
	tok := "00112233445566778899aabbccddeeff"
	for _, tt := range []struct {
		in, origin, base string
		ok               bool
	}{
		{"http://192.168.1.20:8080/?join=" + tok, "", "http://192.168.1.20:8080", true},
		{"https://room.example:443/?join=" + tok + "&mute", "", "https://room.example:443", true},
		{tok, "http://127.0.0.1:8080", "http://127.0.0.1:8080", true},
		{tok, "", "", false},                         // a token alone outside the room's page
		{"http://192.168.1.20:8080/", "", "", false}, // no token
		{"http://192.168.1.20:8080/?join=xyz", "", "", false},
		{"ftp://x/?join=" + tok, "", "", false},
	} {
		pageOrigin = func() string { return tt.origin }
		base, got, err := joinTarget(tt.in)
		if (err == nil) != tt.ok || (tt.ok && (base != tt.base || got.String() != tok)) {
			t.Errorf("%q (page %q): %q %v %v, want %q ok=%v", tt.in, tt.origin, base, got, err, tt.base, tt.ok)
		}
	}
	pageOrigin = func() string { return "" }
}
