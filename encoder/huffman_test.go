package encoder

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// TestHuffmanEveryOctet codes each of the 256 octets alone and in runs and
// compares with x/net's Huffman coder, and decodes the result back.
func TestHuffmanEveryOctet(t *testing.T) {
	for c := range 256 {
		for _, n := range []int{1, 2, 3, 7, 8, 33} {
			s := bytes.Repeat([]byte{byte(c)}, n)
			checkHuffman(t, s)
		}
	}
}

// TestHuffmanRandom does the same for random strings of every octet.
func TestHuffmanRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for range 5000 {
		s := make([]byte, rng.IntN(300))
		for i := range s {
			s[i] = byte(rng.IntN(256))
		}
		checkHuffman(t, s)
	}
}

// TestHuffmanText does the same for strings of header text, mostly short
// codes (the eight-octet path) with a few long ones mixed in, written
// into buffers with every amount of spare capacity from none to 48 bytes
// past the coding, so that the coder's switch from eight-octet stores to
// exact bounds is crossed at every point.
func TestHuffmanText(t *testing.T) {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789-_./;=ABCDEFGHIJKLMNOPQRSTUVWXYZ (),\"\x00\xff~{"
	rng := rand.New(rand.NewPCG(12, 13))
	for range 2000 {
		s := make([]byte, rng.IntN(200))
		common := rng.IntN(len(alphabet)-10) + 10
		for i := range s {
			s[i] = alphabet[rng.IntN(common)]
		}
		want := hpack.AppendHuffmanString([]byte{0xaa}, string(s))
		spare := rng.IntN(49)
		dst := make([]byte, 1, len(want)+spare)
		dst[0] = 0xaa
		got, ok := appendHuffman(dst, string(s), len(want)-1)
		if !ok || !bytes.Equal(got, want) {
			t.Fatalf("appendHuffman(%q, spare %d) = %x, %v; want %x, true", s, spare, got, ok, want)
		}
		if &got[0] != &dst[0] {
			t.Fatalf("appendHuffman(%q) reallocated a buffer with room for the coding", s)
		}
		if len(want) > 2 {
			dst = make([]byte, 1, len(want)-1+spare)
			if short, ok := appendHuffman(dst, string(s), len(want)-2); ok || len(short) != 1 {
				t.Fatalf("appendHuffman(%q, limit %d) = %x, %v; want [aa], false", s, len(want)-2, short, ok)
			}
		}
	}
}

func checkHuffman(t *testing.T, s []byte) {
	t.Helper()
	want := hpack.AppendHuffmanString([]byte{0xaa}, string(s))
	limit := len(want) - 1
	got, ok := appendHuffman([]byte{0xaa}, string(s), limit)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("appendHuffman(%x, limit %d) = %x, %v; want %x, true", s, limit, got, ok, want)
	}
	if limit > 0 {
		if short, ok := appendHuffman([]byte{0xaa}, string(s), limit-1); ok || len(short) != 1 {
			t.Fatalf("appendHuffman(%x, limit %d) = %x, %v; want [aa], false", s, limit-1, short, ok)
		}
	}
	decoded, err := hpack.HuffmanDecodeToString(got[1:])
	if err != nil || decoded != string(s) {
		t.Fatalf("decoding appendHuffman(%x) = %q, %v", s, decoded, err)
	}
}

// TestHuffmanEveryPosition puts each of the 256 octets at each position of
// strings of short codes whose lengths cover the short path (under 8
// octets), one, two and three eight-octet steps, and the one- and
// two-octet steps after them, and compares with x/net. A long code in an
// eight-octet group sends the rest of the string to the two-octet steps,
// so every position of the group is a different switch point.
func TestHuffmanEveryPosition(t *testing.T) {
	const base = "aeiostnraeiostnraeiostnr0123" // 5- and 6-bit codes
	for _, n := range []int{1, 2, 7, 8, 9, 15, 16, 17, 24, 27} {
		for p := range n {
			for c := range 256 {
				s := []byte(base[:n])
				s[p] = byte(c)
				checkAppend(t, s)
			}
		}
	}
}

// TestHuffmanLongPairs puts two long codes one after the other at every
// position: a pair whose codes total more than 57 bits (the longest codes
// are 30 bits) cannot go in one two-octet step and takes two one-octet
// steps.
func TestHuffmanLongPairs(t *testing.T) {
	long := []byte{0x0a, 0x0d, 0x16, 0xf6, 0xff} // 30, 30, 30, 26 and 26 bits
	for _, n := range []int{2, 3, 8, 9, 16, 17, 20} {
		for p := range n - 1 {
			for _, a := range long {
				for _, b := range long {
					for _, filler := range []byte{'e', 0xf0} { // 5 bits; 26 bits
						s := bytes.Repeat([]byte{filler}, n)
						s[p], s[p+1] = a, b
						checkAppend(t, s)
					}
				}
			}
		}
	}
}

