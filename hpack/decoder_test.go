package hpack

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
	xhpack "golang.org/x/net/http2/hpack"
)

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecoderErrors checks the error each kind of broken block gives, as
// errors.Is and errors.As see it, and that x/net's is of the same kind
// where the package doc lists no difference.
func TestDecoderErrors(t *testing.T) {
	for _, tt := range []struct {
		name      string
		block     string
		maxString int
		want      func(error) bool
		sameXNet  bool
	}{
		{"index 0", "80", 0, isIndexError(0), true},
		{"index past the dynamic table", "be", 0, isIndexError(62), true},
		{"literal naming index 70", "7f 07 01 61", 0, isIndexError(70), true},
		{"Huffman EOS", "00 01 61 84 ff ff ff ff", 0, is(ErrInvalidHuffman), true},
		{"Huffman padding of 8 bits", "00 01 61 82 1f ff", 0, is(ErrInvalidHuffman), true},
		{"raw string over the limit", "00 01 61 04 61 62 63 64", 3, is(ErrStringLength), true},
		{"Huffman string decoding over the limit", "00 01 61 83 00 00 0f", 3, is(ErrStringLength), true},
		{"declared string over the limit, cut", "00 01 61 7f 00 61", 3, is(ErrStringLength), true},
		{"block ending inside a field", "40 03 61 62", 0, is(errTruncated), true},
		{"size update above the setting", "3f e2 1f", 0, hasRule(decoder.RuleSizeUpdateLimit), true},
		{"integer with 6 continuation octets", "ff 80 80 80 80 80 00", 0, hasRule(decoder.RuleIntegerTooLong), false},
		{"size update after a field, table empty", "82 20", 0, hasRule(decoder.RuleSizeUpdatePlace), false},
	} {
		block := mustHex(t, tt.block)
		d := NewDecoder(4096, nil)
		d.SetMaxStringLength(tt.maxString)
		_, err := d.DecodeFull(block)
		if !tt.want(err) {
			t.Errorf("%s: DecodeFull(%s) = %v (%T)", tt.name, tt.block, err, err)
		}
		x := xhpack.NewDecoder(4096, nil)
		x.SetMaxStringLength(tt.maxString)
		_, xerr := x.DecodeFull(block)
		ko, kx := oursSide(d).kind(err), xnetSide(x).kind(xerr)
		if tt.sameXNet != (ko == kx) {
			t.Errorf("%s: error kind %q, x/net's %q (%v); same kind: %v, want %v", tt.name, ko, kx, xerr, ko == kx, tt.sameXNet)
		}
	}
}

func is(target error) func(error) bool { return func(err error) bool { return errors.Is(err, target) } }

func isIndexError(idx int) func(error) bool {
	return func(err error) bool {
		var de DecodingError
		return errors.As(err, &de) && de.Err == InvalidIndexError(idx)
	}
}

func hasRule(rule string) func(error) bool {
	return func(err error) bool {
		var de DecodingError
		var e *decoder.Error
		return errors.As(err, &de) && errors.As(err, &e) && e.Rule == rule
	}
}

