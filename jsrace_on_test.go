//go:build race

package hooks

// raceSlowdown scales what a chaos test allows a call past its deadline:
// the race detector makes goja's Go code several times slower, and a step
// no interrupt can cut (building one long string) with it.
const raceSlowdown = 5