// TestHuffmanShort codes random strings of up to 7 octets, which fit in
// one accumulator when their codes total at most 63 bits, and checks that
// both sides of that bound were crossed.
func TestHuffmanShort(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	seen := map[int]bool{}
	for range 20000 {
		s := make([]byte, rng.IntN(8))
		bits := 0
		for i := range s {
			if rng.IntN(3) == 0 {
				s[i] = byte(rng.IntN(256))
			} else {
				s[i] = byte('a' + rng.IntN(26))
			}
			bits += int(spec.HuffmanCodeLens[s[i]])
		}
		seen[bits] = true
		checkAppend(t, s)
	}
	for _, bits := range []int{0, 62, 63, 64, 65} {
		if !seen[bits] {
			t.Errorf("no string of %d bits of codes was tried", bits)
		}
	}
}

// TestHuffmanLimits codes strings with every limit from 0 to past the
// length of the coding, into buffers with every amount of room from none
// to 12 bytes past the limit (and less than the limit, which makes
// appendHuffman grow dst), so that the output passes the limit at every
// point of every loop, and checks that nothing is written past cap(dst).
func TestHuffmanLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	inputs := [][]byte{nil, []byte("a"), []byte("gzip"), []byte("no-cache, no-store"),
		[]byte("Mozilla/5.0 (Windows NT 10.0; Win64; x64)"), {0, 0xff, 'a', 0x0a, 0x0d, 'b', 'c', 'd', 'e'}}
	for range 30 {
		s := make([]byte, rng.IntN(40))
		for i := range s {
			s[i] = byte(rng.IntN(256))
		}
		inputs = append(inputs, s)
	}
	// The longest codes (30 bits, 3.75 bytes an octet) take all the room
	// appendHuffman reserves for huffmanFast.
	for n := range 25 {
		s := make([]byte, n)
		for i := range s {
			s[i] = []byte{0x0a, 0x0d, 0x16}[rng.IntN(3)]
		}
		inputs = append(inputs, s)
	}
	for _, s := range inputs {
		want := hpack.AppendHuffmanString(nil, string(s))
		for limit := range len(want) + 3 {
			for room := max(0, limit-3); room <= limit+12; room++ {
				got, ok, clobbered := appendIntoCap(s, limit, room)
				switch {
				case clobbered:
					t.Fatalf("appendHuffman(%x, limit %d) with %d bytes of room wrote past cap(dst)", s, limit, room)
				case len(want) <= limit && (!ok || !bytes.Equal(got[len(testPrefix):], want)):
					t.Fatalf("appendHuffman(%x, limit %d) with %d bytes of room = %x, %v; want prefix then %x, true", s, limit, room, got, ok, want)
				case len(want) > limit && (ok || !bytes.Equal(got, testPrefix)):
					t.Fatalf("appendHuffman(%x, limit %d) with %d bytes of room = %x, %v; want the prefix alone, false (coding is %d bytes)", s, limit, room, got, ok, len(want))
				}
			}
		}
	}
}

// TestAppendHuffmanRoom calls AppendHuffman with every amount of room past
// len(dst), from none to more than its fast path needs, and checks the
// coding and that nothing is written past cap(dst).
func TestAppendHuffmanRoom(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 19))
	inputs := [][]byte{nil, []byte("gzip"), []byte("text/html,application/xhtml+xml")}
	for range 20 {
		s := make([]byte, rng.IntN(30))
		for i := range s {
			s[i] = byte(rng.IntN(256))
		}
		inputs = append(inputs, s)
	}
	for _, s := range inputs {
		want := hpack.AppendHuffmanString(nil, string(s))
		for room := 0; room <= 4*len(s)+16; room++ {
			backing := bytes.Repeat([]byte{canary}, len(testPrefix)+room+16)
			dst := backing[: len(testPrefix) : len(testPrefix)+room]
			copy(dst, testPrefix)
			got := AppendHuffman(dst, s)
			if !bytes.Equal(got[:len(testPrefix)], testPrefix) || !bytes.Equal(got[len(testPrefix):], want) {
				t.Fatalf("AppendHuffman(%x) with %d bytes of room = %x; want prefix then %x", s, room, got, want)
			}
			if hasClobber(backing[len(testPrefix)+room:]) {
				t.Fatalf("AppendHuffman(%x) with %d bytes of room wrote past cap(dst)", s, room)
			}
		}
	}
}

// TestHuffmanLen compares HuffmanLen with x/net for random strings of every
// length up to 40, which ends its eight-octet loop at every point.
func TestHuffmanLen(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 21))
	for n := range 41 {
		for range 50 {
			s := make([]byte, n)
			for i := range s {
				s[i] = byte(rng.IntN(256))
			}
			if got, want := HuffmanLen(s), int(hpack.HuffmanEncodeLength(string(s))); got != want {
				t.Fatalf("HuffmanLen(%x) = %d; want %d", s, got, want)
			}
		}
	}
}

var testPrefix = []byte{0xaa, 0xbb}

