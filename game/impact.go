package game

import "netcubes/physics"

// Impact is the hardest collision that began in the left world's last
// step, for the app's sounds: Speed is how hard it hit, the speed change
// (m/s) of the lighter of the two bodies (normal impulse over its mass), and
// Index is the contact's position among this step's contacts, a
// deterministic number to vary the sound by.
type Impact struct {
	Speed float64
	Index int
}

// HardestImpact returns the hardest impact of the left's last step faster
// than minSpeed (m/s), or ok = false. It reads the world's contacts; it
// changes nothing.
func (s *Session) HardestImpact(minSpeed float64) (Impact, bool) {
	ph := s.left.Physics()
	s.pairs = ph.ContactPairs(s.pairs[:0])
	best := Impact{Index: -1, Speed: minSpeed}
	for i, p := range s.pairs {
		if !p.Began {
			continue
		}
		m := ph.Mass(p.A)
		if p.B != physics.Ground {
			m = min(m, ph.Mass(p.B))
		}
		if dv := p.NormalImpulse / m; dv > best.Speed {
			best = Impact{Speed: dv, Index: i}
		}
	}
	return best, best.Index >= 0
}
