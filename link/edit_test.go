package link

import (
	"math"
	"testing"
)

// TestNextCap: F7 tightens the bandwidth cap step by step and wraps to
// off; Shift+F7 loosens it; a cap between steps moves to the next one.
func TestNextCap(t *testing.T) {
	tests := []struct {
		cur  float64
		dir  int
		want float64
	}{
		{0, +1, 2048}, {2048, +1, 1024}, {64, +1, 0},
		{0, -1, 64}, {64, -1, 128}, {2048, -1, 0},
		{1000, +1, 512}, {1000, -1, 1024}, {5000, -1, 0}, {5000, +1, 2048}, {10, +1, 0}, {10, -1, 64},
		{math.NaN(), +1, 2048}, {-3, -1, 64},
	}
	for _, tt := range tests {
		if got := NextCap(tt.cur, tt.dir); got != tt.want {
			t.Errorf("nextCap(%g, %+d) = %g, want %g", tt.cur, tt.dir, got, tt.want)
		}
	}
}
