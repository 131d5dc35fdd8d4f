//go:build amd64 && !purego

package arith

import "testing"

// TestKernelTables: the kernel's copies of the tables are the Go loop's.
func TestKernelTables(t *testing.T) {
	if kernelTab.stretch != stretch32 || kernelTab.cost != costTable || [4095]uint16(kernelTab.squash[:4095]) != squashTable {
		t.Fatal("the stretch, cost or squash table differs from the Go loop's")
	}
	for n, r := range adaptRates {
		if kernelTab.rates[n] != [4]uint32{r.fast, r.slow, r.step, 0} {
			t.Fatalf("rates %d differ", n)
		}
	}
}
