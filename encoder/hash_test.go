package encoder

import (
	"math/rand/v2"
	"testing"
)

// TestHashBytes checks that hashString depends on every bit of its input,
// on the input's length and on its key: flipping any one bit of strings of
// every length up to 70 bytes, appending a zero byte, or changing the key
// changes the hash (a 64-bit hash collides by chance with probability
// 2^-64 per pair, so any collision here is a defect).
func TestHashBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	key := rng.Uint64()
	for n := range 71 {
		b := make([]byte, n, n+1)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		h := hashString(key, string(b))
		if again := hashString(key, string(append([]byte(nil), b...))); again != h {
			t.Fatalf("hashString of a copy of %x = %#x; want %#x", b, again, h)
		}
		for i := range n * 8 {
			b[i/8] ^= 1 << (i % 8)
			if flipped := hashString(key, string(b)); flipped == h {
				t.Fatalf("hashString(%x) with bit %d flipped = %#x, the same as unflipped", b, i, h)
			}
			b[i/8] ^= 1 << (i % 8)
		}
		if longer := hashString(key, string(append(b, 0))); longer == h {
			t.Fatalf("hashString(%x) = hashString of it with a zero byte appended", b)
		}
		if other := hashString(key^1, string(b)); other == h {
			t.Fatalf("hashString(%x) is the same under keys %#x and %#x", b, key, key^1)
		}
	}
}

// TestHashBytesSpread checks that the low bits of the folded hash, which
// pick a slot, spread header-like keys evenly: 4096 strings that differ in
// a counter fill 256 buckets with no bucket over 3 times its fair share.
func TestHashBytesSpread(t *testing.T) {
	key := rand.New(rand.NewPCG(16, 17)).Uint64()
	for _, prefix := range []string{"", "x-request-id-", "/static/assets/images/very/long/path/to/file-"} {
		var buckets [256]int
		for i := range 4096 {
			s := prefix + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('0'+i/676))
			buckets[fold(hashString(key, s))&255]++
		}
		for i, c := range buckets {
			if c > 3*4096/256 {
				t.Fatalf("prefix %q: bucket %d holds %d of 4096 keys; want at most %d", prefix, i, c, 3*4096/256)
			}
		}
	}
}
