// Package authority is the sixth strategy: distributed authority, the
// scheme the 2004 article's author describes in its comments ("run the
// physics simulation on all player machines ... the lowest player id
// wins") and his later sample refines (an ownership and an authority
// sequence per cube, the host confirming claims, authority returned at
// rest).
//
// Every machine simulates the whole world. In one process the left is the
// host (it owns every cube nobody has taken and judges the claims), and
// each client's instance is one player's machine with a world of its own
// (machine.go): its own player stepped with its own input at once, the
// cubes it touches claimed when the step's rule allows, the cubes it owns
// sent under a byte budget by state synchronization's priority
// accumulator (package replication), what it hears about the others
// snapped into its world and drawn smoothed. The host (host.go) is shared
// by every instance of a session (Clone): it steps the players with the
// inputs that crossed their links, takes the states of the cubes their
// owners send after a plausibility check, and relays its world to each
// machine; in peer to peer (mesh.go) each machine also sends its cubes
// straight to every other over a simulated link per pair.
//
// The build-up (Step, on [ and ]): host authority only, own cube, the
// lowest id wins, sequences and confirmation, return at rest. The packet
// (packet.go) is one format for every direction; Facts, the authority
// tint of both views (viewmodel.CubeView.Owner) and the bench section
// "authority" (bench.go) show what it does.
package authority
