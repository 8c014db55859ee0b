package fuzz

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
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
// check stays cheap: a size update allocates a table of that capacity, a
// string length a value that long, and a dynamic index one entry per step.
const (
	maxIntSize     = 1 << 15
	maxIntString   = 1 << 15
	maxIntDynIndex = 1024
)

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

// readInteger reads an integer with an n-bit prefix (§5.1), 1 <= n <= 8,
// from the start of b and returns it with the number of octets it took. It
// reads any value up to 2^64-1, continuation octets that add nothing
// included, and fails on a value past 2^64-1 or an integer cut off.
func readInteger(b []byte, n uint) (value uint64, octets int, err error) {
	if len(b) == 0 {
		return 0, 0, fmt.Errorf("integer missing")
	}
	mask := uint64(1)<<n - 1
	value = uint64(b[0]) & mask
	if value < mask {
		return value, 1, nil
	}
	for i, shift := 1, uint(0); ; i, shift = i+1, shift+7 {
		if i >= len(b) {
			return 0, 0, fmt.Errorf("integer cut off after %d octets", i)
		}
		c := uint64(b[i] & 0x7f)
		if shift > 63 || c<<shift>>shift != c || value+c<<shift < value {
			return 0, 0, fmt.Errorf("integer past 2^64-1 at octet %d", i)
		}
		value += c << shift
		if b[i]&0x80 == 0 {
			return value, i + 1, nil
		}
	}
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
// first octet keeps pattern's bits above the prefix; our own reader gets v
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
		switch value, octets, err := readInteger(got, n); {
		case got[0]&high != pattern&high:
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x: first octet's bits above the prefix are %#02x; want %#02x", pattern, n, v, got, got[0]&high, pattern&high)
		case err != nil:
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x: %v", pattern, n, v, got, err)
		case value != v:
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x, which holds %d", pattern, n, v, got, value)
		case octets != len(got):
			return fmt.Errorf("AppendInteger(%#02x, %d, %d) = %x: %d octets after the integer's %d", pattern, n, v, got, len(got)-octets, octets)
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
// range. The fuzz package's own reader (written from §5.1) must read the
// value back from the block, in the minimal number of octets (IntegerLen),
// and a fresh decoder from each factory in oracles must decode the block
// to the fields sent.
//
// Before that, checkIntegerDirect checks encoder.AppendInteger and
// encoder.IntegerLen for every prefix from 1 to 8 with data[0] as the
// pattern and octets 1-8 (as many as there are), big-endian, as the value,
// so values up to 2^64-1 occur.
func CheckInteger(data []byte, oracles []func() oracle.Decoder) error {
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
		check    func(last []byte) (uint64, int, error)
	)
	switch kind {
	case intSizeUpdate:
		v %= maxIntSize
		enc = encoder.New(encoder.Config{Capacity: max(uint32(v), spec.DefaultTableSize)})
		settings = []uint32{0, uint32(v)}
		prefix = 5
		steps = [][]Op{{{Name: ":method", Value: "GET"}}}
		check = func(last []byte) (uint64, int, error) {
			// The updates are the smallest size, 0, then v unless v is 0.
			r := &wireReader{block: last}
			if zero, _, err := r.integer(5); err != nil || last[0]&0xe0 != 0x20 || zero != 0 {
				return 0, 0, fmt.Errorf("does not start with a size update to 0")
			}
			if v == 0 {
				return 0, 1, nil
			}
			if r.pos >= len(last) || last[r.pos]&0xe0 != 0x20 {
				return 0, 0, fmt.Errorf("offset %d: second size update missing", r.pos)
			}
			return r.integer(5)
		}
	case intStringLength:
		v %= maxIntString
		enc = encoder.New(encoder.Config{})
		prefix = 7
		// 0xff has a 26-bit Huffman code, so the value goes raw.
		steps = [][]Op{{{Name: huffmanProbeName, Value: strings.Repeat("\xff", int(v)), Sensitive: true}}}
		check = func(last []byte) (uint64, int, error) {
			r := &wireReader{block: last, pos: 3} // 0x10, then the name "x" raw
			if len(last) < 4 || last[0] != 0x10 || last[3]&0x80 != 0 {
				return 0, 0, fmt.Errorf("not a never-indexed literal with a new name and a raw value")
			}
			return r.integer(7)
		}
	default:
		v = 1 + v%(spec.StaticTableLen+maxIntDynIndex)
		enc = encoder.New(encoder.Config{Capacity: 64 << 10, Policy: encoder.IndexAllPolicy()})
		settings = []uint32{64 << 10}
		var want Op
		if v <= spec.StaticTableLen {
			entry := spec.StaticTable[v-1]
			want = Op{Name: entry.Name, Value: entry.Value}
		} else {
			// v-61 fields fill the dynamic table; the first of them is then
			// at index v (RFC 7541 §2.3.3: the newest entry is 62).
			var fill []Op
			for i := range int(v) - spec.StaticTableLen {
				fill = append(fill, Op{Name: "n" + strconv.Itoa(i), Value: "v" + strconv.Itoa(i)})
			}
			steps = append(steps, fill)
			want = fill[0]
		}
		switch kind {
		case intIndexed:
			prefix = 7
		case intIncrementalName:
			prefix = 6
			want.Value = "\x01"
		case intNeverIndexedName:
			prefix = 4
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
		pattern := map[uint]byte{7: 0x80, 6: 0x40, 4: 0x10}[prefix]
		check = func(last []byte) (uint64, int, error) {
			// Skip the size update to 64 KiB a one-block run starts with.
			r := &wireReader{block: last}
			for r.pos < len(last) && last[r.pos]&0xe0 == 0x20 {
				if _, _, err := r.integer(5); err != nil {
					return 0, 0, err
				}
			}
			if mask := ^byte(1<<prefix - 1); r.pos >= len(last) || last[r.pos]&mask != pattern {
				return 0, 0, fmt.Errorf("offset %d: no representation of the form %#02x", r.pos, pattern)
			}
			return r.integer(prefix)
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
	got, octets, err := check(last)
	switch {
	case err != nil:
		return fmt.Errorf("integer %d, %d-bit prefix: block %x: %v", v, prefix, last, err)
	case got != v:
		return fmt.Errorf("integer %d, %d-bit prefix: block %x holds %d", v, prefix, last, got)
	case octets != IntegerLen(v, prefix):
		return fmt.Errorf("integer %d, %d-bit prefix: block %x spends %d octets on it; want %d", v, prefix, last, octets, IntegerLen(v, prefix))
	}
	for _, newDecoder := range oracles {
		d := newDecoder()
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
