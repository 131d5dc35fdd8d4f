package cubes

import "strings"

// Input is what the presenter holds down during one 1/60 s tick. The same
// six keys drive the original demo: arrows move, blow pushes nearby cubes
// away and lifts the player, katamari pulls cubes into a ball.
type Input struct {
	Left, Right, Up, Down bool
	Blow                  bool // push cubes away from just under the player (Space)
	Katamari              bool // pull cubes toward the player centre (Z)
}

// InputBits is the number of bits Input packs into.
const InputBits = 6

// keyNames are the script-file names of the keys, in bit order.
var keyNames = [InputBits]string{"left", "right", "up", "down", "blow", "katamari"}

func (in Input) keys() [InputBits]bool {
	return [InputBits]bool{in.Left, in.Right, in.Up, in.Down, in.Blow, in.Katamari}
}

// Bits packs the input into InputBits bits, for packets and hashes.
func (in Input) Bits() uint8 {
	var b uint8
	for i, down := range in.keys() {
		if down {
			b |= 1 << i
		}
	}
	return b
}

// InputFromBits unpacks Bits; bits above InputBits are ignored.
func InputFromBits(b uint8) Input {
	return Input{
		Left: b&1 != 0, Right: b&2 != 0, Up: b&4 != 0, Down: b&8 != 0,
		Blow: b&16 != 0, Katamari: b&32 != 0,
	}
}

// String lists the held keys as a script line would ("up katamari"), or
// "-" when nothing is held.
func (in Input) String() string {
	var names []string
	for i, down := range in.keys() {
		if down {
			names = append(names, keyNames[i])
		}
	}
	if len(names) == 0 {
		return "-"
	}
	return strings.Join(names, " ")
}
