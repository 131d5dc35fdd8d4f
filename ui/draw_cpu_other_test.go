//go:build !linux

package ui

// threadCPU: only Linux's per-thread accounting is read here.
func threadCPU() (ns int64, ok bool) { return 0, false }
