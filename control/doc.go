// Package control is the app's controller: the Director turns the
// presenter's keys and a talk track's commands (package talk) into changes
// of the session, keeps the log of everything that happened (the recording
// of -record is written from it) and goes back in time.
//
// # Recordings
//
// The app's -record writes a track: the setup the command line gave, then
// every command the presenter's keys gave, each at its frame, the time the
// run stood still, and the players' keys as ranges. Played back it is the
// same run bit for bit: the same state hashes and the same figures at
// every frame (the tests compare them with every kind of command, and over
// a lossy preset).
//
// # The presenter during playback
//
// While a track plays the presenter keeps the time keys (pause, step, slow
// motion, back 5 s, previous and next caption) and the view keys (the
// overlays G, T, E and F3, the help, the client shown (Tab), text size,
// fullscreen, mute): they are recorded, the track plays on. One rule for
// the rest: a key that changes the session takes over — the track stops,
// the note says so, the key applies and is recorded; going back
// (Backspace, PageUp) plays the track on again from there. While a jump in
// time is being re-simulated, keys that change the session are refused
// with a note ("a moment").
//
// Going back re-simulates from the last restart point the log holds (the
// start, a reset, a scene), fast, with a progress figure on the HUD; the
// frames it reaches are the frames the straight run had.
package control
