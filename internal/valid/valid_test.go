package valid

import (
	"errors"
	"math"
	"strings"
	"testing"
)

var errBase = errors.New("invalid config")

// TestCheck: values inside their ranges pass, edges included; a value
// outside, NaN or infinite is refused with an error naming the first such
// field, its value and its range, and wrapping the base error.
func TestCheck(t *testing.T) {
	ok := []Field{
		{"a", 0, 0, Finite, false},
		{"b", 1e300, 0, Finite, true},
		{"c", 1, 0, 1, true},
		{"d", 64, 1, 64, false},
	}
	if err := Check(errBase, ok...); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f    Field
		want string
	}{
		{Field{"zero", 0, 0, Finite, true}, "zero = 0, want finite, above 0"},
		{Field{"neg", -1, 0, Finite, false}, "neg = -1, want finite, 0 or more"},
		{Field{"nan", math.NaN(), 0, Finite, false}, "nan = NaN"},
		{Field{"inf", math.Inf(1), 0, Finite, false}, "inf = +Inf"},
		{Field{"top", 65, 1, 64, false}, "top = 65, want 1..64"},
		{Field{"open", 0, 0, 1, true}, "open = 0, want above 0, at most 1"},
	} {
		err := Check(errBase, append(append([]Field{}, ok...), tc.f, Field{"later", -1, 0, 1, false})...)
		if !errors.Is(err, errBase) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "later") {
			t.Errorf("%s: %v, want %q", tc.f.Name, err, tc.want)
		}
	}
}
