package hpack

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
	xhpack "golang.org/x/net/http2/hpack"
)

// A wireBlock is one header block as a peer sent it, with the settings
// the receiving program applied before it.
type wireBlock struct {
	wire []byte
	// allowed, when set, is passed to SetAllowedMaxDynamicTableSize
	// before the block: a SETTINGS_HEADER_TABLE_SIZE acknowledged, which
	// the encoder signalled with a size update.
	allowed []uint32
	// maxSize, when set, is passed to SetMaxDynamicTableSize, as x/net's
	// own tests do along with the encoder's.
	maxSize *uint32
	// mutated marks a block broken on purpose: errors are expected.
	mutated bool
}

// usage is how a program drives both decoders over a connection's
// blocks: x/net's patterns.
type usage struct {
	name string
	// fragments: Write in random pieces then Close, as net/http2's
	// readMetaFrame; else DecodeFull.
	fragments bool
	// emitLimit, when above 0, makes the emit function turn emitting
	// off after that many fields of a block, as readMetaFrame does at
	// its header list limit (emitting is turned on at each block start).
	emitLimit int
	// maxString is given to SetMaxStringLength at each block start.
	maxString int
}

// decoderSide is one decoder under a usage, with x/net's API.
type decoderSide struct {
	name           string
	write          func([]byte) (int, error)
	close          func() error
	decodeFull     func([]byte) ([]HeaderField, error)
	setEmitFunc    func(func(HeaderField))
	setEmitEnabled func(bool)
	setMaxString   func(int)
	setAllowed     func(uint32)
	setMaxSize     func(uint32)
	// kind names an error's kind: "string length", "huffman", "index",
	// "decoding", or "" for none.
	kind func(error) string
}

func oursSide(d *Decoder) *decoderSide {
	return &decoderSide{
		name: "ours", write: d.Write, close: d.Close, decodeFull: d.DecodeFull,
		setEmitFunc: d.SetEmitFunc, setEmitEnabled: d.SetEmitEnabled, setMaxString: d.SetMaxStringLength,
		setAllowed: d.SetAllowedMaxDynamicTableSize, setMaxSize: d.SetMaxDynamicTableSize,
		kind: func(err error) string {
			var de DecodingError
			var ie InvalidIndexError
			switch {
			case err == nil:
				return ""
			case err == ErrStringLength:
				return "string length"
			case err == ErrInvalidHuffman:
				return "huffman"
			case errors.As(err, &ie):
				return "index"
			case errors.As(err, &de):
				return "decoding"
			}
			return "other: " + err.Error()
		},
	}
}

func xnetSide(d *xhpack.Decoder) *decoderSide {
	return &decoderSide{
		name: "x/net", write: d.Write, close: d.Close,
		decodeFull: func(p []byte) ([]HeaderField, error) {
			fs, err := d.DecodeFull(p)
			var out []HeaderField
			for _, f := range fs {
				out = append(out, HeaderField(f))
			}
			return out, err
		},
		setEmitFunc:    func(f func(HeaderField)) { d.SetEmitFunc(func(x xhpack.HeaderField) { f(HeaderField(x)) }) },
		setEmitEnabled: d.SetEmitEnabled, setMaxString: d.SetMaxStringLength,
		setAllowed: d.SetAllowedMaxDynamicTableSize, setMaxSize: d.SetMaxDynamicTableSize,
		kind: func(err error) string {
			var de xhpack.DecodingError
			switch {
			case err == nil:
				return ""
			case err == xhpack.ErrStringLength:
				return "string length"
			case err == xhpack.ErrInvalidHuffman:
				return "huffman"
			case errors.As(err, &de):
				if _, ok := de.Err.(xhpack.InvalidIndexError); ok {
					return "index"
				}
				return "decoding"
			}
			return "other: " + err.Error()
		},
	}
}

// decodeBlock runs one block through s under u and returns the fields
// emitted and the first error, from a Write or from Close.
func decodeBlock(s *decoderSide, u usage, b wireBlock, cuts []int) ([]HeaderField, error) {
	s.setEmitEnabled(true)
	s.setMaxString(u.maxString)
	if !u.fragments {
		return s.decodeFull(b.wire)
	}
	var got []HeaderField
	s.setEmitFunc(func(f HeaderField) {
		got = append(got, f)
		if u.emitLimit > 0 && len(got) == u.emitLimit {
			s.setEmitEnabled(false)
		}
	})
	defer s.setEmitFunc(func(HeaderField) {})
	prev := 0
	for _, c := range append(cuts, len(b.wire)) {
		if n, err := s.write(b.wire[prev:c]); err != nil {
			return got, err
		} else if n != c-prev && !(n == 0 && c == prev) {
			return got, fmt.Errorf("Write of %d octets returned %d without an error", c-prev, n)
		}
		prev = c
	}
	return got, s.close()
}

