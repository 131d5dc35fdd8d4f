package statesync

import (
	"math"
	"testing"

	"netcubes/game"
	"netcubes/strategy"
)

const holdScenario = `
0-59 -
60-179 up katamari
180-299 left katamari
300-899 katamari
end 900
`

func TestZZHold(t *testing.T) {
	for _, hard := range []int{0, 2} {
		for _, mode := range []string{"noquant", "fine", "coarse"} {
			step := 6
			if mode == "noquant" {
				step = 5
			}
			cfg := game.DefaultConfig()
			st := New(DefaultConfig())
			cfg.Strategies = []strategy.Strategy{st}
			if hard == 2 {
				cfg.Physics.MaxPushOutSpeed = 1
				cfg.Physics.ContactHertz = 35
				cfg.Physics.ContactDampingRatio = 1.8
			}
			s, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			st.SetStep(step)
			set := st.Settings()
			set.Coarse = mode == "coarse"
			st.SetSettings(set)
			sc := scenario(t, holdScenario)
			left := s.Left()
			prev := left.States(nil)
			var sq float64
			var n int
			var jumps int
			for f := 0; f < sc.Length; f++ {
				s.Step(sc.InputAt(f))
				cur := left.States(nil)
				if f >= 600 {
					for i := 1; i < len(cur); i++ {
						if !cur[i].Interacting {
							continue
						}
						d := cur[i].Position.Sub(prev[i].Position).Len()
						sq += d * d
						n++
						if d > 0.005 {
							jumps++
						}
					}
				}
				prev = cur
			}
			t.Logf("contacts=%d %s: ball cubes' per-tick motion while held RMS %.3f mm over %d cube-ticks, moves >5 mm %d", hard, mode, 1000*math.Sqrt(sq/float64(max(n, 1))), n, jumps)
		}
	}
}
