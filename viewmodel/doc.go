// Package viewmodel is the one-way boundary between the simulation side
// (physics, cubes, the strategies, the session in package game) and the
// drawing side (render, ui): every tick the session fills a View per side
// and the figures of Metrics, and the renderer and the HUD only read them.
// Nothing here points back into a world, so drawing can never change the
// simulation.
//
//   - view.go: View and CubeView, one cube as it should be drawn, with the
//     teaching overlays a strategy can fill (updated, priority, smoothing
//     offsets).
//   - metrics.go: Metrics, the honest numbers of one tick (bandwidth both
//     ways, RTT, loss, the error against the truth), and PacketRecord, one
//     packet of the HUD's timeline.
//   - hud.go: HUD, the HUD of one tick as one value: BuildHUD words a
//     client's Facts (from the session) and the app's AppFacts into every
//     line the HUD shows, its colours as roles; the app lays it out.
//   - strip.go: Strip, one client's compact figures under its view in
//     the grid (link, RTT, loss, error, how far in the past), worded from
//     the same facts.
//   - words.go: Plural, counts written the way they are read ("1 tick").
//   - compare.go: Comparison, the app's comparison chart as data: one
//     point per strategy, setting and link the presenter showed, the
//     average of the HUD's figures over its last seconds on screen.
package viewmodel
