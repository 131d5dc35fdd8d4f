package strategytest

import (
	"errors"
	"strings"
	"testing"

	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// fake is a strategy with one setting (a level 0-7 on key X) and the
// faults the conformance checks must catch, each switched on by a field.
type fake struct {
	level    *int // shared by clones when sharesSettings
	controls []strategy.Control

	sharesSettings bool // Clone shares the settings (a fault)
	partialRead    bool // a refused read still changes the level (a fault)
	panicsOnRead   bool // reading 0xff bytes panics (a fault)
}

func newFake() *fake {
	f := &fake{level: new(int)}
	f.controls = []strategy.Control{{Key: "X", Label: "level", Help: "level", Action: strategy.Cycle,
		Value: func() string { return "" }, Do: func(dir int) { *f.level = (*f.level + dir + 8) % 8 }}}
	return f
}

func (f *fake) ID() string                     { return "fake" }
func (f *fake) Name() string                   { return "Fake" }
func (f *fake) Family() string                 { return "Fake" }
func (f *fake) Mode() string                   { return strings.Repeat("|", *f.level) }
func (f *fake) Explain() string                { return "" }
func (f *fake) Controls() []strategy.Control   { return f.controls }
func (f *fake) SubMode(dir int) string         { f.controls[0].Do(dir); return f.Mode() }
func (f *fake) Reset(strategy.Context)         {}
func (f *fake) Send(strategy.Context)          {}
func (f *fake) Acked(strategy.Context, uint16) {}
func (f *fake) Update(strategy.Context)        {}
func (f *fake) Receive(_ strategy.Context, _ uint16, s *wire.ReadStream) error {
	var v uint32
	return wire.SerializeUint32(s, &v)
}
func (f *fake) View(*viewmodel.View) (float64, bool) { return 0, false }

func (f *fake) Clone() strategy.Strategy {
	c := newFake()
	c.sharesSettings, c.partialRead, c.panicsOnRead = f.sharesSettings, f.partialRead, f.panicsOnRead
	if f.sharesSettings {
		c.level = f.level
		c.controls = f.controls
	} else {
		*c.level = *f.level
	}
	return c
}

// shared is fake with strategy.Shared.
type shared struct{ *fake }

func (s shared) Clone() strategy.Strategy { return shared{s.fake.Clone().(*fake)} }

func (s shared) SerializeSettings(st wire.Stream) error {
	level, magic := int32(*s.level), uint32(0x5e771265)
	if err := wire.SerializeInt(st, &level, 0, 7); err != nil {
		return err
	}
	if st.IsReading() && s.panicsOnRead && level == 7 {
		panic("level 7")
	}
	if st.IsReading() && s.partialRead {
		*s.level = int(level)
	}
	if err := wire.SerializeUint32(st, &magic); err != nil {
		return err
	}
	if magic != 0x5e771265 {
		return errors.New("not fake's settings")
	}
	if st.IsReading() {
		*s.level = int(level)
	}
	return nil
}

// TestConformanceCatchesFaults: each fault of a strategy makes its check
// fail, and the same strategy without the fault passes.
func TestConformanceCatchesFaults(t *testing.T) {
	good := func() strategy.Strategy { return shared{newFake()} }
	if err := checkShared(good); err != nil {
		t.Fatalf("a sound strategy fails the Shared check: %v", err)
	}
	if err := checkClone(good); err != nil {
		t.Fatalf("a sound strategy fails the Clone check: %v", err)
	}
	for _, c := range []struct {
		name  string
		check func(func() strategy.Strategy) error
		make  func() strategy.Strategy
		want  string
	}{
		{"keys without Shared", checkShared, func() strategy.Strategy { return newFake() }, "does not implement strategy.Shared"},
		{"clone shares settings", checkClone, func() strategy.Strategy { f := newFake(); f.sharesSettings = true; return shared{f} }, "changed the original"},
		{"refused read changes settings", checkShared, func() strategy.Strategy { f := newFake(); f.partialRead = true; return shared{f} }, "but changed them"},
		{"read panics", checkShared, func() strategy.Strategy { f := newFake(); f.panicsOnRead = true; return shared{f} }, "panicked"},
	} {
		err := c.check(c.make)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error saying %q", c.name, err, c.want)
		}
	}
}
