package ui

import (
	"testing"

	"github.com/go-gl/mathgl/mgl64"
)

func TestOffField(t *testing.T) {
	for _, c := range []struct {
		pos  mgl64.Vec3
		want string
	}{
		{mgl64.Vec3{0, 0, 1}, ""},
		{mgl64.Vec3{15.5, 3, 1}, ""},
		{mgl64.Vec3{0, -27, 1}, "off the field: the grid is 12 m ahead · F5 starts over"},
		{mgl64.Vec3{0, 22, 1}, "off the field: the grid is 7 m behind · F5 starts over"},
		{mgl64.Vec3{25, 0, 1}, "off the field: the grid is 10 m to the left · F5 starts over"},
		{mgl64.Vec3{-20, -20, 1}, "off the field: the grid is 7 m ahead and to the right · F5 starts over"},
	} {
		got, ok := offField(c.pos)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("offField(%v) = %q, %v; want %q", c.pos, got, ok, c.want)
		}
	}
}
