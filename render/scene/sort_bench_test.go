package scene

import (
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

// BenchmarkSortFaces sorts one frame's face keys of the demo scene, by the
// radix sort AddCubes uses and by slices.Sort for comparison.
func BenchmarkSortFaces(b *testing.B) {
	bl := NewBuilder(DefaultStyle())
	bl.Begin(testProjector())
	bl.AddGround(mgl64.Vec3{})
	bl.AddCubes(demoCubes())
	// The keys in the order they were queued in: by face index.
	queued := slices.Clone(bl.order)
	slices.SortFunc(queued, func(a, c uint64) int { return int(uint32(a)) - int(uint32(c)) })
	work := make([]uint64, len(queued))
	var tmp []uint64
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(work, queued)
			// work and tmp trade places as AddCubes's slices do, so the
			// two never share storage.
			work = sortKeys(work, &tmp)
		}
	})
	b.Run("slices", func(b *testing.B) {
		for b.Loop() {
			copy(work, queued)
			slices.Sort(work)
		}
	})
}
