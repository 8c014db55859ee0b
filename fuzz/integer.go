package fuzz

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle"
)

// The integer representations of RFC 7541 §6 that CheckInteger drives,
// by prefix length: between them they use every prefix HPACK has (7, 6,
// 5 and 4 bits).
const (
	intSizeUpdate       = iota // "Dynamic Table Size Update", 5-bit prefix (§6.3)
	intStringLength            // string length, 7-bit prefix (§5.2)
	intIndexed                 // "Indexed Header Field", 7-bit prefix (§6.1)
	intIncrementalName         // literal with incremental indexing, name index, 6-bit prefix (§6.2.1)
	intNeverIndexedName        // literal never indexed, name index, 4-bit prefix (§6.2.3)
	intKinds
)

// Bounds on the values CheckInteger makes the encoder write, so that one
// check stays cheap: a size update sets a table of that size, a string
// length sends a value that long, and a dynamic index needs one entry a
// step, which every oracle decodes. Each bound lets every integer length
// the representation can take below 2^15 occur: a dynamic index up to
// 61 + 256 = 317 takes three octets from 143 (4-bit prefix), 191 (6-bit)
// and 255 (7-bit) on; a string length up to 32,767 takes four from 16,511.
const (
	maxIntSize     = 1 << 15
	maxIntString   = 1 << 15
	maxIntDynIndex = 256
)

// dynamicFill returns the fields that CheckInteger sends to fill the
// dynamic table before it references an entry by a dynamic index, "n0":
// "v0" to "n255": "v255"; they are made once.
var dynamicFill = sync.OnceValue(func() []Op {
	fill := make([]Op, maxIntDynIndex)
	for i := range fill {
		fill[i] = Op{Name: "n" + strconv.Itoa(i), Value: "v" + strconv.Itoa(i)}
	}
	return fill
})

// longestIntString returns maxIntString octets 0xff, made once, whose
// prefixes are the values of the string length checks.
var longestIntString = sync.OnceValue(func() string { return strings.Repeat("\xff", maxIntString) })

// IntegerLen returns the length in octets of the §5.1 encoding of v with
// an n-bit prefix.
func IntegerLen(v uint64, n uint) int {
	limit := uint64(1)<<n - 1
	if v < limit {
		return 1
	}
	octets := 2
	for v -= limit; v >= 0x80; v >>= 7 {
		octets++
	}
	return octets
}

// appendInteger appends v as an integer with an n-bit prefix (§5.1) after
// the pattern bits: the fuzz package's own writer, written from the RFC's
// pseudocode, for blocks the checks build by hand.
func appendInteger(dst []byte, pattern byte, n uint, v uint64) []byte {
	limit := uint64(1)<<n - 1
	if v < limit {
		return append(dst, pattern|byte(v))
	}
	dst = append(dst, pattern|byte(limit))
	for v -= limit; v >= 0x80; v >>= 7 {
		dst = append(dst, byte(v%0x80)|0x80)
	}
	return append(dst, byte(v))
}

// integerDst is what checkIntegerDirect puts in dst before the integer.
const integerDst = "dst"

// checkIntegerDirect checks encoder.AppendInteger and encoder.IntegerLen
// for v under every prefix length from 1 to 8 (RFC 7541 §5.1): the
// integer is appended after dst's octets, which stay as they were; the
// first octet keeps pattern's bits above the prefix; wire.ReadInt gets v
// back from exactly the octets appended; their number is the minimal one
// (IntegerLen) and what encoder.IntegerLen says; and they equal what our
// own writer makes, since the minimal encoding is unique.
func checkIntegerDirect(pattern byte, v uint64) error {
	for n := uint(1); n <= 8; n++ {
		out := encoder.AppendInteger([]byte(integerDst), pattern, uint8(n), v)
		if len(out) <= len(integerDst) || string(out[:len(integerDst)]) != integerDst {
			return fmt.Errorf("AppendInteger(%q, %#02x, %d, %d) = %x: dst changed or nothing appended", integerDst, pattern, n, v, out)
		}
		got := out[len(integerDst):]
		high := byte(0xff << n) // the pattern bits above an n-bit prefix
		want := appendInteger(nil, pattern&high, n, v)
		switch read, _, err := wire.ReadInt(got, 0, uint8(n)); {
		case got[0]&high != pattern&high:
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x: first octet's bits above the prefix are %#02x; want %#02x", pattern, n, v, got, got[0]&high, pattern&high)
		case err != nil:
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x: %v", pattern, n, v, got, err)
		case read.Value != v:
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x, which holds %d", pattern, n, v, got, read.Value)
		case read.Octets != len(got):
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x: %d octets after the integer's %d", pattern, n, v, got, len(got)-read.Octets, read.Octets)
		case len(got) != IntegerLen(v, n):
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x: %d octets; the minimal encoding is %d", pattern, n, v, got, len(got), IntegerLen(v, n))
		case encoder.IntegerLen(uint8(n), v) != len(got):
			return fmt.Errorf("encoder.IntegerLen(%d, %d) = %d; AppendInteger appends %d octets", n, v, encoder.IntegerLen(uint8(n), v), len(got))
		case string(got) != string(want):
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x; want %x", pattern, n, v, got, want)
		}
	}
	return nil
}

