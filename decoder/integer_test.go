package decoder

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
)

// TestIntegerRoundTrip decodes the encoder's integers for every prefix,
// at the RFC 7541 §C.1 values, around each prefix limit and at random,
// after a leading octet so that the start offset is not 0.
func TestIntegerRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for prefix := uint8(1); prefix <= 8; prefix++ {
		limit := uint64(1)<<prefix - 1
		values := []uint64{0, 10, 1337, 42, limit - 1, limit, limit + 1, limit + 127, limit + 128, 1<<32 - 1}
		for range 200 {
			values = append(values, uint64(r.Uint32()>>r.IntN(32)))
		}
		for _, v := range values {
			src := encoder.AppendInteger([]byte{0x55}, 0, prefix, v)
			got, end, err := decodeInt(src, 1, prefix, new(Error))
			if err != nil || uint64(got) != v || end != len(src) {
				t.Fatalf("prefix %d, %d (%x): got %d, end %d, %v", prefix, v, src, got, end, err)
			}
		}
	}
}

// TestIntegerPrefixPattern checks that the bits above the prefix are not
// part of the value.
func TestIntegerPrefixPattern(t *testing.T) {
	got, end, err := decodeInt([]byte{0xea}, 0, 5, new(Error)) // 111 01010
	if err != nil || got != 10 || end != 1 {
		t.Fatalf("got %d, end %d, %v; want 10, 1", got, end, err)
	}
}

// TestIntegerErrors checks the bounds and the offsets they name.
func TestIntegerErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		src  []byte
		rule string
		off  int
	}{
		{"empty", []byte{}, RuleIntegerTruncated, 0},
		{"no continuation", []byte{0x1f}, RuleIntegerTruncated, 1},
		{"continuation cut", []byte{0x1f, 0x80, 0x80}, RuleIntegerTruncated, 3},
		{"2^32", []byte{0x1f, 0xe1, 0xff, 0xff, 0xff, 0x0f}, RuleIntegerOverflow, 5},
		{"2^35", []byte{0x1f, 0x80, 0x80, 0x80, 0x80, 0x7f}, RuleIntegerOverflow, 5},
		{"six continuation octets", []byte{0x1f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, RuleIntegerTooLong, 6},
		{"endless", []byte{0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, RuleIntegerOverflow, 5},
	} {
		_, _, err := decodeInt(c.src, 0, 5, new(Error))
		var e *Error
		if !errors.As(err, &e) || e.Rule != c.rule || e.Offset != c.off {
			t.Errorf("%s: %x gave %v; want %q at %d", c.name, c.src, err, c.rule, c.off)
		}
	}
	// 2^32-1 itself, with the most continuation octets allowed, is valid.
	if v, _, err := decodeInt([]byte{0x1f, 0xe0, 0xff, 0xff, 0xff, 0x0f}, 0, 5, new(Error)); err != nil || v != 1<<32-1 {
		t.Errorf("2^32-1: got %d, %v", v, err)
	}
}
