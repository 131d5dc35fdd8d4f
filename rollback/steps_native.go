//go:build !js

package rollback

// defaultMaxSteps: a window's resimulation and the step forward.
const defaultMaxSteps = 9
