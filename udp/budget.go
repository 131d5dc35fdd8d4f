package udp

import (
	"hash/maphash"
	"net/netip"

	"netcubes/wire"
)

// Design note: the left's budgets for strangers. A stranger has not proved
// anything, so the left keeps no state per stranger; what it keeps instead
// is bounded whatever arrives:
//
//   - sourceBudget: a fixed table of token buckets indexed by a keyed hash
//     of the source address (the seed is drawn at start, so an attacker
//     cannot aim at another address's bucket). A flood from one address
//     empties one bucket; a flood from many spoofed addresses spreads over
//     the table and each address keeps its own few requests a second.
//   - keyBudget: the last keyBudgetSize right public keys whose connect
//     authenticated, each with its own bucket. Only a holder of the token
//     can make a key authenticate, so strangers cannot churn this table;
//     a replayed connect hits its key's empty bucket and is dropped before
//     any key work.

// sourceBuckets is the size of the per-source table: a flood from 14,700
// spoofed addresses a second gives each bucket about 3.6 requests a second,
// under SourceRequestsPerSecond.
const sourceBuckets = 4096

type sourceBudget struct {
	seed    maphash.Seed
	buckets []bucket
	rate    float64
	burst   float64
}

func newSourceBudget(perSecond int) *sourceBudget {
	return &sourceBudget{seed: maphash.MakeSeed(), buckets: make([]bucket, sourceBuckets),
		rate: float64(perSecond) / wire.TicksPerSecond, burst: max(2, float64(perSecond)/2)}
}

// take spends one request of from's bucket.
func (b *sourceBudget) take(from netip.AddrPort, now wire.Tick) bool {
	k := &b.buckets[maphash.Comparable(b.seed, from)%sourceBuckets]
	k.rate, k.burst = b.rate, b.burst
	return k.take(now)
}

// keyBudgetSize is how many right keys the left remembers: more than the
// slots (64) and the rights knocking at once in a busy room.
const keyBudgetSize = 128

type keyEntry struct {
	pub  [keyBytes]byte
	b    bucket
	used wire.Tick
	ok   bool
}

type keyBudget struct {
	keys  [keyBudgetSize]keyEntry
	rate  float64
	burst float64
}

func newKeyBudget(perSecond int) *keyBudget {
	return &keyBudget{rate: float64(perSecond) / wire.TicksPerSecond, burst: max(1, float64(perSecond))}
}

// find is the entry of pub, or -1.
func (k *keyBudget) find(pub []byte) int {
	for i := range k.keys {
		if k.keys[i].ok && string(k.keys[i].pub[:]) == string(pub) {
			return i
		}
	}
	return -1
}

// empty reports whether entry i has no challenge left now (a replay: drop
// it before any key work).
func (k *keyBudget) empty(i int, now wire.Tick) bool {
	e := &k.keys[i]
	probe := e.b
	return !probe.take(now)
}

// take spends one challenge of pub's entry, adding it (in place of the
// least recently used) if it is new. Call it only for a connect that
// authenticated.
func (k *keyBudget) take(pub []byte, now wire.Tick) bool {
	i := k.find(pub)
	if i < 0 {
		i = 0
		for j := range k.keys {
			if !k.keys[j].ok {
				i = j
				break
			}
			if k.keys[j].used < k.keys[i].used {
				i = j
			}
		}
		k.keys[i] = keyEntry{ok: true, b: bucket{rate: k.rate, burst: k.burst}}
		copy(k.keys[i].pub[:], pub)
	}
	e := &k.keys[i]
	e.used = now
	return e.b.take(now)
}
