package cliutil

import (
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10", `"10"`},
		{"a\nb", `"a\nb"`},
		{strings.Repeat("9", 60000), `"` + strings.Repeat("9", 40) + `"… (60000 bytes)`},
		{strings.Repeat("é", 30), `"` + strings.Repeat("é", 20) + `"… (60 bytes)`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%.20q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"-frames must be >= 0, got -3", "-frames must be >= 0, got -3"},
		{"invalid value \"1\n2\" for flag -width", `invalid value "1\n2" for flag -width`},
		{"tab\there\x00", `tab\there\x00`},
		{"bad \xff byte", `bad \ufffd byte`},
		{strings.Repeat("x", 1000), strings.Repeat("x", MaxMessageBytes) + "…"},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%.20q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
