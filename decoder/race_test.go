//go:build race

package decoder

// raceEnabled reports that the race detector is on; it allocates, so the
// allocation tests skip.
const raceEnabled = true
