package game

import (
	"testing"

	"netcubes/net"
)

// FuzzSnapshotReceive hands arbitrary packet bodies to the right side of a
// running snapshot strategy (level 11, a few hundred frames in, baselines
// held), under any 16-bit sequence, then runs its tick and view. Whatever
// the bytes, the right must reject them or take them, never panic, and
// keep showing 901 cubes at finite positions.
func FuzzSnapshotReceive(f *testing.F) {
	sc := loadScript(f, "katamari")
	s, st := snapSession(f, net.PresetPerfect.Config(), nil)
	for fr := 0; fr < 240; fr++ {
		s.Step(sc.InputAt(fr))
	}
	// Seeds: real packets of every level for the next frame.
	for l := net.MinSnapshotLevel; l <= net.MaxSnapshotLevel; l++ {
		p := net.SnapshotPacket{Level: l, Initial: l%2 == 0, Baseline: uint16(st.send.newestAcked), Predict: true,
			Cubes: make([]net.SnapshotCube, s.Left().NumCubes()), Baselines: &st.send}
		for i := range p.Cubes {
			p.Cubes[i] = leftQuantized(s.Left(), l, i)
		}
		st.send.frame = s.Frame()
		if _, err := p.ChooseEncoding(net.NewMeasureStream()); err != nil {
			f.Fatal(err)
		}
		w := net.NewWriteStream(make([]byte, 64*1024))
		if err := p.Serialize(w); err != nil {
			f.Fatal(err)
		}
		_ = w.SerializeAlign()
		if l >= net.SnapshotBoundedPosition { // keep the corpus small
			f.Add(uint16(s.Frame()+1), append([]byte(nil), w.Bytes()...))
		}
	}
	f.Add(uint16(s.Frame()-3), []byte{0x0a, 0x10, 0x00})
	f.Add(uint16(0), []byte{})
	now := s.Frame()
	f.Fuzz(func(t *testing.T, seq uint16, body []byte) {
		r := net.NewReadStream(body)
		_ = st.recv.receive(now, seq, r, &st.cfg)
		st.recv.update(now, &st.cfg)
		var v View
		if _, ok := st.recv.view(&v, st.halves); len(v.Cubes) != 901 {
			t.Fatalf("%d cubes shown (ok %v)", len(v.Cubes), ok)
		}
		for i := range v.Cubes {
			p := v.Cubes[i].Position
			if p[0] != p[0] || p[1] != p[1] || p[2] != p[2] {
				t.Fatalf("cube %d at %v", i, p)
			}
		}
	})
}
