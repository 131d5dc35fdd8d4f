// Package scene turns a list of cubes into screen-space triangles: the
// camera, the perspective projection, back-face culling, near-plane
// clipping, the painter's-algorithm depth sort, flat shading, the ground
// grid and the projected shadows.
//
// It does not import Ebitengine, so all of the render math is tested and
// benchmarked without a display; package render only copies the meshes
// built here into Ebitengine draw calls.
//
// Why a painter's algorithm: Ebitengine draws 2D triangles and has no depth
// buffer. Back-face culling leaves at most three faces per cube; the faces
// of all cubes are sorted far to near by the distance of their centres from
// the eye and drawn in that order. That is right whenever faces are small
// compared with the gaps between them, so the 1.5 m player's faces are cut
// into tiles of about the size of a 0.4 m cube: a cube lying on the far side
// of the player's top face then sorts behind only the tiles that really are
// in front of it.
package scene