// runConnection decodes blocks with both decoders under u, block by
// block, and fails t unless both emit the same fields and fail alike, or
// differ as the package doc says. It stops at the first error.
func runConnection(t *testing.T, rng *rand.Rand, u usage, blocks []wireBlock) {
	t.Helper()
	ours := NewDecoder(4096, nil)
	sides := []*decoderSide{oursSide(ours), xnetSide(xhpack.NewDecoder(4096, nil))}
	for i, b := range blocks {
		var cuts []int
		for range rng.IntN(4) {
			cuts = append(cuts, rng.IntN(len(b.wire)+1))
		}
		slices.Sort(cuts)
		var fields [2][]HeaderField
		var errs [2]error
		for k, s := range sides {
			for _, v := range b.allowed {
				s.setAllowed(v)
			}
			if b.maxSize != nil {
				s.setMaxSize(*b.maxSize)
			}
			fields[k], errs[k] = decodeBlock(s, u, b, cuts)
		}
		ko, kx := sides[0].kind(errs[0]), sides[1].kind(errs[1])
		if ko != kx && !documentedDifference(errs[0], errs[1], ko, kx, u) || ko == "" && kx == "" && !slices.Equal(fields[0], fields[1]) {
			t.Fatalf("block %d (%s, cuts %v, %+v):\nours:  %q, %v\nx/net: %q, %v", i, shortHex(b.wire), cuts, u, fields[0], errs[0], fields[1], errs[1])
		}
		if ko == kx && !slices.Equal(fields[0], fields[1]) && !documentedDifference(errs[0], errs[1], ko, kx, u) {
			t.Fatalf("block %d (%s, cuts %v, %+v): both fail with %s, after emitting\nours:  %q\nx/net: %q", i, shortHex(b.wire), cuts, u, ko, fields[0], fields[1])
		}
		if ko != "" || kx != "" {
			return
		}
		checkStringTable(t, ours)
	}
}

// shortHex formats a block for a failure message, its middle left out
// when it is long.
func shortHex(wire []byte) string {
	if len(wire) <= 96 {
		return fmt.Sprintf("%x", wire)
	}
	return fmt.Sprintf("%x...%x (%d octets)", wire[:64], wire[len(wire)-32:], len(wire))
}

// documentedDifference reports whether ours and x/net's errors for the
// same block, of kinds ko and kx, differ as the package doc lists.
func documentedDifference(ours, xnet error, ko, kx string, u usage) bool {
	var de *decoder.Error
	if errors.As(ours, &de) {
		switch de.Rule {
		case decoder.RuleIntegerOverflow, decoder.RuleIntegerTooLong:
			return true // x/net reads on, then fails its own way or not at all
		case decoder.RuleSizeUpdatePlace:
			return true // x/net takes it while its table is empty, and reads on
		case decoder.RuleSizeUpdateMissing:
			return xnet == nil
		}
	}
	switch {
	case xnet != nil && strings.Contains(xnet.Error(), "MUST occur at the beginning"):
		return true // a second update opening a block: x/net stops there
	case ko == "huffman" && kx == "string length":
		return u.maxString > 0 // x/net stops decoding at the limit, before the bad code
	case ko == "huffman" || ko == "string length":
		return u.emitLimit > 0 // a literal x/net skipped while emitting was off; it reads on
	}
	return false
}

// checkStringTable checks that the Decoder's strings are its decoder's
// table, entry for entry.
func checkStringTable(t *testing.T, d *Decoder) {
	t.Helper()
	if d.table.count != d.dec.TableLen() {
		t.Fatalf("string table has %d entries; the decoder's %d", d.table.count, d.dec.TableLen())
	}
	for i := range d.table.count {
		name, value := d.dec.TableEntry(i)
		if n, v := d.table.at(uint32(i)); n != string(name) || v != string(value) {
			t.Fatalf("string table entry %d = %q: %q; the decoder's %q: %q", i, n, v, name, value)
		}
	}
}

