package snapshot

import "sync/atomic"

// Copying only what differs from what the destination holds (the sender,
// lend.go). A packet that names its baseline again while the baseline's
// models are lent copies them into the packet's storage (copyModels),
// writing every line not known clean in both: late in the katamari script
// about half of the 5,267 lines, though the storage it writes into often
// holds a near relative of the baseline's models already (a snapshot of the
// same client a few ticks older, whose chain of baselines meets the
// baseline's a step or two up).
//
// So each model block carries the id of the version of the models it holds
// (entropyModels.ver), and each sender's coder keeps the last versions it
// made by a replay: the version replayed from (parent) and the lines the
// replay may have written (its trace's mask). Two versions differ at most in
// the lines of the replays between them and their nearest common ancestor,
// and a copy writes only those (and, as before, not the lines clean in
// both). Every other way of writing a block's lines makes its version
// unknown (0: coding it whole, writing its cubes' memory), and an unknown
// version, or one not found within maxVersionWalk steps, makes the copy
// write every line not clean in both, as before. A version names the same
// contents wherever it is: ids are never reused (owner and count), a copy
// gives its destination the version it copied, and putting a lender's saved
// lines back gives the storage the lender's version.

// rootVersion is the version of models just reset: the same everywhere.
const rootVersion = 1

// numVersions is how many of its last versions a coder keeps, and
// maxVersionWalk how far up a copy looks for a common ancestor.
const (
	numVersions    = 64
	maxVersionWalk = 16
)

// versionOwners numbers the coders that make versions: an id is its
// owner's number above 32 bits and its count below.
var versionOwners atomic.Uint64

// modelVersion is one replay's result.
type modelVersion struct {
	id, parent uint64
	mask       [cleanWords]uint64 // the lines the replay may have written
}

// modelVersions is a coder's last versions, a ring.
type modelVersions struct {
	owner uint64
	n     uint64
	ring  [numVersions]modelVersion
}

func newModelVersions() *modelVersions {
	return &modelVersions{owner: versionOwners.Add(1) << 32}
}

// add makes a new version: parent's contents with the lines of mask
// written.
func (v *modelVersions) add(parent uint64, mask *[cleanWords]uint64) uint64 {
	v.n++
	x := &v.ring[v.n%numVersions]
	x.id, x.parent, x.mask = v.owner|v.n&0xffffffff, parent, *mask
	return x.id
}

// find is version id, nil when it is not one of this coder's last.
func (v *modelVersions) find(id uint64) *modelVersion {
	if id&^0xffffffff != v.owner {
		return nil
	}
	x := &v.ring[(id&0xffffffff)%numVersions]
	if x.id != id {
		return nil
	}
	return x
}

// diff sets *out to the lines in which versions a and b may differ, or
// returns false when it cannot tell (a version unknown, or no common
// ancestor found within maxVersionWalk steps of each).
func (v *modelVersions) diff(a, b uint64, out *[cleanWords]uint64) bool {
	*out = [cleanWords]uint64{}
	if a == 0 || b == 0 {
		return false
	}
	var up [maxVersionWalk + 1]uint64
	n := 0
	for id := a; ; {
		up[n] = id
		n++
		x := v.find(id)
		if x == nil || x.parent == 0 || n == len(up) {
			break
		}
		id = x.parent
	}
	for id, steps := b, 0; ; steps++ {
		for k := range n {
			if up[k] != id {
				continue
			}
			for _, u := range up[:k] {
				orInto(out, &v.find(u).mask)
			}
			return true
		}
		x := v.find(id)
		if x == nil || x.parent == 0 || steps == maxVersionWalk {
			return false
		}
		orInto(out, &x.mask)
		id = x.parent
	}
}

func orInto(dst, src *[cleanWords]uint64) {
	for w := range dst {
		dst[w] |= src[w]
	}
}
