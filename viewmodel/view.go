package viewmodel

import "github.com/go-gl/mathgl/mgl64"

// The view model is the one-way boundary between the simulation side
// (game, cubes, net, physics) and the drawing side (render, ui): the session
// fills a View every tick and the renderer only reads it. Nothing in it
// points back into a world, so drawing can never change the simulation.

// CubeView is one cube as the renderer should draw it.
type CubeView struct {
	Position    mgl64.Vec3 // centre, metres (z up)
	Orientation mgl64.Quat // unit quaternion
	HalfExtent  float64    // half the edge length, metres
	Player      bool       // a player's cube
	PlayerNum   uint8      // which player's (1..8; 0 for the other cubes): its colour
	Interacting bool       // drawn red: touched by the player or by an interacting cube
	AtRest      bool       // below the at-rest speed for a while

	// Teaching overlays; zero when the strategy has nothing to show.
	Updated     bool       // a state update for this cube was applied this tick
	Priority    float64    // priority accumulator scaled to 0..1 (state sync)
	ErrorOffset mgl64.Vec3 // rendered position minus simulation position (visual smoothing), metres
	Owner       uint8      // distributed authority: the player (1..8) whose machine simulates it, 0 for the default (the host)
	HandOff     bool       // distributed authority: it changed hands a moment ago (drawn as a flash)
}

// View is everything one side shows for one tick.
type View struct {
	Cubes []CubeView
	// Player is the index in Cubes of the player cube the camera follows:
	// the shown client's own player.
	Player int
	// HasPriority and HasErrorOffsets say whether the strategy fills those
	// overlay fields, so the renderer can say "not available" instead of
	// drawing zeros.
	HasPriority, HasErrorOffsets bool
	// HasOwners says the strategy fills Owner and HandOff: the renderer
	// tints each cube in its owner's colour.
	HasOwners bool
	// Marks are a strategy's own outlines over its view (the 2004
	// client's last known server pose and the jump of its last replay);
	// the renderer draws them with the ghost overlay.
	Marks []Mark
}

// MarkKind says what a Mark shows, and so its colour.
type MarkKind uint8

const (
	// MarkServer is the server's last known pose of a cube.
	MarkServer MarkKind = iota
	// MarkReplay is where a replay moved a cube from; To is where to.
	MarkReplay
	// MarkTruth is another player's true pose on the server now (the
	// ghost's colour), over a client that draws it in the past or ahead.
	MarkTruth
	// MarkDisputed is a tag whose verdict disputes what the client saw:
	// where the client saw the tagged player; To is where the server
	// judged it.
	MarkDisputed
	// MarkContested is a cube two machines claimed a moment ago
	// (distributed authority).
	MarkContested
)

// Mark is one outlined cube pose.
type Mark struct {
	Kind        MarkKind
	Position    mgl64.Vec3
	Orientation mgl64.Quat
	HalfExtent  float64
	To          mgl64.Vec3 // MarkReplay: the pose's new centre
}
