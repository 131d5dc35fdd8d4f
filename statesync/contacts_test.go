package statesync

import (
	"strings"
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/physics"
	"netcubes/snapshot"
	"netcubes/strategy"
	"netcubes/wire"
)

// TestSoftContacts: I gives both worlds the original sync demo's softer
// contacts from the next tick (the left as the server's), the Mode line
// says so, I again gives back netcubes' own, and leaving the strategy
// gives the left world back its own contacts whatever the setting.
func TestSoftContacts(t *testing.T) {
	c := physics.DefaultConfig()
	c.ContactHertz, c.ContactDampingRatio, c.MaxPushOutSpeed = SoftContactHertz, SoftContactDamping, SoftMaxPushOut
	if err := c.Validate(); err != nil {
		t.Fatalf("the soft set is not a valid configuration: %v", err)
	}
	cfg := game.DefaultConfig()
	st := New(DefaultConfig())
	cfg.Strategies = []strategy.Strategy{st, snapshot.NewInterpolation()}
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 30 {
		s.Step(cubes.Input{})
	}
	own := contactsOf(physics.DefaultConfig())
	check := func(when string, want contactSet) {
		t.Helper()
		if got := contactsOf(s.Left().Physics().Config()); got != want {
			t.Errorf("%s: the left's contacts %v, want %v", when, got, want)
		}
		if got := contactsOf(st.rcv.world.Physics().Config()); got != want {
			t.Errorf("%s: the right's contacts %v, want %v", when, got, want)
		}
	}
	check("at start", own)
	if got := findControl(t, st, ContactsKey).Press(1); got != "contacts: the sync demo's softer (34 Hz, ζ 1.8, push-out 1 m/s)" {
		t.Errorf("I says %q", got)
	}
	s.Step(cubes.Input{})
	check("after I", softContacts)
	if !strings.Contains(st.Mode(), "soft contacts") {
		t.Errorf("mode line %q", st.Mode())
	}
	findControl(t, st, ContactsKey).Press(1)
	s.Step(cubes.Input{})
	check("after I again", own)
	findControl(t, st, ContactsKey).Press(1)
	s.Step(cubes.Input{})
	if err := s.SetStrategy(1); err != nil {
		t.Fatal(err)
	}
	if got := contactsOf(s.Left().Physics().Config()); got != own {
		t.Errorf("after leaving state sync with soft contacts on: the left's contacts %v", got)
	}
}

// TestNewSettingsCross: the precision and the contacts cross to a right
// process with the other settings.
func TestNewSettingsCross(t *testing.T) {
	left, right := New(DefaultConfig()), New(DefaultConfig())
	s := left.Settings()
	s.Coarse, s.SoftContacts = true, true
	left.SetSettings(s)
	buf := make([]byte, 256)
	w := wire.NewWriteStream(buf)
	if err := left.SerializeSettings(w); err != nil {
		t.Fatal(err)
	}
	if err := w.SerializeAlign(); err != nil {
		t.Fatal(err)
	}
	if err := right.SerializeSettings(wire.NewReadStream(w.Bytes())); err != nil {
		t.Fatal(err)
	}
	if right.Settings() != left.Settings() {
		t.Errorf("the right has %+v, want %+v", right.Settings(), left.Settings())
	}
}
