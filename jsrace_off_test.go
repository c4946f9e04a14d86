//go:build !race

package hooks

// raceSlowdown scales what a chaos test allows a call past its deadline:
// without the race detector, nothing.
const raceSlowdown = 1
