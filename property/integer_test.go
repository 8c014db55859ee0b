package property

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
)

// The integer representation (RFC 7541 §5.1) is tested twice: directly,
// through encoder.AppendInteger, for every prefix of 1 to 8 bits and values
// to 2^32 (TestIntegerEveryPrefix), and where it reaches the wire: string
// lengths (7-bit prefix), dynamic table size updates (5-bit), indices of
// indexed fields (7-bit), and name indices of literals (6-bit with
// incremental indexing, 4-bit never indexed). Each property checks that the
// integer is the shortest encoding of its value and that the value is the
// one meant (read back by this package's own reader, or by the strict
// decoder). MaxFieldLen, which does the same arithmetic for any length, is
// checked up to 2^32.

// intBoundaries are the values where the length of an integer changes for
// some prefix of 1 to 8 bits: 2^N-1 plus 0, 127, 128, 2^14-1, 2^14,
// 2^21-1, 2^21, 2^28-1, 2^28 and their neighbours.
var intBoundaries = func() []uint64 {
	var out []uint64
	for n := 1; n <= 8; n++ {
		limit := uint64(1)<<n - 1
		for _, off := range []uint64{0, 127, 128, 1<<14 - 1, 1 << 14, 1<<21 - 1, 1 << 21, 1<<28 - 1, 1 << 28} {
			for _, d := range []uint64{0, 1, 2} {
				if limit+off >= d {
					out = append(out, limit+off-d+1)
				}
			}
		}
	}
	return out
}()

// genInt draws integers in [0, limit], half of them next to a length
// boundary, the rest spread evenly over their bit lengths.
func genInt(limit uint64) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		var v uint64
		if p.Rng.Intn(2) == 0 {
			v = intBoundaries[p.Rng.Intn(len(intBoundaries))]
		} else {
			bitsLen := p.Rng.Intn(64)
			v = uint64(p.Rng.Int63()) & (1<<bitsLen - 1)
		}
		if v > limit {
			v %= limit + 1
		}
		return gopter.NewGenResult(v, gen.UInt64Shrinker)
	}
}

// checkInt reports whether i holds want in the shortest encoding.
func checkInt(what string, i wireInt, want uint64) error {
	switch {
	case i.value != want:
		return fmt.Errorf("%s: integer %d on the wire; want %d", what, i.value, want)
	case !i.minimal():
		return fmt.Errorf("%s: %d takes %d octets with a %d-bit prefix; shortest is %d (RFC 7541 §5.1)", what, i.value, i.octets, i.prefix, intLen(i.value, i.prefix))
	}
	return nil
}

// TestIntegerEveryPrefix: encoder.AppendInteger round-trips every value to
// 2^32 with every prefix of 1 to 8 bits, in the fewest octets, keeping the
// pattern bits above the prefix, and IntegerLen agrees with it.
func TestIntegerEveryPrefix(t *testing.T) {
	params := params(t, propConfig{runs: 5000, maxSize: 100})
	check(t, params, forAll(func(v uint64, prefix uint8, pattern byte) error {
		mask := byte(1)<<prefix - 1 // 0xff for prefix 8: no pattern bits
		wire := encoder.AppendInteger([]byte{0xee}, pattern, prefix, v)
		if wire[0] != 0xee {
			return fmt.Errorf("AppendInteger changed dst's first octet to %#x", wire[0])
		}
		wire = wire[1:]
		if got, want := wire[0]&^mask, pattern&^mask; got != want {
			return fmt.Errorf("first octet %08b: pattern bits %08b; want %08b", wire[0], got, want)
		}
		i, err := readInt(wire, prefix)
		if err != nil {
			return fmt.Errorf("%x: %v", wire, err)
		}
		if i.octets != len(wire) {
			return fmt.Errorf("%x: the integer ends after %d octets, %d written", wire, i.octets, len(wire))
		}
		if n := encoder.IntegerLen(prefix, v); n != len(wire) {
			return fmt.Errorf("IntegerLen(%d, %d) = %d; AppendInteger wrote %d octets", prefix, v, n, len(wire))
		}
		return checkInt(fmt.Sprintf("%d-bit prefix", prefix), i, v)
	}, genInt(1<<32), gen.UInt8Range(1, 8), gen.UInt8()))
}

// TestIntegerStringLength: the length of a string literal (7-bit prefix)
// is minimal and right, raw and Huffman coded, for lengths to 2^17.
func TestIntegerStringLength(t *testing.T) {
	p := newPair(encoder.Config{})
	params := params(t, propConfig{runs: 300, maxSize: 100})
	check(t, params, forAll(func(n uint64, huffman bool) error {
		// 'a' has a 5-bit code, so Huffman wins; 0xff a 26-bit one.
		unit := "\xff"
		if huffman {
			unit = "a"
		}
		value := strings.Repeat(unit, int(n))
		p.reset()
		_, reps, err := p.block(genField{Name: "x", Value: value, Sensitive: true})
		if err != nil {
			return err
		}
		r, err := onlyLiteral(reps)
		if err != nil {
			return err
		}
		return checkInt("value length", r.value.length, uint64(len(r.value.payload)))
	}, genInt(1<<17), gen.Bool()))
}