// encodeConnection encodes the header lists with x/net's Encoder or ours
// (policy p), changing the table size now and then as a peer's SETTINGS
// would, and breaking a block now and then when mutate is set.
func encodeConnection(rng *rand.Rand, lists [][]HeaderField, xnet bool, p encoder.Policy, mutate bool) []wireBlock {
	var buf bytes.Buffer
	var write func(HeaderField)
	var setSize func(uint32)
	if xnet {
		e := xhpack.NewEncoder(&buf)
		e.SetMaxDynamicTableSizeLimit(8192)
		write, setSize = func(f HeaderField) { _ = e.WriteField(xhpack.HeaderField(f)) }, e.SetMaxDynamicTableSize
	} else {
		e := NewEncoderPolicy(&buf, p)
		e.SetMaxDynamicTableSizeLimit(8192)
		write, setSize = func(f HeaderField) { _ = e.WriteField(f) }, e.SetMaxDynamicTableSize
	}
	sizes := []uint32{0, 64, 256, 1024, 4096, 8192}
	var blocks []wireBlock
	for _, list := range lists {
		var b wireBlock
		switch r := rng.IntN(40); {
		case r < 2:
			b.allowed = []uint32{sizes[rng.IntN(len(sizes))]}
		case r < 3:
			b.allowed = []uint32{sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))]}
		case r < 4:
			v := sizes[rng.IntN(len(sizes))]
			b.maxSize = &v
			b.allowed = []uint32{8192} // so that x/net's uncapped size is also ours
		}
		for _, v := range b.allowed {
			setSize(v)
		}
		if b.maxSize != nil {
			setSize(*b.maxSize)
		}
		for _, f := range list {
			write(f)
		}
		b.wire = bytes.Clone(buf.Bytes())
		buf.Reset()
		if mutate && rng.IntN(8) == 0 {
			b.wire, b.mutated = mutateBlock(rng, b.wire), true
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// mutateBlock breaks a block: octets flipped, cut, added or repeated.
func mutateBlock(rng *rand.Rand, wire []byte) []byte {
	w := bytes.Clone(wire)
	switch r := rng.IntN(5); {
	case r == 0 && len(w) > 0:
		w = w[:rng.IntN(len(w))]
	case r == 1:
		w = append(w, byte(rng.Uint32()), byte(rng.Uint32()))
	case r == 2:
		w = append([]byte{0x20 | byte(rng.IntN(32)), 0xff, 0xff}, w...)
	default:
		for range 1 + rng.IntN(3) {
			if len(w) > 0 {
				w[rng.IntN(len(w))] ^= 1 << rng.IntN(8)
			}
		}
	}
	return w
}

// randomLists returns n header lists: pseudo-headers and common names
// with repeating values, new names, sensitive fields, empty and long
// strings, octets outside ASCII.
func randomLists(rng *rand.Rand, n int) [][]HeaderField {
	names := []string{":method", ":path", ":authority", ":status", "cookie", "authorization", "user-agent", "accept", "x-request-id", "x-trace", ""}
	lists := make([][]HeaderField, n)
	for i := range lists {
		for range rng.IntN(12) {
			name := names[rng.IntN(len(names))]
			if rng.IntN(6) == 0 {
				name = fmt.Sprintf("x-new-%d", rng.IntN(1000))
			}
			var value string
			switch r := rng.IntN(10); {
			case r < 5:
				value = fmt.Sprint(rng.IntN(8))
			case r < 7:
				value = strings.Repeat("v", rng.IntN(300))
			case r < 8:
				value = string([]byte{0, 0xff, byte(rng.Uint32()), '\n'})
			case r < 9:
				value = strings.Repeat("long header value ", 10+rng.IntN(300))
			}
			lists[i] = append(lists[i], HeaderField{Name: name, Value: value, Sensitive: rng.IntN(12) == 0})
		}
	}
	return lists
}

// usages returns the usage patterns tried for each connection.
func usages(rng *rand.Rand) []usage {
	return []usage{
		{name: "DecodeFull"},
		{name: "fragments", fragments: true},
		{name: "emit limit", fragments: true, emitLimit: 1 + rng.IntN(6)},
		{name: "string limit", fragments: true, maxString: []int{1, 8, 64, 300, 4000}[rng.IntN(5)]},
		{name: "DecodeFull, string limit", maxString: []int{1, 8, 64, 300, 4000}[rng.IntN(5)]},
	}
}

// TestDecoderDifferential runs x/net's decoder usage patterns through this
// package's Decoder and x/net's, on connections of random blocks from
// x/net's Encoder and ours, some broken on purpose, and on the
// hpack-test-case raw-data stories encoded by both: the same fields, and
// the same error kinds or a documented difference.
func TestDecoderDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	connections := 300
	if testing.Short() {
		connections = 60
	}
	for c := range connections {
		lists := randomLists(rng, 1+rng.IntN(12))
		for _, xnet := range []bool{false, true} {
			blocks := encodeConnection(rng, lists, xnet, encoder.DefaultPolicy, c%2 == 1)
			for _, u := range usages(rng) {
				t.Run(fmt.Sprintf("%d/xnet=%v/%s", c, xnet, u.name), func(t *testing.T) {
					runConnection(t, rng, u, blocks)
				})
			}
		}
	}
	stories, err := vectors.RawData()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stories {
		var lists [][]HeaderField
		for _, c := range st.Cases {
			var l []HeaderField
			for _, f := range c.Headers {
				l = append(l, HeaderField(f))
			}
			lists = append(lists, l)
		}
		for _, xnet := range []bool{false, true} {
			blocks := encodeConnection(rng, lists, xnet, encoder.IndexAllPolicy(), false)
			for _, u := range usages(rng) {
				t.Run(fmt.Sprintf("story %s/xnet=%v/%s", st.Path, xnet, u.name), func(t *testing.T) {
					runConnection(t, rng, u, blocks)
				})
			}
		}
	}
}
