package scene

// Cube colours tell the story of the demo: the player is blue, cubes that
// the player's touch has reached ("interacting") are red, cubes at rest are
// a light grey. Colour changes are eased over a few ticks so a cube that
// blinks in and out of contact does not flicker, and the fade back to grey
// is slow enough to watch interaction die away.

// Palette holds the base colours and easing rates.
type Palette struct {
	Player, Interacting, Resting RGBA
	// Others are the colours of players 2..8 (player 1 is Player): far
	// from the interacting red and the resting grey, and from each other.
	Others [7]RGBA
	// Updated is the flash colour of the "updated this tick" overlay;
	// PriorityLow/High are the ends of the priority heat scale.
	Updated, PriorityLow, PriorityHigh RGBA

	RiseRate  float32 // fraction toward red per tick when a cube becomes interacting
	FallRate  float32 // fraction toward grey per tick when it stops
	FlashHold float32 // how much of the update flash survives each tick
}

// DefaultPalette is readable on a projector and for red–green colour
// blindness (red against grey and blue, not against green).
func DefaultPalette() Palette {
	return Palette{
		Player: RGBA{0.22, 0.50, 0.95, 1},
		Others: [7]RGBA{
			{1.00, 0.60, 0.05, 1}, // orange
			{0.15, 0.75, 0.35, 1}, // green
			{0.62, 0.32, 0.90, 1}, // purple
			{0.95, 0.88, 0.10, 1}, // yellow
			{0.10, 0.80, 0.85, 1}, // cyan
			{0.95, 0.35, 0.75, 1}, // pink
			{0.45, 0.30, 0.15, 1}, // brown
		},
		Interacting:  RGBA{0.93, 0.20, 0.17, 1},
		Resting:      RGBA{0.92, 0.92, 0.90, 1},
		Updated:      RGBA{1.00, 0.85, 0.10, 1},
		PriorityLow:  RGBA{0.20, 0.25, 0.60, 1},
		PriorityHigh: RGBA{1.00, 0.80, 0.15, 1},
		RiseRate:     0.35,
		FallRate:     0.06,
		FlashHold:    0.80,
	}
}

// Mix returns a + (b − a)·t.
func Mix(a, b RGBA, t float32) RGBA {
	return RGBA{
		R: a.R + (b.R-a.R)*t,
		G: a.G + (b.G-a.G)*t,
		B: a.B + (b.B-a.B)*t,
		A: a.A + (b.A-a.A)*t,
	}
}

// Easer keeps the eased colour state of every cube of one view. Advance it
// once per simulation tick (not per drawn frame) so the fades look the same
// at any frame rate and freeze when the simulation is paused.
type Easer struct {
	red   []float32 // 0 = resting colour, 1 = interacting colour
	flash []float32 // 1 just after an update, decays to 0
}

// Advance moves every cube's colour one tick toward its target.
// interacting(i) and updated(i) describe cube i this tick.
func (e *Easer) Advance(p *Palette, n int, interacting, updated func(i int) bool) {
	if len(e.red) != n {
		e.red = make([]float32, n)
		e.flash = make([]float32, n)
		for i := 0; i < n; i++ {
			if interacting(i) {
				e.red[i] = 1
			}
		}
	}
	for i := 0; i < n; i++ {
		if interacting(i) {
			e.red[i] += (1 - e.red[i]) * p.RiseRate
		} else {
			e.red[i] -= e.red[i] * p.FallRate
		}
		e.flash[i] *= p.FlashHold
		if updated(i) {
			e.flash[i] = 1
		}
	}
}

// Reset forgets all eased state (after a session reset).
func (e *Easer) Reset() { e.red, e.flash = e.red[:0], e.flash[:0] }

// Red is cube i's eased interacting amount, 0..1.
func (e *Easer) Red(i int) float32 {
	if i < len(e.red) {
		return e.red[i]
	}
	return 0
}

// Flash is cube i's eased "updated" flash, 0..1.
func (e *Easer) Flash(i int) float32 {
	if i < len(e.flash) {
		return e.flash[i]
	}
	return 0
}

// PlayerColor is the colour of player n (1..8; player 1's otherwise).
func (p *Palette) PlayerColor(n uint8) RGBA {
	if n >= 2 && int(n-2) < len(p.Others) {
		return p.Others[n-2]
	}
	return p.Player
}
