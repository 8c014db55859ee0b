package hpack

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	xhpack "golang.org/x/net/http2/hpack"
)

// allocBlocks returns blocks that decode again and again on one
// connection, each shape of field in turn: the first request of a
// connection (literals inserted, Huffman coded, from x/net's Encoder), the
// same request again (dynamic table hits only), static hits only, and
// literals not indexed (never indexed and without indexing, from our
// Encoder's policy), raw and Huffman coded.
func allocBlocks() map[string][][]byte {
	request := []HeaderField{
		{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "https"}, {Name: ":path", Value: "/api/v1/resource"},
		{Name: ":authority", Value: "www.example.com"},
		{Name: "user-agent", Value: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"},
		{Name: "x-custom-name", Value: "custom value"},
	}
	var buf bytes.Buffer
	xe := xhpack.NewEncoder(&buf)
	for _, f := range request {
		_ = xe.WriteField(xhpack.HeaderField(f))
	}
	first := bytes.Clone(buf.Bytes())
	buf.Reset()
	for _, f := range request {
		_ = xe.WriteField(xhpack.HeaderField(f))
	}
	again := bytes.Clone(buf.Bytes())
	buf.Reset()
	// Literals not indexed, written by hand so that no policy indexes
	// them: never indexed with an indexed name (authorization, 23) and a
	// literal one, without indexing with an indexed name
	// (content-length, 28) and a literal one.
	var literals []byte
	literals = appendLiteral(literals, 0x10, 4, 23, "", "Bearer 0123456789abcdef", true)
	literals = appendLiteral(literals, 0x10, 4, 0, "x-request-id", "4f1c2d3e-5a6b-7c8d-9e0f-a1b2c3d4e5f6", true)
	literals = appendLiteral(literals, 0x00, 4, 28, "", "1234", false)
	literals = appendLiteral(literals, 0x00, 4, 0, "x-trace", strings.Repeat("\x00\xff", 20), false)
	return map[string][][]byte{
		"first request, inserted": {first},
		"requests, table hits":    {first, again, again},
		"static hits":             {{0x82, 0x87, 0x84, 0x88}},
		"literals not indexed":    {literals},
	}
}

// appendLiteral appends a literal representation (RFC 7541 §6.2) of
// pattern with a prefixBits-bit name index, or the literal name when
// nameIndex is 0, and the value, Huffman coded when huffman is set.
func appendLiteral(dst []byte, pattern byte, prefixBits uint8, nameIndex uint64, name, value string, huffman bool) []byte {
	dst = encoder.AppendInteger(dst, pattern, prefixBits, nameIndex)
	if nameIndex == 0 {
		dst = encoder.AppendInteger(dst, 0, 7, uint64(len(name)))
		dst = append(dst, name...)
	}
	if !huffman {
		dst = encoder.AppendInteger(dst, 0, 7, uint64(len(value)))
		return append(dst, value...)
	}
	dst = encoder.AppendInteger(dst, 0x80, 7, uint64(encoder.HuffmanLen([]byte(value))))
	return encoder.AppendHuffmanString(dst, value)
}

// TestDecoderAllocs checks, for each shape of block, that decoding it
// allocates no more than x/net's Decoder measured in the same test, used
// as net/http2 uses it (Write and Close, fields kept by emit) and through
// DecodeFull; that table hits allocate nothing; and that literals not
// indexed share one allocation, where x/net allocates one per string.
func TestDecoderAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for name, blocks := range allocBlocks() {
		kept := make([]HeaderField, 0, 64)
		emit := func(f HeaderField) { kept = append(kept, f) }
		ours, xnet := NewDecoder(4096, emit), xhpack.NewDecoder(4096, func(f xhpack.HeaderField) { emit(HeaderField(f)) })
		fields := 0
		measure := func(write func([]byte) (int, error), closeBlock func() error) float64 {
			return testing.AllocsPerRun(200, func() {
				kept = kept[:0]
				for _, b := range blocks {
					if _, err := write(b); err != nil {
						t.Fatal(err)
					}
					if err := closeBlock(); err != nil {
						t.Fatal(err)
					}
				}
				fields = len(kept)
			})
		}
		oursWrite, xnetWrite := measure(ours.Write, ours.Close), measure(xnet.Write, xnet.Close)
		full := func(decode func([]byte) error) float64 {
			return testing.AllocsPerRun(200, func() {
				for _, b := range blocks {
					if err := decode(b); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
		oursFull := full(func(b []byte) error { _, err := ours.DecodeFull(b); return err })
		xnetFull := full(func(b []byte) error { _, err := xnet.DecodeFull(b); return err })
		t.Logf("%s: %d fields: Write+Close %v allocations (x/net %v); DecodeFull %v (x/net %v)", name, fields, oursWrite, xnetWrite, oursFull, xnetFull)
		if oursWrite > xnetWrite || oursFull > xnetFull {
			t.Errorf("%s: Write+Close made %v allocations, DecodeFull %v; want at most x/net's %v and %v", name, oursWrite, oursFull, xnetWrite, xnetFull)
		}
		if oursFull >= xnetFull {
			t.Errorf("%s: DecodeFull made %v allocations; want fewer than x/net's %v (one slice, strings shared)", name, oursFull, xnetFull)
		}
		switch name {
		case "static hits":
			if oursWrite != 0 {
				t.Errorf("%s: Write+Close made %v allocations; want 0 (the static table's strings)", name, oursWrite)
			}
		case "literals not indexed":
			if oursWrite != 1 || xnetWrite <= 1 {
				t.Errorf("%s: Write+Close made %v allocations (x/net %v); want 1, one string for the block", name, oursWrite, xnetWrite)
			}
		}
	}
	// The repeated request's hits allocate nothing beyond the first's.
	blocks := allocBlocks()
	d := NewDecoder(4096, func(HeaderField) {})
	if _, err := d.DecodeFull(blocks["requests, table hits"][0]); err != nil {
		t.Fatal(err)
	}
	again := blocks["requests, table hits"][1]
	if n := testing.AllocsPerRun(200, func() {
		if _, err := d.Write(again); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Write+Close of a block of dynamic table hits made %v allocations; want 0", n)
	}
}
