package render

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/viewmodel"
)

// TestGhostsAtMostMaxGhosts: with 200 cubes off, only MaxGhosts are
// outlined, the player among them and the rest the farthest; with a few
// off, all of them; in sync, none.
func TestGhostsAtMostMaxGhosts(t *testing.T) {
	const n = 300
	mk := func() *viewmodel.View {
		v := &viewmodel.View{Player: 0}
		for i := range n {
			v.Cubes = append(v.Cubes, viewmodel.CubeView{Position: mgl64.Vec3{float64(i), 0, 0}, Orientation: mgl64.QuatIdent(), HalfExtent: 0.2})
		}
		return v
	}
	drawn, truth := mk(), mk()
	if idx, off := pickGhosts(drawn, truth, nil); len(idx) != 0 || off != 0 {
		t.Fatalf("in sync: %d ghosts", len(idx))
	}
	for i := 0; i < 5; i++ {
		drawn.Cubes[i*10].Position[1] = 1
	}
	if idx, off := pickGhosts(drawn, truth, nil); len(idx) != 5 || off != 5 {
		t.Fatalf("5 off: %d ghosts of %d", len(idx), off)
	}
	for i := 0; i < 200; i++ {
		drawn.Cubes[i].Position[1] = float64(i) / 100 // cube i is i cm off
	}
	drawn.Cubes[0].Position[1] = 0.05 // the player, barely off
	idx, off := pickGhosts(drawn, truth, nil)
	if off != 198 || len(idx) != MaxGhosts || idx[0] != 0 { // cubes 3..199 and the player
		t.Fatalf("198 off: %d ghosts, first %d, off %d", len(idx), idx[0], off)
	}
	for _, i := range idx[1:] {
		if i < 200-MaxGhosts+1 {
			t.Errorf("cube %d (%d cm off) outlined before a farther one", i, i)
		}
	}
}
