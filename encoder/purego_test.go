//go:build purego

package encoder

// purego reports the purego build (safe.go): AppendField copies its []byte
// arguments, so the allocation tests of that API skip.
const purego = true
