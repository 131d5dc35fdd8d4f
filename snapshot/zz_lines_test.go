package snapshot

import (
	"testing"
	"unsafe"
)

func TestZZLines(t *testing.T) {
	p, _, _ := katamariPacket(t, MotionPredicted, true)
	ms := p.Baselines.(modelSource)
	b := ms.snapshotModels(p.Baseline)
	after := p.ent.models
	n := int(unsafe.Sizeof(*b))
	bb := unsafe.Slice((*byte)(unsafe.Pointer(b)), n)
	ab := unsafe.Slice((*byte)(unsafe.Pointer(after)), n)
	var fresh entropyModels
	fresh.reset()
	fb := unsafe.Slice((*byte)(unsafe.Pointer(&fresh)), n)
	diff, notReset := 0, 0
	for i := 0; i < n; i += 64 {
		e := min(i+64, n)
		if string(bb[i:e]) != string(ab[i:e]) {
			diff++
		}
		if string(bb[i:e]) != string(fb[i:e]) {
			notReset++
		}
	}
	t.Logf("size %d lines %d; packet changed %d lines; baseline differs from reset in %d lines", n, (n+63)/64, diff, notReset)
}
