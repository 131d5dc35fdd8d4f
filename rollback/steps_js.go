//go:build js

package rollback

// defaultMaxSteps: the browser's physics step is about three times the
// native one (1.2-1.8 ms for 901 cubes), so a tick holds three: a longer
// rollback is finished over the next ticks while the machine stalls.
const defaultMaxSteps = 3