// TestIntegerSizeUpdate: a dynamic table size update (5-bit prefix) carries
// the size set, minimally, for sizes to 2^20.
func TestIntegerSizeUpdate(t *testing.T) {
	const capacity = 1 << 20
	p := newPair(encoder.Config{Capacity: capacity})
	params := params(t, propConfig{runs: 500, maxSize: 100})
	check(t, params, forAll(func(n uint64) error {
		p.reset()
		p.setSize(uint32(n))
		_, reps, err := p.block(genField{Name: "a", Value: "b"})
		if err != nil {
			return err
		}
		if n == spec.DefaultTableSize {
			if reps[0].kind == repSizeUpdate {
				return fmt.Errorf("size update to %d, the size the decoder already has", reps[0].index.value)
			}
			return nil
		}
		if reps[0].kind != repSizeUpdate {
			return fmt.Errorf("block starts with %s; want a size update to %d", reps[0].kind, n)
		}
		return checkInt("size update", reps[0].index, n)
	}, genInt(capacity)))
}

// TestIntegerIndex: indices of indexed fields (7-bit prefix) and name
// indices of literals (6-bit with incremental indexing, 4-bit never
// indexed) are minimal and name the right entry, for dynamic tables of up
// to 2^14+200 entries.
func TestIntegerIndex(t *testing.T) {
	const entries = 1<<14 + 200
	p := newPair(encoder.Config{Capacity: 1 << 20, Policy: encoder.IndexAllPolicy()})
	p.setSize(1 << 20)
	for i := range entries {
		if _, _, err := p.block(genField{Name: fmt.Sprintf("n%d", i), Value: "v"}); err != nil {
			t.Fatalf("filling the table: %v", err)
		}
	}
	params := params(t, propConfig{runs: 500, maxSize: 100})
	fresh := 0 // numbers new values, so that no literal is a full match
	check(t, params, forAll(func(j uint64, kind int) error {
		j %= uint64(p.enc.TableLen())
		name, value := p.enc.TableEntry(int(j))
		f := genField{Name: string(name), Value: string(value)}
		want := repIndexed
		switch kind {
		case 1:
			f.Value, f.Sensitive, want = "other", true, repNever
		case 2:
			fresh++
			f.Value, want = fmt.Sprintf("w%d", fresh), repIncremental
		}
		// The encoder refers to the newest entry that matches.
		newest := -1
		for i := range p.enc.TableLen() {
			n, v := p.enc.TableEntry(i)
			if string(n) == f.Name && (want != repIndexed || string(v) == f.Value) {
				newest = i
				break
			}
		}
		if want != repIndexed && newest != int(j) {
			// An older entry with this name: the index may point at either.
			return nil
		}
		_, reps, err := p.block(f)
		if err != nil {
			return err
		}
		r, err := onlyField(reps)
		if err != nil {
			return err
		}
		if r.kind != want {
			return fmt.Errorf("entry %d sent as %s; want %s", j, r.kind, want)
		}
		return checkInt(want.String()+" index", r.index, uint64(spec.StaticTableLen+1+newest))
	}, genInt(entries), gen.IntRange(0, 2)))
}

// TestMaxFieldLenCoversLongFields: MaxFieldLen is at least the longest
// representation a field of those lengths can get, for lengths to 2^32:
// two size updates, the largest index or a literal name, the value.
func TestMaxFieldLenCoversLongFields(t *testing.T) {
	params := params(t, propConfig{runs: 2000, maxSize: 100})
	check(t, params, forAll(func(nameLen, valueLen uint64) error {
		// A table of at most 2^32 octets holds at most 2^32/32 entries.
		maxIndex := uint64(spec.StaticTableLen + 1<<32/spec.EntryOverhead)
		worst := 2*intLen(1<<32-1, 5) +
			max(intLen(maxIndex, 4), intLen(maxIndex, 6), 1+intLen(nameLen, 7)+int(nameLen)) +
			intLen(valueLen, 7) + int(valueLen)
		if got := encoder.MaxFieldLen(int(nameLen), int(valueLen)); got < worst {
			return fmt.Errorf("MaxFieldLen(%d, %d) = %d; a field can take %d", nameLen, valueLen, got, worst)
		}
		return nil
	}, genInt(1<<32), genInt(1<<32)))
}
