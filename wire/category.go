package wire

import "strconv"

// Design note: to teach where bandwidth goes, every bit a stream processes is
// charged to the category that packet code selected last with
// Stream.SetCategory. The set of categories is a small fixed enum, and the
// counts live in a fixed array indexed by it: no map, so no allocation and no
// iteration order to worry about, and a breakdown is a plain value that can
// be copied into a view model.

// Category names a group of fields in a packet, for the bit-budget breakdown.
type Category uint8

// The categories, in the order a breakdown lists them.
const (
	CategoryHeader      Category = iota // sequence numbers, baselines, packet type, counts
	CategoryAcks                        // ack and ack bits
	CategoryInput                       // player input
	CategoryIndices                     // which cube an update is for
	CategoryFlags                       // per-cube flags: changed, at rest, interacting
	CategoryPosition                    // positions and position deltas
	CategoryOrientation                 // orientations and orientation deltas
	CategoryVelocity                    // linear and angular velocities
	CategoryOther                       // anything else, including alignment padding

	// NumCategories is the number of categories; valid categories are below it.
	NumCategories = iota
)

var categoryNames = [NumCategories]string{
	CategoryHeader:      "header",
	CategoryAcks:        "acks",
	CategoryInput:       "input",
	CategoryIndices:     "indices",
	CategoryFlags:       "flags",
	CategoryPosition:    "position",
	CategoryOrientation: "orientation",
	CategoryVelocity:    "velocity",
	CategoryOther:       "other",
}

// String returns the category's lower-case name, or "category(N)" when it is
// not a valid category.
func (c Category) String() string {
	if int(c) < NumCategories {
		return categoryNames[c]
	}
	return "category(" + strconv.Itoa(int(c)) + ")"
}

// Breakdown holds a bit count per category. It is a value: copying it copies
// the counts.
type Breakdown [NumCategories]int

// Total is the sum of all categories.
func (b *Breakdown) Total() int {
	t := 0
	for _, n := range b {
		t += n
	}
	return t
}

// Bits returns the count for category c (0 for an invalid category).
func (b *Breakdown) Bits(c Category) int {
	if int(c) < NumCategories {
		return b[c]
	}
	return 0
}

// Add adds the counts of o to b, for totals over several packets.
func (b *Breakdown) Add(o Breakdown) {
	for i := range b {
		b[i] += o[i]
	}
}