const canary = 0x5c

// appendIntoCap calls appendHuffman(dst, s, limit) with dst holding
// testPrefix and room bytes of capacity past it, in a larger array, and
// reports whether any byte of the array past cap(dst) changed.
func appendIntoCap(s []byte, limit, room int) (got []byte, ok, clobbered bool) {
	backing := bytes.Repeat([]byte{canary}, len(testPrefix)+room+16)
	dst := backing[: len(testPrefix) : len(testPrefix)+room]
	copy(dst, testPrefix)
	got, ok = appendHuffman(dst, string(s), limit)
	return got, ok, hasClobber(backing[len(testPrefix)+room:])
}

func hasClobber(b []byte) bool {
	return bytes.IndexFunc(b, func(r rune) bool { return r != canary }) >= 0
}

// checkAppend checks appendHuffman, with room to spare and with the
// coding's length as the limit and one less, and AppendHuffman against
// x/net.
func checkAppend(t *testing.T, s []byte) {
	t.Helper()
	want := hpack.AppendHuffmanString(nil, string(s))
	got, ok, clobbered := appendIntoCap(s, len(want), len(want)+40)
	if !ok || clobbered || !bytes.Equal(got[len(testPrefix):], want) {
		t.Fatalf("appendHuffman(%x, limit %d) = %x, %v (clobbered %v); want prefix then %x, true", s, len(want), got, ok, clobbered, want)
	}
	if len(want) > 0 {
		if got, ok, _ := appendIntoCap(s, len(want)-1, len(want)+40); ok || !bytes.Equal(got, testPrefix) {
			t.Fatalf("appendHuffman(%x, limit %d) = %x, %v; want the prefix alone, false", s, len(want)-1, got, ok)
		}
	}
	if got := AppendHuffman(make([]byte, 0, 4*len(s)+16), s); !bytes.Equal(got, want) {
		t.Fatalf("AppendHuffman(%x) = %x; want %x", s, got, want)
	}
}

// TestHuffmanPairTables checks the pair tables the eight-octet step reads
// against Appendix B as internal/spec holds it: the codes and length of
// every pair of octets, or the mark of a pair too long for pairCodes.
func TestHuffmanPairTables(t *testing.T) {
	pairTablesOnce.Do(buildPairTables)
	for i := range 1 << 16 {
		a, b := i&0xff, i>>8 // the first octet is the low byte
		length := int(spec.HuffmanCodeLens[a]) + int(spec.HuffmanCodeLens[b])
		if length > 32 {
			if huffTables.pairLens[i] <= 57 {
				t.Fatalf("pair %#04x: %d bits long but marked %d; want more than 57, so that its eight octets leave the eight-octet step", i, length, huffTables.pairLens[i])
			}
			continue
		}
		code := uint64(spec.HuffmanCodes[a])<<spec.HuffmanCodeLens[b] | uint64(spec.HuffmanCodes[b])
		if int(huffTables.pairLens[i]) != length || uint64(huffTables.pairCodes[i]) != code {
			t.Fatalf("pair %#04x: code %#x, %d bits; want %#x, %d bits", i, huffTables.pairCodes[i], huffTables.pairLens[i], code, length)
		}
	}
	for c := range 256 {
		if huffTables.octetCodes[c] != spec.HuffmanCodes[c] || huffTables.octetLens[c] != spec.HuffmanCodeLens[c] {
			t.Fatalf("octet %#02x: code %#x, %d bits; want %#x, %d bits", c, huffTables.octetCodes[c], huffTables.octetLens[c], spec.HuffmanCodes[c], spec.HuffmanCodeLens[c])
		}
	}
}

// TestHuffmanPairTablesOnFirstUse runs the test binary again, alone, to
// see the pair tables empty after start-up, after New and after coding
// strings of fewer than eight octets, and filled once a longer string is
// coded: a program that never codes one does not pay for them.
func TestHuffmanPairTablesOnFirstUse(t *testing.T) {
	if os.Getenv("HPACKCERT_PAIR_TABLES_CHILD") == "1" {
		empty := func() bool { return huffTables.pairLens == [len(huffTables.pairLens)]uint8{} }
		if !empty() {
			t.Fatal("pair tables filled at start-up")
		}
		e := New(Config{})
		dst := e.AppendFieldString(make([]byte, 0, 64), "x-a", "short", false)
		dst = AppendHuffmanString(dst, "gzip")
		if !empty() {
			t.Fatal("pair tables filled by New or by coding strings under eight octets")
		}
		e.AppendFieldString(dst, "x-b", "eight or more octets", false)
		if empty() {
			t.Fatal("pair tables still empty after coding a 20-octet value")
		}
		return
	}
	if testing.Short() {
		t.Skip("skipping a subprocess in -short mode")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHuffmanPairTablesOnFirstUse$", "-test.v")
	cmd.Env = append(os.Environ(), "HPACKCERT_PAIR_TABLES_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
