package hpack

import (
	"bytes"
	"math/rand/v2"
	"testing"

	xhpack "golang.org/x/net/http2/hpack"
)

// FuzzDecoderDifferential decodes a block, after a request that fills the
// dynamic table, with this package's Decoder and x/net's under one usage
// pattern chosen by the fuzzer, and fails as TestDecoderDifferential does:
// on different fields, or on different error kinds the package doc does
// not list.
//
//	go test -run='^$' -fuzz=FuzzDecoderDifferential ./hpack
func FuzzDecoderDifferential(f *testing.F) {
	var buf bytes.Buffer
	e := xhpack.NewEncoder(&buf)
	for _, hf := range []xhpack.HeaderField{
		{Name: ":method", Value: "GET"}, {Name: ":path", Value: "/index.html"},
		{Name: "user-agent", Value: "fuzz/1.0"}, {Name: "x-custom", Value: "value"},
	} {
		_ = e.WriteField(hf)
	}
	first := bytes.Clone(buf.Bytes())
	for _, seed := range []string{
		"82", "be", "bf", "c0", "40 03 61 62 63 01 78", "00 01 61 83 00 00 0f", "00 01 61 84 ff ff ff ff",
		"3f e1 1f 82", "82 20", "ff 80 80 80 80 80 00", "10 01 61 7f 00 61", "1f 08 03 61 62 63",
	} {
		f.Add(mustHex(f, seed), uint16(0), uint8(0), uint64(1), false)
		f.Add(mustHex(f, seed), uint16(3), uint8(1), uint64(2), true)
	}
	f.Add(first, uint16(0), uint8(0), uint64(3), true)
	f.Fuzz(func(t *testing.T, block []byte, maxString uint16, emitLimit uint8, cutSeed uint64, fragments bool) {
		u := usage{name: "fuzz", fragments: fragments || emitLimit > 0, emitLimit: int(emitLimit % 8), maxString: int(maxString)}
		rng := rand.New(rand.NewPCG(cutSeed, 38))
		runConnection(t, rng, u, []wireBlock{{wire: first}, {wire: block, mutated: true}})
	})
}
