//go:build !race

package property

// raceEnabled reports that the binary was built with -race: allocation
// counts are meaningless and every property runs a tenth of its runs.
const raceEnabled = false
