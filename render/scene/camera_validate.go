package scene

import (
	"errors"

	"netcubes/internal/valid"
)

// ErrInvalidConfig is wrapped by the error Validate returns.
var ErrInvalidConfig = errors.New("scene: invalid camera config")

// Validate reports the first field out of its range, naming it, its value
// and the range (the error wraps ErrInvalidConfig).
func (c CameraConfig) Validate() error {
	const most = valid.Finite
	num := func(name string, v float64) valid.Field { return valid.Field{Name: name, V: v, Lo: -most, Hi: most} }
	return valid.Check(ErrInvalidConfig,
		num("Offset.X", c.Offset[0]), num("Offset.Y", c.Offset[1]), num("Offset.Z", c.Offset[2]),
		num("LookAbove", c.LookAbove),
		valid.Field{Name: "Ease", V: c.Ease, Hi: 1, AboveLo: true},
		valid.Field{Name: "FovYDeg", V: c.FovYDeg, Hi: 180, AboveLo: true},
		valid.Field{Name: "Near", V: c.Near, Hi: most, AboveLo: true},
		valid.Field{Name: "Far", V: c.Far, Lo: c.Near, Hi: most, AboveLo: true},
		num("MinEyeZ", c.MinEyeZ),
		valid.Field{Name: "ZoomFactor", V: c.ZoomFactor, Hi: most, AboveLo: true},
		valid.Field{Name: "FrameRadius", V: c.FrameRadius, Hi: most},
		valid.Field{Name: "FrameSpeed", V: c.FrameSpeed, Hi: most},
		valid.Field{Name: "MinDistance", V: c.MinDistance, Hi: most, AboveLo: true},
		valid.Field{Name: "MaxDistance", V: c.MaxDistance, Lo: c.MinDistance, Hi: most},
		valid.Field{Name: "DistanceEase", V: c.DistanceEase, Hi: 1, AboveLo: true},
	)
}
