//go:build !race

package qencoder

// raceEnabled reports that the race detector is on; it allocates, so the
// allocation test skips.
const raceEnabled = false
