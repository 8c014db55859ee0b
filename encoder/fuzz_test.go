package encoder

import (
	"fmt"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// fuzzNames are the names FuzzRoundTrip picks from, so that fields repeat
// and hit every policy rule; it also builds names from the input.
var fuzzNames = []string{
	":method", ":path", ":status", ":authority", "cookie", "authorization",
	"content-length", "user-agent", "x-custom", "x-other", "set-cookie", "accept-encoding",
}

// FuzzRoundTrip reads a script from its input: header fields (picked names
// or names from the input, values from the input, some sensitive),
// acknowledged table sizes and block ends. It encodes each block, decodes
// it with x/net's decoder, and checks the fields, the "Never Indexed" flags
// and the dynamic tables after every block.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("\x01\x00\x03GET\x07\x01\x01\x03GET\x07"))
	f.Add([]byte("\x02\x04\x05/a?b=\x00\x10\x00\x07\x02\x04\x01/\x07"))
	f.Add([]byte("\x13\x05\x14session_token=abcdef\x07\x08\x01\x07\x03\x08\x05x-new\x06value1\x07"))
	f.Add([]byte("\x03\x08\xffxxxxxxxx\x07\x00\x00\x00\x03\x08\x02ab\x07\x00\x10\x00\x03\x09\x02cd\x07"))
	f.Fuzz(runScript)
}

// runScript runs one FuzzRoundTrip script.
func runScript(t *testing.T, script []byte) {
	capacity := uint32(0)
	if len(script) > 0 && script[0]&0x80 != 0 {
		capacity = uint32(script[0]&0x7f) * 64
		script = script[1:]
	}
	enc := New(Config{Capacity: capacity})
	p := newPeer()
	var block []byte
	var want []hpack.HeaderField
	ackedThisBlock := false
	next := func() byte {
		if len(script) == 0 {
			return 0
		}
		b := script[0]
		script = script[1:]
		return b
	}
	take := func(n int) string {
		n = min(n, len(script))
		s := string(script[:n])
		script = script[n:]
		return s
	}
	endBlock := func(where string) {
		got, err := p.dec.DecodeFull(block)
		if err != nil {
			t.Fatalf("%s: decoding %x: %v", where, block, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: decoded %d fields; want %d", where, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: field %d: got %+v; want %+v", where, i, got[i], want[i])
			}
		}
		// A block without fields carries no pending size update,
		// so the decoder has not yet evicted what the encoder has.
		if len(want) > 0 {
			checkTablesEqual(t, where, enc, p)
		}
		block, want, ackedThisBlock = block[:0], want[:0], false
	}
	for blocks := 0; len(script) > 0; {
		op := next()
		switch op & 0x0f {
		case 0: // acknowledge a size; x/net accepts two updates only via 0
			n := uint32(next())<<8 | uint32(next())
			if !ackedThisBlock && len(want) == 0 {
				p.ack(enc, n)
				ackedThisBlock = true
			}
		case 7, 15: // end the block
			endBlock(fmt.Sprintf("block %d", blocks))
			blocks++
		default:
			var name string
			if op&0x08 != 0 {
				name = take(int(next()) % 24)
			} else {
				name = fuzzNames[int(next())%len(fuzzNames)]
			}
			valueLen := int(next())
			if op&0x40 != 0 {
				valueLen *= 32 // large and giant fields
			}
			value := take(valueLen)
			sensitive := op&0x10 != 0
			block = enc.AppendFieldString(block, name, value, sensitive)
			want = append(want, hpack.HeaderField{Name: name, Value: value,
				Sensitive: sensitive || neverIndexedByDefault(name, value)})
		}
	}
	endBlock("last block")
}
