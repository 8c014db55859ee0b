//go:build !race

package certify_test

// raceEnabled reports that the race detector is on; it can allocate, so
// allocation counts are not checked.
const raceEnabled = false
