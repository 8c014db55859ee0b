//go:build race

package hpack

// raceEnabled reports that the race detector is on; it allocates, so the
// allocation test skips.
const raceEnabled = true
