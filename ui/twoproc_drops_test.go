package ui

import (
	"strings"
	"testing"

	"netcubes/udp"
)

// TestDescribeDropsLabels: every reason has its own label, and the total is
// the sum (each refused datagram counted once).
func TestDescribeDropsLabels(t *testing.T) {
	d := udp.Drops{Forged: 3, Replayed: 1, Expired: 1, Stale: 2, Misdirected: 4, NotConnected: 1, Ignored: 5, Unanswered: 7}
	got := describeDrops(d)
	for _, want := range []string{"24 datagrams", "3 failed authentication", "1 replayed", "1 expired cookie", "2 stale connect",
		"4 sent back or from elsewhere", "1 not in a session", "5 denies ignored", "7 unanswered (rate limit)"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
}