// TestDecoderEmitDisabledFromEmit checks x/net's TestEmitEnabled pattern:
// an emit function turning emitting off is called once for a block of two
// fields, which still decodes without error.
func TestDecoderEmitDisabledFromEmit(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	_ = e.WriteField(HeaderField{Name: "foo", Value: "bar"})
	_ = e.WriteField(HeaderField{Name: "foo", Value: "bar"})
	calls := 0
	var d *Decoder
	d = NewDecoder(8<<20, func(HeaderField) {
		calls++
		d.SetEmitEnabled(false)
	})
	if !d.EmitEnabled() {
		t.Error("EmitEnabled() = false at first; want true")
	}
	if _, err := d.Write(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if calls != 1 || d.EmitEnabled() {
		t.Errorf("emit called %d times, EmitEnabled() = %v; want 1 call, false", calls, d.EmitEnabled())
	}
}

// TestDecoderSizeUpdateAfterField checks x/net's TestDynamicSizeUpdate
// pattern: a block opening with a size update decodes twice, each after
// Close, but a second Write of it in the same block has an update after a
// field.
func TestDecoderSizeUpdateAfterField(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	e.SetMaxDynamicTableSize(255)
	_ = e.WriteField(HeaderField{Name: "foo", Value: "bar"})
	d := NewDecoder(4096, func(HeaderField) {})
	for i, closeAfter := range []bool{true, false, false} {
		_, err := d.Write(buf.Bytes())
		if (err != nil) != (i == 2) {
			t.Fatalf("Write %d = %v; want an error only for the third, in the same block as the second", i, err)
		}
		if closeAfter {
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestDecoderRequiredSizeUpdate checks the update RFC 9113 §4.3.1 requires
// after a lowered setting, which x/net does not: the block after
// SetAllowedMaxDynamicTableSize(1024) must open with an update to at most
// 1024, and one that does decodes.
func TestDecoderRequiredSizeUpdate(t *testing.T) {
	field := mustHex(t, "40 03 61 62 63 01 78") // abc: x, inserted
	for _, tt := range []struct {
		name  string
		block string
		want  string // the rule broken, or "" for none
	}{
		{"no update", "be", decoder.RuleSizeUpdateMissing},
		{"update above the setting", "3f e1 1f be", decoder.RuleSizeUpdateLimit},
		{"update to 1024", "3f e1 07 be", ""},
	} {
		d := NewDecoder(4096, nil)
		if _, err := d.DecodeFull(field); err != nil {
			t.Fatal(err)
		}
		d.SetAllowedMaxDynamicTableSize(1024)
		got, err := d.DecodeFull(mustHex(t, tt.block))
		if tt.want == "" && (err != nil || len(got) != 1 || got[0] != (HeaderField{Name: "abc", Value: "x"})) {
			t.Errorf("%s: DecodeFull = %v, %v; want abc: x", tt.name, got, err)
		}
		if tt.want != "" && !hasRule(tt.want)(err) {
			t.Errorf("%s: DecodeFull = %v; want a DecodingError for %q", tt.name, err, tt.want)
		}
	}
}

// TestNewDecoderZero checks NewDecoder(0): no entry fits, and a size
// update above 0 is refused, as from x/net.
func TestNewDecoderZero(t *testing.T) {
	d := NewDecoder(0, nil)
	if _, err := d.DecodeFull(mustHex(t, "40 03 61 62 63 01 78")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecodeFull(mustHex(t, "be")); !isIndexError(62)(err) {
		t.Errorf("index 62 with a table of size 0 = %v; want InvalidIndexError(62)", err)
	}
	if _, err := NewDecoder(0, nil).DecodeFull(mustHex(t, "21")); !hasRule(decoder.RuleSizeUpdateLimit)(err) {
		t.Errorf("size update to 1 with a setting of 0 = %v; want too large", err)
	}
}

// TestDecoderKeepsStrings checks that emitted strings stay as they were
// while later blocks are decoded, in fragments, into the same buffers;
// and that a nil emit function discards the fields.
func TestDecoderKeepsStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 3))
	lists := randomLists(rng, 200)
	var kept []HeaderField
	d := NewDecoder(4096, func(f HeaderField) { kept = append(kept, f) })
	discarding := NewDecoder(4096, nil)
	var want []HeaderField
	for _, b := range encodeConnection(rng, lists, true, encoder.Policy{}, false) {
		for _, v := range b.allowed {
			d.SetAllowedMaxDynamicTableSize(v)
			discarding.SetAllowedMaxDynamicTableSize(v)
		}
		if b.maxSize != nil {
			d.SetMaxDynamicTableSize(*b.maxSize)
			discarding.SetMaxDynamicTableSize(*b.maxSize)
		}
		for len(b.wire) > 0 {
			n := min(len(b.wire), 1+rng.IntN(40))
			if _, err := d.Write(b.wire[:n]); err != nil {
				t.Fatal(err)
			}
			if _, err := discarding.Write(b.wire[:n]); err != nil {
				t.Fatal(err)
			}
			b.wire = b.wire[n:]
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if err := discarding.Close(); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range lists {
		want = append(want, l...)
	}
	if !slices.Equal(kept, want) {
		t.Errorf("kept %d fields, not the %d written", len(kept), len(want))
	}
}

// TestDecoderErrorOffset checks that a *decoder.Error's offset counts from
// the start of what the Write decoded, past the decoder's first chunk of
// 64 fields, and from the start of the octets a Write carried over.
func TestDecoderErrorOffset(t *testing.T) {
	tooLong := mustHex(t, "ff 80 80 80 80 80 00") // the 6th continuation octet, at 6, is refused
	block := append(bytes.Repeat([]byte{0x82}, 70), tooLong...)
	for _, split := range []int{0, 1, 69, 71, 74} {
		d := NewDecoder(4096, nil)
		if _, err := d.Write(block[:split]); err != nil {
			t.Fatalf("Write of the first %d octets: %v", split, err)
		}
		_, err := d.Write(block[split:])
		// Octets of a field cut by the first Write are carried over.
		carried := split - min(split, 70)
		var e *decoder.Error
		if !errors.As(err, &e) || e.Rule != decoder.RuleIntegerTooLong || e.Offset != 76-split+carried {
			t.Errorf("split at %d: Write = %v; want offset %d: %s", split, err, 76-split+carried, decoder.RuleIntegerTooLong)
		}
	}
}

// TestDecodeFullEmitDisabled checks DecodeFull with emitting off, as
// x/net's: no fields and no error, the table still kept, so that the next
// block's references decode once emitting is on again.
func TestDecodeFullEmitDisabled(t *testing.T) {
	inserting, referencing := mustHex(t, "40 03 61 62 63 01 78"), mustHex(t, "be")
	ours, xnet := NewDecoder(4096, nil), xhpack.NewDecoder(4096, nil)
	ours.SetEmitEnabled(false)
	xnet.SetEmitEnabled(false)
	got, err := ours.DecodeFull(inserting)
	xgot, xerr := xnet.DecodeFull(inserting)
	if got != nil || err != nil || xgot != nil || xerr != nil {
		t.Fatalf("DecodeFull with emitting off = %v, %v; x/net's %v, %v; want nil, nil from both", got, err, xgot, xerr)
	}
	ours.SetEmitEnabled(true)
	if got, err := ours.DecodeFull(referencing); err != nil || len(got) != 1 || got[0] != (HeaderField{Name: "abc", Value: "x"}) {
		t.Errorf("DecodeFull(be) after = %v, %v; want abc: x", got, err)
	}
}
