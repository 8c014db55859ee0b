//go:build nghttp2 && !race

package libnghttp2

const raceEnabled = false
