package statesync

import (
	"fmt"

	"netcubes/physics"
	"netcubes/strategy"
)

// Design note: softer contacts. The article: "I also found that softening
// the constraints and reducing the maximum velocity which the simulation
// used to push apart penetrating objects also helped reduce the amount of
// popping". The original sync demo set ODE's ERP 0.5 and CFM 0.01 (its
// other demos 0.25 and 0.001) and a maximum correcting velocity of 1 m/s
// (250). ODE's ERP and CFM are a spring and a damper per contact, k =
// ERP / (h·CFM) and c = (1 − ERP) / CFM at h = 1/60 s; on a 0.4 m cube
// (0.064 kg) that is a 77 Hz spring damped at ζ 12 in the other demos and
// a 34 Hz one at ζ 1.8 in the sync demo. netcubes' solver states its
// contacts that way (physics.Config: 90 Hz, ζ 5, push-out capped at 3 m/s:
// already softer than the other demos' ODE), so Settings.SoftContacts sets
// the sync demo's: 34 Hz, ζ 1.8, 1 m/s, on both worlds (the left's as the
// server's, given back when the strategy is left). What it does here is
// measured by the bench's "state sync: precision and contacts" table.

// ContactsKey toggles the softer contacts.
const ContactsKey = "I"

// The original sync demo's contacts as this solver states them (see the
// design note).
const (
	SoftContactHertz   = 34
	SoftContactDamping = 1.8
	SoftMaxPushOut     = 1
)

// contactSet is the three numbers SetContactSoftness changes.
type contactSet struct{ hertz, damping, pushOut float64 }

// contactsOf reads them from a world's configuration.
func contactsOf(c physics.Config) contactSet {
	return contactSet{c.ContactHertz, c.ContactDampingRatio, c.MaxPushOutSpeed}
}

// softContacts is the sync demo's set.
var softContacts = contactSet{SoftContactHertz, SoftContactDamping, SoftMaxPushOut}

// String is the set as the HUD says it.
func (c contactSet) String() string {
	return fmt.Sprintf("%.0f Hz, ζ %.1f, push-out %.0f m/s", c.hertz, c.damping, c.pushOut)
}

// softened is a world whose contacts the strategy may have changed, and
// the set it had before.
type softened struct {
	w    *physics.World
	base contactSet
}

// follow gives w the set the setting says: soft, or its own from before.
// The first world seen gives the base (or the solver's defaults, if it
// is soft already); a later one (a new left after a reset, the right
// rebuilt as another machine, a copy carrying the soft set) keeps it.
func (s *softened) follow(w *physics.World, soft bool) {
	if s.w == nil {
		s.base = contactsOf(w.Config())
		if s.base == softContacts {
			s.base = contactsOf(physics.DefaultConfig())
		}
	}
	s.w = w
	want := s.base
	if soft {
		want = softContacts
	}
	if contactsOf(w.Config()) == want {
		return
	}
	// The three values are valid ones (a test holds the constants to it).
	_ = w.SetContactSoftness(want.hertz, want.damping, want.pushOut)
}

// giveBack restores the world's own set and forgets it.
func (s *softened) giveBack() {
	if s.w != nil {
		s.follow(s.w, false)
	}
	*s = softened{}
}

// contactsControl is I: netcubes' contacts or the sync demo's softer ones.
func (st *Strategy) contactsControl() strategy.Control {
	return strategy.Control{Key: ContactsKey, Label: "contacts", Help: "contacts: netcubes' / the sync demo's softer (34 Hz, ζ 1.8, 1 m/s)",
		Action: strategy.Toggle,
		Value:  st.contactsValue,
		Do: func(int) {
			s := st.set
			s.SoftContacts = !s.SoftContacts
			st.SetSettings(s)
		}}
}

// contactsValue names the contacts in use, with their numbers.
func (st *Strategy) contactsValue() string {
	if st.set.SoftContacts {
		return "the sync demo's softer (" + softContacts.String() + ")"
	}
	base := contactsOf(physics.DefaultConfig())
	if st.rcv.contacts.w != nil {
		base = st.rcv.contacts.base
	}
	return "netcubes' (" + base.String() + ")"
}

// contactsFlag is -contacts.
func (st *Strategy) contactsFlag() strategy.Flag {
	return strategy.ChoiceFlag("contacts", "state sync contacts: netcubes (90 Hz, ζ 5, push-out 3 m/s) or soft (the original sync demo's: 34 Hz, ζ 1.8, 1 m/s)",
		[]string{"netcubes", "soft"}, func(i int) {
			s := st.set
			s.SoftContacts = i == 1
			st.SetSettings(s)
		})
}
