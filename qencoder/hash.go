package qencoder

// Odd 64-bit multipliers for hashString: the fractional parts of the
// golden ratio and of the square root of 5.
const (
	hashMul0 = 0x9e3779b97f4a7c15
	hashMul1 = 0x3c6ef372fe94f82b
)

// hashString returns a 64-bit hash of s for the dynamic table's indexes
// and the fields seen once. It is unkeyed, so that the encoder's output,
// which the seen fields steer, is the same on every run; fields chosen
// to collide can at worst make a lookup scan the whole table, as a table
// without an index would. It folds eight octets at a time with a multiply
// and a shift that brings the high bits down.
func hashString(s string) uint64 {
	h := uint64(len(s)) * hashMul0
	for ; len(s) >= 8; s = s[8:] {
		h = (h ^ load64(s)) * hashMul1
		h ^= h >> 29
	}
	var tail uint64
	for i := range len(s) {
		tail |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ tail) * hashMul1
	return h ^ h>>32
}

// load64 returns the first eight octets of s as a little-endian word; the
// compiler turns it into one load.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
