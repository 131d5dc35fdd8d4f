package talk

import (
	"io"

	"netcubes/cubes"
)

// Parse is ParseWith with the scripts' usual loader, for the tests.
func Parse(name string, r io.Reader) (*Track, error) { return ParseWith(name, r, cubes.LoadScript) }
