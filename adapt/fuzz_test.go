package adapt

import (
	"encoding/binary"
	"testing"
)

// FuzzEstimator drives a tracker and an estimator with whatever a path
// could do to a sender's packets (sizes, ack delays, losses, acks of
// frames never sent, duplicate acks, gaps in time) and with raw samples:
// nothing panics, the rate stays within its bounds and the reason reads.
func FuzzEstimator(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{255, 255, 255, 255, 0, 0, 0, 0, 128, 64, 32, 16, 8, 4, 2, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		e := New(DefaultConfig(64, 512))
		var tr Tracker
		tr.Reset()
		now := 0
		pending := map[int][]int{}
		for len(data) >= 4 {
			op, a, b, c := data[0], int(data[1]), int(data[2]), int(data[3])
			data = data[4:]
			switch op % 4 {
			case 0: // a tick: send a packet, its ack comes back after b ticks unless c says lost
				for _, fr := range pending[now] {
					tr.Acked(fr, now)
				}
				delete(pending, now)
				e.Update(tr.Tick(now, e.LossWaitTicks()))
				tr.Sent(now, 40+a*8)
				if c%5 != 0 {
					pending[now+1+b] = append(pending[now+1+b], now)
				}
				now++
			case 1: // a stray ack
				tr.Acked(now-a, now)
				tr.Acked(now+b, now)
			case 2: // a jump in time
				now += a * b
			case 3: // a raw sample
				var s Sample
				s.Tick = now + a - 128
				s.Sent, s.Acked, s.Lost, s.RTTs = a, b, c, int(op)
				s.SentBytes, s.AckedBytes = a*1000, b*1000
				s.RTTSum = int64(binary.LittleEndian.Uint16([]byte{byte(a), byte(b)}))
				s.RTTSumSq = s.RTTSum * int64(c)
				e.Update(s)
			}
			if k := e.Kbps(); k < 64 || k > 512 {
				t.Fatalf("rate %d kbit/s outside 64..512", k)
			}
			if e.Reason() == "" {
				t.Fatal("no reason")
			}
			e.SetMaxKbps(64 + a*2)
			if k := e.Kbps(); k < 64 || k > max(64+a*2, 64) {
				t.Fatalf("rate %d after SetMaxKbps(%d)", k, 64+a*2)
			}
			e.SetMaxKbps(512)
		}
	})
}
