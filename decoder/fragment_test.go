package decoder

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
)

// decodeInPieces decodes block cut at the offsets in cuts (ascending) as
// a caller of DecodeFragment must: octets a fragment did not consume are
// passed again before the next one.
func decodeInPieces(d *Decoder, block []byte, cuts []int) ([]string, error) {
	var out []string
	emit := func(name, value []byte, sensitive bool) error {
		s := string(name) + ": " + string(value)
		if sensitive {
			s += " (sensitive)"
		}
		out = append(out, s)
		return nil
	}
	d.BeginBlock()
	var pending []byte
	prev := 0
	for k, c := range append(slices.Clone(cuts), len(block)) {
		pending = append(pending, block[prev:c]...)
		prev = c
		n, err := d.DecodeFragment(pending, k == len(cuts), emit)
		if err != nil {
			return out, err
		}
		pending = append(pending[:0], pending[n:]...)
	}
	return out, nil
}

// TestDecodeFragments decodes random blocks of the reference encoder on
// one connection whole and, on a second decoder, cut at random places
// (every place for short blocks): the fields must be the same, and so
// must the tables after each block.
func TestDecodeFragments(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		enc := encoder.New(encoder.Config{})
		whole, pieces := New(Config{}), New(Config{})
		for range 20 {
			block := randomBlock(r, enc, 10)
			want, err := collect(whole, block)
			if err != nil {
				t.Fatal(err)
			}
			var cuts []int
			for c := 1; c < len(block); c++ {
				if len(block) < 40 || r.IntN(8) == 0 {
					cuts = append(cuts, c)
				}
			}
			got, err := decodeInPieces(pieces, block, cuts)
			if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("block %x cut at %v: %q, %v; whole: %q", block, cuts, got, err, want)
			}
			if a, b := tableFieldsOf(whole), tableFieldsOf(pieces); a != b {
				t.Fatalf("tables differ after block %x: whole %s, in pieces %s", block, a, b)
			}
		}
	}
}

// TestDecodeFragmentFinal checks that a field cut by the end of the last
// fragment is an error naming where the cut field starts, and that one
// cut by the end of an earlier fragment is not.
func TestDecodeFragmentFinal(t *testing.T) {
	block := []byte("\x82\x40\x03abc\x03de") // value "de" of a declared 3 octets
	d := New(Config{})
	d.BeginBlock()
	n, err := d.DecodeFragment(block, false, func(_, _ []byte, _ bool) error { return nil })
	if err != nil || n != 1 {
		t.Fatalf("not final: consumed %d, %v; want 1, nil", n, err)
	}
	n, err = d.DecodeFragment(block[n:], true, func(_, _ []byte, _ bool) error { return nil })
	e, ok := err.(*Error)
	if !ok || e.Rule != RuleStringTruncated || e.Offset != 5 || n != 0 {
		t.Fatalf("final: consumed %d, %v; want 0 and %q at offset 5", n, err, RuleStringTruncated)
	}
}

// tableFieldsOf formats the decoder's dynamic table through TableEntry.
func tableFieldsOf(d *Decoder) string {
	var b strings.Builder
	for i := range d.TableLen() {
		name, value := d.TableEntry(i)
		b.WriteString(string(name) + ": " + string(value) + "|")
	}
	size, maxSize := d.TableSize()
	return b.String() + fmt.Sprintf("size %d of %d", size, maxSize)
}
