//go:build purego

package property

// purego reports the purego build of the encoder, whose AppendField copies
// its []byte name and value: up to two allocations a call.
const purego = true
