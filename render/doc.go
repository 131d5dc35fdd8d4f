// Package render draws one side of the demo (left or right) into a
// rectangle of the screen with Ebitengine: sky, ground, shadows, cubes and
// the teaching overlays. The geometry is built by package scene, which does
// not import Ebitengine; this package only owns GPU images and draw calls,
// and the per-view state that must survive between frames (camera easing,
// colour easing).
package render
