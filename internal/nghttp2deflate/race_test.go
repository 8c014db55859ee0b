//go:build nghttp2 && race

package nghttp2deflate

const raceEnabled = true
