package strategytest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"netcubes/strategy"
	"netcubes/wire"
)

// Conformance runs the checks every strategy must pass on instances made
// by newStrategy (a fresh instance per call, in its default settings):
//
//   - Shared: a strategy with settings (keys, or sub-modes that change what
//     Mode says) implements strategy.Shared; its settings, changed by every
//     key and a sub-mode step, cross a write and a read unchanged; and
//     hostile settings bytes (every truncation of real ones, random bytes)
//     are refused or taken without a panic, a refusal leaving the settings
//     as they were.
//   - Clone: Clone returns a new instance with the same settings, and
//     changing the clone's settings leaves the original's alone.
//   - HostileBytes: real packets of the strategy, mutated, and random bytes
//     reach a live session both ways (the Harness), and the right keeps
//     showing a finite world.
func Conformance(t *testing.T, newStrategy func() strategy.Strategy) {
	t.Helper()
	t.Run("Shared", func(t *testing.T) {
		if err := checkShared(newStrategy); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("Clone", func(t *testing.T) {
		if err := checkClone(newStrategy); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("HostileBytes", func(t *testing.T) { checkHostile(t, newStrategy()) })
}

// hasSettings reports whether st has settings a presenter changes: keys of
// its own, or sub-modes that change its Mode line. It steps st's sub-mode
// forward and back, so st ends where it started.
func hasSettings(st strategy.Strategy) bool {
	if len(st.Controls()) > 0 {
		return true
	}
	before := st.Mode()
	st.SubMode(+1)
	changed := st.Mode() != before
	st.SubMode(-1)
	return changed
}

// press changes every setting st has: each key once forward, then one
// sub-mode step, so the settings differ from the defaults wherever a key
// can make them.
func press(st strategy.Strategy) {
	cs := st.Controls()
	for i := range cs {
		cs[i].Press(+1)
	}
	st.SubMode(+1)
}

// settingsOf writes sh's settings and returns the bytes (a copy).
func settingsOf(sh strategy.Shared) ([]byte, error) {
	buf := make([]byte, 4096)
	w := wire.NewWriteStream(buf)
	if err := sh.SerializeSettings(w); err != nil {
		return nil, fmt.Errorf("writing the settings: %w", err)
	}
	if err := w.SerializeAlign(); err != nil {
		return nil, fmt.Errorf("writing the settings: %w", err)
	}
	return append([]byte(nil), w.Bytes()...), nil
}

func checkShared(newStrategy func() strategy.Strategy) error {
	st := newStrategy()
	sh, ok := st.(strategy.Shared)
	if !ok {
		if hasSettings(st) {
			return fmt.Errorf("%s has settings (keys or sub-modes) but does not implement strategy.Shared: "+
				"a right process would keep the defaults while the presenter changes them on the left", st.ID())
		}
		return nil
	}
	press(st)
	data, err := settingsOf(sh)
	if err != nil {
		return err
	}

	// A fresh instance reads them and then says the same, bit for bit.
	other := newStrategy()
	osh := other.(strategy.Shared)
	if err := osh.SerializeSettings(wire.NewReadStream(data)); err != nil {
		return fmt.Errorf("%s: reading its own settings: %w", st.ID(), err)
	}
	if got, err := settingsOf(osh); err != nil || !bytes.Equal(got, data) {
		return fmt.Errorf("%s: settings after a write and a read are % x (%v), want % x", st.ID(), got, err, data)
	}
	if other.Mode() != st.Mode() {
		return fmt.Errorf("%s: the mode after reading the settings is %q, want %q", st.ID(), other.Mode(), st.Mode())
	}
	return checkHostileSettings(st.ID(), newStrategy, data)
}

// checkHostileSettings reads every truncation of data, then random bytes,
// into fresh instances: no panic, and a refusal changes nothing.
func checkHostileSettings(id string, newStrategy func() strategy.Strategy, data []byte) error {
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][]byte
	for n := range len(data) {
		inputs = append(inputs, data[:n])
	}
	for range 200 {
		b := make([]byte, 1+rng.IntN(2*len(data)+4))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		inputs = append(inputs, b)
	}
	for _, in := range inputs {
		tsh := newStrategy().(strategy.Shared)
		before, err := settingsOf(tsh)
		if err != nil {
			return err
		}
		p, err := readSettings(tsh, in)
		if p != nil {
			return fmt.Errorf("%s: reading settings % x panicked: %v", id, in, p)
		}
		after, werr := settingsOf(tsh)
		if werr != nil {
			return fmt.Errorf("%s: after reading % x: %w", id, in, werr)
		}
		if err != nil && !bytes.Equal(after, before) {
			return fmt.Errorf("%s: refused settings % x (%v) but changed them: % x, were % x", id, in, err, after, before)
		}
	}
	return nil
}

// readSettings reads data into sh; a panic is returned as a value, so the
// test can name the bytes that caused it.
func readSettings(sh strategy.Shared, data []byte) (panicked any, err error) {
	defer func() { panicked = recover() }()
	return nil, sh.SerializeSettings(wire.NewReadStream(data))
}

func checkClone(newStrategy func() strategy.Strategy) error {
	st := newStrategy()
	press(st)
	c := st.Clone()
	if c == nil || c == st {
		return fmt.Errorf("%s: Clone returned %v, want a new instance", st.ID(), c)
	}
	if c.ID() != st.ID() || c.Mode() != st.Mode() {
		return fmt.Errorf("%s: the clone is %s in mode %q, the original in %q", st.ID(), c.ID(), c.Mode(), st.Mode())
	}
	sh, shared := st.(strategy.Shared)
	var before []byte
	if shared {
		var err error
		if before, err = settingsOf(sh); err != nil {
			return err
		}
		if got, err := settingsOf(c.(strategy.Shared)); err != nil || !bytes.Equal(got, before) {
			return fmt.Errorf("%s: the clone's settings are % x (%v), the original's % x", st.ID(), got, err, before)
		}
	}
	mode := st.Mode()
	// Change the clone's settings: the original must not follow (the
	// session keeps the clients' settings equal through Shared, not by
	// sharing them).
	press(c)
	press(c)
	if st.Mode() != mode {
		return fmt.Errorf("%s: changing the clone's settings changed the original's mode from %q to %q", st.ID(), mode, st.Mode())
	}
	if shared {
		if after, err := settingsOf(sh); err != nil || !bytes.Equal(after, before) {
			return fmt.Errorf("%s: changing the clone's settings changed the original's: % x (%v), were % x", st.ID(), after, err, before)
		}
	}
	return nil
}

// checkHostile runs the Harness over st's real packets, each mutated a few
// ways, and over random bodies, both ways.
func checkHostile(t *testing.T, st strategy.Strategy) {
	h := New(t, Config{Strategies: []strategy.Strategy{st}})
	rng := rand.New(rand.NewPCG(3, 4))
	seeds := h.Seeds()
	if len(seeds) == 0 {
		t.Fatalf("%s sent no packet in %d ticks", st.ID(), SeedTicks)
	}
	for _, in := range seeds {
		for k := range 6 {
			m := in
			m.Body = append([]byte(nil), in.Body...)
			m.Mode = uint8(rng.Uint32())
			m.Warm, m.After = uint8(k), uint8(k)
			switch k {
			case 0: // as sent
			case 1: // truncated
				m.Body = m.Body[:len(m.Body)/2]
			case 2: // a byte flipped
				if len(m.Body) > 0 {
					m.Body[rng.IntN(len(m.Body))] ^= 0xff
				}
			case 3: // ahead of the frame
				m.Seq += uint16(1 + rng.IntN(30000))
			default: // random bytes of the same length
				for i := range m.Body {
					m.Body[i] = byte(rng.Uint32())
				}
			}
			h.Run(t, m)
		}
	}
}
