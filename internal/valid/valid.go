// Package valid checks configuration values against their ranges, for the
// Validate methods of the packages' Configs, so that every package refuses
// a value out of range with the same wording: the field, its value and its
// range (docs/design/config-validation.md).
package valid

import (
	"fmt"
	"math"
)

// Finite as a Field's Hi means no upper bound but a finite value.
const Finite = math.MaxFloat64

// Field is one setting and its range: Lo ≤ V ≤ Hi, or Lo < V ≤ Hi when
// AboveLo. NaN is always out of range.
type Field struct {
	Name    string
	V       float64
	Lo, Hi  float64
	AboveLo bool
}

// Check returns nil when every field is in its range, else an error naming
// the first one that is not, with its value and its range, wrapping base
// (the package's ErrInvalidConfig).
func Check(base error, fields ...Field) error {
	for _, f := range fields {
		// Written so that NaN, failing every comparison, is out of range.
		if (f.AboveLo && f.V > f.Lo || !f.AboveLo && f.V >= f.Lo) && f.V <= f.Hi {
			continue
		}
		return fmt.Errorf("%w: %s = %v, want %s", base, f.Name, f.V, f.want())
	}
	return nil
}

// want says the range in words.
func (f Field) want() string {
	switch {
	case f.Hi == Finite && f.AboveLo:
		return fmt.Sprintf("finite, above %g", f.Lo)
	case f.Hi == Finite:
		return fmt.Sprintf("finite, %g or more", f.Lo)
	case f.AboveLo:
		return fmt.Sprintf("above %g, at most %g", f.Lo, f.Hi)
	}
	return fmt.Sprintf("%g..%g", f.Lo, f.Hi)
}