// integerValue is the value checkIntegerDirect takes from an integer target
// input: octets 1 to 8 (as many as there are), big-endian. For an input of
// five octets it is the value the wire-level checks start from.
func integerValue(data []byte) uint64 {
	var v uint64
	if len(data) > 1 {
		for _, b := range data[1:min(len(data), 9)] {
			v = v<<8 | uint64(b)
		}
	}
	return v
}

// CheckInteger is the body of the integer target. It makes the encoder
// write a chosen integer through the field API: data[0] picks the representation (and so the prefix length) and the
// next four octets, big-endian, the value, reduced to the representation's
// range. The wire walker (internal/wire) must find the value in the
// block, in the minimal number of octets (IntegerLen), and a fresh decoder
// from each factory in oracles must decode the block to the fields sent.
//
// Before that, checkIntegerDirect checks encoder.AppendInteger and
// encoder.IntegerLen for every prefix from 1 to 8 with data[0] as the
// pattern and octets 1-8 (as many as there are), big-endian, as the value,
// so values up to 2^64-1 occur.
func CheckInteger(data []byte, oracles []func() oracle.Decoder) error {
	return newChecker(oracles).integer(data)
}

func (c *checker) integer(data []byte) error {
	var pattern byte
	if len(data) > 0 {
		pattern = data[0]
	}
	if err := checkIntegerDirect(pattern, integerValue(data)); err != nil {
		return err
	}
	r := &scriptReader{data: data}
	kind := int(r.byte()) % intKinds
	v := uint64(r.uint32())
	var (
		settings []uint32 // acknowledged before the first block
		steps    [][]Op   // the blocks sent, as fields; the integer is in the last
		blocks   [][]byte
		enc      *encoder.Encoder
		prefix   uint
		// check finds the integer among the last block's representations.
		check func(reps []wire.Representation) (wire.Int, error)
	)
	switch kind {
	case intSizeUpdate:
		v %= maxIntSize
		// Capacity maxIntSize, not less, makes the setting v the table
		// size whatever v is, and one encoder serves every v.
		enc = c.encoder(encoder.Config{Capacity: maxIntSize})
		settings = []uint32{0, uint32(v)}
		prefix = 5
		steps = [][]Op{{{Name: ":method", Value: "GET"}}}
		check = func(reps []wire.Representation) (wire.Int, error) {
			// The updates are the smallest size, 0, then v unless v is 0.
			first, err := representation(reps, 0, wire.SizeUpdate)
			if err != nil || first.Index.Value != 0 {
				return wire.Int{}, fmt.Errorf("does not start with a size update to 0")
			}
			if v == 0 {
				return first.Index, nil
			}
			second, err := representation(reps, 1, wire.SizeUpdate)
			return second.Index, err
		}
	case intStringLength:
		v %= maxIntString
		enc = c.encoder(encoder.Config{})
		prefix = 7
		// 0xff has a 26-bit Huffman code, so the value goes raw.
		steps = [][]Op{{{Name: huffmanProbeName, Value: longestIntString()[:v], Sensitive: true}}}
		check = func(reps []wire.Representation) (wire.Int, error) {
			field, err := representation(reps, 0, wire.NeverIndexed)
			if err != nil || field.Name == nil || field.Value.Huffman {
				return wire.Int{}, fmt.Errorf("not a never-indexed literal with a new name and a raw value")
			}
			return field.Value.Length, nil
		}
	default:
		v = 1 + v%(spec.StaticTableLen+maxIntDynIndex)
		// Raw strings: the fill's Huffman codes are not what this check
		// is about, and every oracle decodes up to maxIntDynIndex of them.
		policy := encoder.IndexAllPolicy()
		policy.Huffman = encoder.HuffmanNever
		enc = c.encoder(encoder.Config{Capacity: 64 << 10, Policy: policy})
		settings = []uint32{64 << 10}
		var want Op
		if v <= spec.StaticTableLen {
			entry := spec.StaticTable[v-1]
			want = Op{Name: entry.Name, Value: entry.Value}
		} else {
			// v-61 fields fill the dynamic table; the first of them is then
			// at index v (RFC 7541 §2.3.3: the newest entry is 62).
			fill := dynamicFill()[:int(v)-spec.StaticTableLen]
			steps = append(steps, fill)
			want = fill[0]
		}
		var wantKind wire.Kind
		switch kind {
		case intIndexed:
			prefix, wantKind = 7, wire.Indexed
		case intIncrementalName:
			prefix, wantKind = 6, wire.Incremental
			want.Value = "\x01"
		case intNeverIndexedName:
			prefix, wantKind = 4, wire.NeverIndexed
			want.Value = "\x01"
			want.Sensitive = true
		}
		if kind != intIndexed && v <= spec.StaticTableLen {
			// A name the static table holds more than once is referenced
			// by its first index.
			for v > 1 && spec.StaticTable[v-2].Name == want.Name {
				v--
			}
		}
		steps = append(steps, []Op{want})
		check = func(reps []wire.Representation) (wire.Int, error) {
			// Skip the size update to 64 KiB a one-block run starts with.
			i := 0
			for i < len(reps) && reps[i].Kind == wire.SizeUpdate {
				i++
			}
			field, err := representation(reps, i, wantKind)
			return field.Index, err
		}
	}
	for _, size := range settings {
		enc.SetMaxDynamicTableSize(size)
	}
	for _, fields := range steps {
		var block []byte
		for _, f := range fields {
			block = enc.AppendFieldString(block, f.Name, f.Value, f.Sensitive)
		}
		blocks = append(blocks, block)
	}
	last := blocks[len(blocks)-1]
	reps, err := wire.Walk(last)
	var got wire.Int
	if err == nil {
		got, err = check(reps)
	}
	switch {
	case err != nil:
		return fmt.Errorf("integer %d, %d-bit prefix: block %x: %v", v, prefix, last, err)
	case got.Value != v:
		return fmt.Errorf("integer %d, %d-bit prefix: block %x holds %d", v, prefix, last, got.Value)
	case got.Octets != IntegerLen(v, prefix):
		return fmt.Errorf("integer %d, %d-bit prefix: block %x spends %d octets on it; want %d", v, prefix, last, got.Octets, IntegerLen(v, prefix))
	}
	for i := range c.oracles {
		d := c.decoder(i)
		for _, size := range settings {
			d.SetMaxDynamicTableSize(size)
		}
		for i, block := range blocks {
			fields, err := d.DecodeBlock(block)
			if err != nil {
				return fmt.Errorf("integer %d, %d-bit prefix: %s rejects block %d %x: %v", v, prefix, d.Name(), i+1, block, err)
			}
			if err := compareFields(fields, steps[i]); err != nil {
				return fmt.Errorf("integer %d, %d-bit prefix: %s decodes block %d %x: %v", v, prefix, d.Name(), i+1, block, err)
			}
		}
	}
	return nil
}

// representation returns reps[i], which must be of kind k.
func representation(reps []wire.Representation, i int, k wire.Kind) (wire.Representation, error) {
	switch {
	case i >= len(reps):
		return wire.Representation{}, fmt.Errorf("%d representations; want %s as representation %d", len(reps), k, i+1)
	case reps[i].Kind != k:
		return wire.Representation{}, fmt.Errorf("offset %d: %s; want %s", reps[i].Offset, reps[i].Kind, k)
	}
	return reps[i], nil
}
