// Package physics is the rigid-body engine of netcubes: dynamic boxes on a
// static ground plane (z = 0, z up), with friction, stacking, sleeping and
// bit-exact determinism. It replaces the ODE solver of the original
// "Networked Physics" demo, and it is written to be read: Step reads as
// its phases, and the comments say why, not only what.
//
// # Using it
//
//	w, _ := physics.NewWorld(physics.DefaultConfig())
//	cube, _ := w.AddBox(physics.BoxDef{
//		HalfExtents: mgl64.Vec3{0.2, 0.2, 0.2},
//		Density:     physics.DefaultDensity,
//		Position:    mgl64.Vec3{0, 0, 0.2},
//	})
//	w.ApplyForce(cube, mgl64.Vec3{10, 0, 0}) // acts during the next Step
//	w.Step()                                 // advances Config.TimeStep (1/60 s)
//	s := w.State(cube)                       // position, orientation, velocities
//	pairs := w.ContactPairs(nil)             // [{A: cube, B: Ground, ...}]
//
// Bodies are named by BodyID, their index in the order they were added.
// Contact queries name the ground Ground. All methods validate their input:
// NaN, Inf and overflowing values are rejected with ErrNonFinite and
// counted (Stats().RejectedInputs), so a World never holds NaN.
//
// # One step, phase by phase
//
// Step runs these phases in order. Sleeping bodies take part in none of
// them, so a world at rest costs almost nothing.
//
//  1. Broadphase (findPairs). Each awake body gets "fat" bounds: its
//     box grown by how far it can move this step. A uniform grid (a spatial
//     hash) finds the pairs of bodies whose fat bounds overlap, plus the
//     bodies near the ground. Sleeping bodies sit in a second grid that is
//     rebuilt only when something falls asleep or wakes.
//
//  2. Contacts (updateContacts). Each candidate pair has a persistent contact
//     record that lives as long as the pair stays close. The records are
//     kept sorted by (body, body), so merging them with the new pairs is
//     one linear pass and the order of everything that follows is fixed.
//
//  3. Narrowphase (narrowphase). For each contact with an
//     awake body, the exact geometry: the separating axis test over 15 axes
//     picks the contact normal, clipping the incident face against the
//     reference face gives up to 4 points, and each point gets a feature id
//     naming the corners, edges and faces that made it. Points are kept
//     even before the boxes touch, up to the distance the pair can close
//     in one step ("speculative" contacts; bounded from one body's motion
//     as seen from the other, so cubes that tumble together get few). A
//     point whose id existed last
//     step inherits its impulse, which is what makes stacks stand still.
//
//  4. Waking (wakeTouched). A contact with points between an awake body and
//     a sleeping one wakes the sleeping body's whole island, before the
//     solver runs, so the sleeping bodies take part in this very step.
//
//  5. Solver, "soft step" (prepareSolver, then per substep
//     integrateVelocities, solveContacts, integratePositions and
//     solveContacts again; after Erin Catto's Solver2D and Box2D v3). The step is cut into substeps (8 by default). Each substep:
//     integrate velocities (gravity, forces, and the warm start: last
//     substep's impulses applied again up front); solve the contacts with a
//     soft push-out bias (a damped spring per contact point, stiff but
//     stable even at a 53:1 mass ratio); integrate positions; then relax:
//     solve again without the bias, so push-out moves bodies apart without
//     launching them, and solve friction. During the substeps the contacts
//     are not recomputed: each point's separation is updated from the
//     bodies' motion since the step began. A speculative point lets the
//     bodies close its gap and no more, which is how fast bodies are kept
//     from tunnelling.
//
//  6. Restitution (applyRestitution, if enabled) and storing the impulses in the contacts for
//     the next step's warm start. Contacts that pushed or ended within
//     LinearSlop are marked touching for the game, with the step's impulse
//     and whether the touch began this step.
//
//  7. Finalize (finalizeBodies). New positions and orientations are written back,
//     velocities clamped to the speed limits, forces cleared.
//
//  8. Sleep (updateSleep). Awake bodies are grouped into islands (bodies
//     connected by contacts); an island whose bodies have all been slower
//     than SleepSpeed for SleepTime falls asleep together.
//
// # Determinism
//
// The same initial state and the same sequence of calls give bit-identical
// states on every run and every CPU: no maps are iterated, there is no
// clock, goroutine or random number, everything is processed in body or
// contact-key order, only +, −, ×, ÷ and sqrt are used in the step (the
// orientation is integrated as q += ½·h·ω⊗q and renormalized, no sin or
// cos), and every product that feeds an addition is written float64(x*y),
// which forbids the compiler from fusing it into an FMA instruction
// (TestNoFusedMultiplyAdd checks the assembly for arm64 and amd64 v3).
// StateHash condenses the state into 64 bits to compare two simulations.
//
// # Networking
//
// SetState replaces a body's state, for example with one received from the
// network. A change within a small tolerance of the body's resting pose
// does not wake it, so a receiver that re-quantizes every body before
// every step ("quantize both sides") keeps a resting world asleep and
// still; a real correction wakes it and its island. See SetState.
//
// Save and Restore (save.go) copy what a later step reads (the bodies'
// state, pending forces, each live contact with its manifold's points and
// warm-start impulses, the sleep state) into a reusable Saved value and
// back, and rebuild the rest (rotation matrices, a sleeping body's bounds,
// the broadphase's grids) or leave it to the next step (the solver's
// scratch): stepping a restored world reproduces the original run bit for
// bit, which is what rewind and replay (client-side prediction) needs. A
// save of 901 cubes mid-gather holds about 0.7 MB (1.9 MB when it copied
// the whole World), with no allocation once the Saved value is warm
// (BenchmarkSaveRestore and BenchmarkSaveRestoreRing in package cubes).
//
// # Units
//
// Metres, seconds, kilograms, radians; z is up. The netcubes boxes use
// DefaultDensity (1 kg/m³): a 0.4 m cube weighs 0.064 kg and the 1.5 m
// player 3.375 kg. The game scales its forces by mass, so this only sets
// the unit of the impulses reported by the contact queries.
package physics
