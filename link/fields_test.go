package link

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestPresetsValidate: every preset's conditions, both directions, are in
// range (New panics on one that is not, so a release must never ship one).
func TestPresetsValidate(t *testing.T) {
	for p := Preset(0); p < NumPresets; p++ {
		if err := p.Pair().Validate(); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestValidateNamesTheField: a value out of its range, NaN or in the MTU's
// gap is refused with an error naming the field; New panics with it and
// SetConfig keeps the knobs it had.
func TestValidateNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		f    Field
		v    float64
		want string
	}{
		{FieldLatency, 5001, "latency = 5001"},
		{FieldLoss, -1, "loss = -1"},
		{FieldLoss, math.NaN(), "loss = NaN"},
		{FieldCap, 2e6, "cap = 2e+06"},
		{FieldMTU, 20, "mtu = 20"},
		{FieldMaxInFlight, 1 << 21, "max-in-flight = 2.097152e+06"},
	} {
		var c Config
		c.Set(tc.f, tc.v)
		err := c.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s = %g: %v, want %q", tc.f, tc.v, err, tc.want)
		}
		l := New(PresetLAN.Config(), 1)
		if l.SetConfig(c) == nil || l.Config() != PresetLAN.Config() {
			t.Errorf("%s = %g: SetConfig took it", tc.f, tc.v)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s = %g: New did not panic", tc.f, tc.v)
				}
			}()
			New(c, 1)
		}()
	}
	var c Config
	c.CapSchedule.Steps[1].Kbps = -3
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "cap schedule step 2") {
		t.Errorf("a cap step of -3 kbit/s: %v", err)
	}
}

// TestFieldNames: the editable fields are found by their names, and every
// field has a name and a range.
func TestFieldNames(t *testing.T) {
	for f := Field(0); f < NumFields; f++ {
		in := f.Info()
		if in.Name == "" || !(in.Hi > in.Lo) || in.KeyHi > in.Hi {
			t.Errorf("field %d: %+v", f, in)
		}
		if g, ok := FieldByName(in.Name); ok != (f < NumEditable) || ok && g != f {
			t.Errorf("FieldByName(%q) = %v, %v", in.Name, g, ok)
		}
	}
}
