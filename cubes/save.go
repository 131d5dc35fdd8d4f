package cubes

// Design note: a saved cube world is the physics world's save (see
// physics/save.go: everything a later step reads) plus what this package
// keeps per cube (interacting, rest and hold counters) and the frame
// number, which drives the player's wobble. Restoring it and stepping with
// the same inputs reproduces the original run bit for bit; client-side
// prediction relies on that to rewind and replay.

import (
	"errors"
	"unsafe"

	"netcubes/physics"
)

// Saved is a saved World. The zero value is ready; reuse one value for
// many saves and they stop allocating once it has held one world.
type Saved struct {
	phys  physics.Saved
	meta  []meta
	frame int
}

// Valid reports whether s holds a saved world.
func (s *Saved) Valid() bool { return s.phys.Valid() }

// Bytes is the memory s holds, in bytes (see physics.Saved.Bytes).
func (s *Saved) Bytes() int {
	return s.phys.Bytes() + cap(s.meta)*int(unsafe.Sizeof(meta{})) + int(unsafe.Sizeof(s.frame))
}

// Frame is the frame number of the saved world.
func (s *Saved) Frame() int { return s.frame }

// Save copies w's complete state into s.
func (w *World) Save(s *Saved) {
	w.phys.Save(&s.phys)
	s.meta = append(s.meta[:0], w.meta...)
	s.frame = w.frame
}

// Restore puts w back in the state saved in s, or returns an error (and
// leaves w unchanged) if s is empty or was saved from another world.
func (w *World) Restore(s *Saved) error {
	if len(s.meta) != len(w.meta) && s.Valid() {
		return errors.New("cubes: restore from a world with another number of cubes")
	}
	if err := w.phys.Restore(&s.phys); err != nil {
		return err
	}
	w.meta = append(w.meta[:0], s.meta...)
	w.frame = s.frame
	return nil
}
