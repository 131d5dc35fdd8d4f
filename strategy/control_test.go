package strategy

import (
	"strings"
	"testing"
)

// TestFlagErrors pins the text of the generated flags' errors: one short
// line, the value quoted and cut, NaN and the infinities refused.
func TestFlagErrors(t *testing.T) {
	var gotInt int
	var gotFloat float64
	var gotChoice int
	flags := []Flag{
		IntFlag("level", "", 1, 11, func(n int) { gotInt = n }),
		floatFlag("delay", "", 0, 500, "ms", func(x float64) { gotFloat = x }),
		ChoiceFlag("render", "", []string{"latest", "linear"}, func(i int) { gotChoice = i }),
	}
	tests := []struct {
		flag  int
		value string
		want  string // "" for accepted
	}{
		{0, "9", ""},
		{0, "12", `-level must be 1..11, got "12"`},
		{0, "1\n2", `-level must be 1..11, got "1\n2"`},
		{0, strings.Repeat("1", 60000), `-level must be 1..11, got "1111111111111111111111111111111111111111"… (60000 bytes)`},
		{1, "12.5", ""},
		{1, "NaN", `-delay must be 0..500 ms, got "NaN"`},
		{1, "nan", `-delay must be 0..500 ms, got "nan"`},
		{1, "Inf", `-delay must be 0..500 ms, got "Inf"`},
		{1, "-Inf", `-delay must be 0..500 ms, got "-Inf"`},
		{1, "1e400", `-delay must be 0..500 ms, got "1e400"`},
		{1, "-1", `-delay must be 0..500 ms, got "-1"`},
		{2, "linear", ""},
		{2, "cubic", `-render must be latest or linear, got "cubic"`},
	}
	for _, tt := range tests {
		err := flags[tt.flag].Set(tt.value)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("-%s %.20q: %q, want %q", flags[tt.flag].Name, tt.value, got, tt.want)
		}
	}
	if gotInt != 9 || gotFloat != 12.5 || gotChoice != 1 {
		t.Errorf("accepted values not applied: %d %g %d", gotInt, gotFloat, gotChoice)
	}
}
