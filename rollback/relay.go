package rollback

import "netcubes/cubes"

// ring is the size of the input and hash rings, by frame (a power of two,
// larger than any delay the link adds).
const ring = 1024

// relay is the server's store of every player's inputs: those that play at
// the server from its own input, the others as their clients send them
// up. Unlike lockstep's, it never waits for a frame to be complete: each
// player's inputs go down as far as they are held (next[p]). One relay
// serves every client's instance.
type relay struct {
	start   int
	players int
	next    [cubes.MaxPlayers]int // first frame of player p not held
	have    [cubes.MaxPlayers][ring]int32
	in      [cubes.MaxPlayers][ring]uint8
	// The left world's hash at frame preparedAt: hashing 901 cubes is the
	// server's work once a tick, not once per client.
	// adv[p] is player p's machine's frame advantage as its client last
	// reported it (0 for the players that play at the server).
	adv        [cubes.MaxPlayers]int32
	hash       uint32
	preparedAt int
	// refused counts inputs a client sent that the relay did not take: for
	// a frame it already held with another value, or too far ahead.
	refused int
}

func (r *relay) reset(start, players int) {
	r.start, r.players, r.preparedAt, r.refused = start, players, -1, 0
	r.adv = [cubes.MaxPlayers]int32{}
	for p := range r.have {
		r.next[p] = start
		for k := range r.have[p] {
			r.have[p][k] = -1
		}
	}
}

// put stores player p's input of frame f. The first input of a frame is
// final: a client that sends another value for a frame the relay holds
// (a hostile one forcing rollbacks on every machine) is refused and
// counted.
func (r *relay) put(p, f int, bits uint8) {
	if p < 0 || p >= r.players || f < r.start || f >= r.next[p]+ring {
		r.refused++
		return
	}
	if r.have[p][f%ring] == int32(f) {
		if r.in[p][f%ring] != bits {
			r.refused++
		}
		return
	}
	if f < r.next[p] {
		return // held long ago, out of the ring
	}
	r.have[p][f%ring] = int32(f)
	r.in[p][f%ring] = bits
	for r.have[p][r.next[p]%ring] == int32(r.next[p]) {
		r.next[p]++
	}
}
