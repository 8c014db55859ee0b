package property

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/leanovate/gopter"
)

// The reference decoder against oracle/strict, the RFC-literal decoder it
// must be as strict as, on the blocks the encoder writes for the state
// machine's commands, some of them mutated: both must accept a block with
// the same fields and leave the same table, or both refuse it for the
// same RFC section at the same offset.

// ruleSections maps each rule of package decoder to the RFC 7541 section
// strict's Error names for it ("7.3" for the header list limit, strict's
// HPACK-bomb defence). RuleStringTooLong has none: strict has no string
// bound.
var ruleSections = map[string]string{
	decoder.RuleHuffmanEOS:        "5.2",
	decoder.RuleHuffmanPadLength:  "5.2",
	decoder.RuleHuffmanPadOnes:    "5.2",
	decoder.RuleIntegerTruncated:  "5.1",
	decoder.RuleIntegerOverflow:   "5.1",
	decoder.RuleIntegerTooLong:    "5.1",
	decoder.RuleStringTruncated:   "5.2",
	decoder.RuleIndexZero:         "6.1",
	decoder.RuleIndexRange:        "2.3.3",
	decoder.RuleSizeUpdateLimit:   "6.3",
	decoder.RuleSizeUpdatePlace:   "4.2",
	decoder.RuleSizeUpdateMissing: "4.2",
	decoder.RuleHeaderListSize:    "7.3",
}

// listLimits are the header list limits both decoders are given, one per
// workload: none, and two that the machine's giant fields exceed.
var listLimits = []uint32{0, 4096, 20000}

// mutatedWorkload is a decodeWorkload some of whose blocks were mutated,
// with the header list limit both decoders get.
type mutatedWorkload struct {
	decodeWorkload
	ListLimit uint32
}

// genMutatedWorkload draws a decodeWorkload and mutates a quarter of its
// blocks: a bit flipped, an octet replaced, inserted or removed, or the
// block cut short.
func genMutatedWorkload(p *gopter.GenParameters) *gopter.GenResult {
	w := mutatedWorkload{decodeWorkload: genDecodeWorkload(p).Result.(decodeWorkload), ListLimit: listLimits[p.Rng.Intn(len(listLimits))]}
	for i, s := range w.Steps {
		if s.Kind == "block" && p.Rng.Intn(4) == 0 {
			w.Steps[i].Wire = mutate(p.Rng, s.Wire)
		}
	}
	return gopter.NewGenResult(w, gopter.NoShrinker)
}

// drive runs w's steps: connect at the start and at each new connection,
// ack for each setting, and block for each block, until block returns an
// error or says that the connection is over (after a refusal).
func (w mutatedWorkload) drive(connect func(), ack func(n uint32), block func(step int, wire []byte) (over bool, err error)) error {
	connect()
	for i, s := range w.Steps {
		switch s.Kind {
		case "connection":
			connect()
		case "size":
			ack(s.Size)
		default:
			if over, err := block(i, s.Wire); over || err != nil {
				return err
			}
		}
	}
	return nil
}

// mutate returns a changed copy of block.
func mutate(rng *rand.Rand, block []byte) []byte {
	b := slices.Clone(block)
	i := rng.Intn(len(b))
	switch rng.Intn(5) {
	case 0:
		b[i] ^= 1 << rng.Intn(8)
	case 1:
		b[i] = byte(rng.Intn(256))
	case 2:
		b = slices.Insert(b, i, byte(rng.Intn(256)))
	case 3:
		b = slices.Delete(b, i, i+1)
	default:
		b = b[:i]
	}
	return b
}

// sameRefusal reports whether the reference decoder's error e and
// strict's se name the same fault. The two place some faults differently
// within the item at fault, each as its doc says: strict names the first
// octet of an integer, the reference decoder the octet where it breaks (a
// continuation octet, or the missing one past the block's end), at most 6
// octets on; strict names the octet that completes a faulty Huffman
// sequence (EOS or padding, at most 30 bits), the reference decoder the
// octet where it starts, at most 4 octets before. And a string longer than the reference decoder's MaxStringLength is refused
// as such before it is found to run past the block, as strict finds it.
func sameRefusal(e *decoder.Error, se *strict.Error) bool {
	switch e.Rule {
	case decoder.RuleIntegerTruncated, decoder.RuleIntegerOverflow, decoder.RuleIntegerTooLong:
		return se.Section == "5.1" && se.Offset <= e.Offset && e.Offset <= se.Offset+6
	case decoder.RuleHuffmanEOS, decoder.RuleHuffmanPadLength, decoder.RuleHuffmanPadOnes:
		return se.Section == "5.2" && e.Offset <= se.Offset && se.Offset <= e.Offset+4
	case decoder.RuleStringTooLong:
		// strict has no string bound: a string longer than any
		// the workloads send runs past the end of the block for it.
		return se.Section == "5.2" && e.Offset == se.Offset
	}
	return ruleSections[e.Rule] == se.Section && e.Offset == se.Offset
}

// refFields decodes block with d and copies the fields out.
func refFields(d *decoder.Decoder, block []byte) ([]oracle.Field, error) {
	var fields []oracle.Field
	err := d.Decode(block, func(name, value []byte, sensitive bool) error {
		fields = append(fields, oracle.Field{Name: string(name), Value: string(value), Sensitive: sensitive})
		return nil
	})
	return fields, err
}

// refTable returns d's dynamic table, newest first.
func refTable(d *decoder.Decoder) []oracle.Field {
	out := make([]oracle.Field, d.TableLen())
	for i := range out {
		name, value := d.TableEntry(i)
		out[i] = oracle.Field{Name: string(name), Value: string(value)}
	}
	return out
}

// compareRefStrict returns how the reference decoder's outcome of a block
// differs from strict's, or "".
func compareRefStrict(got []oracle.Field, err error, want []oracle.Field, serr error) string {
	switch {
	case err == nil && serr == nil:
		if !slices.Equal(got, want) {
			return fmt.Sprintf("decodes to %s; strict to %s", fieldsString(got), fieldsString(want))
		}
		return ""
	case err == nil:
		return fmt.Sprintf("accepts it (%s); strict refuses it: %v", fieldsString(got), serr)
	case serr == nil:
		return fmt.Sprintf("refuses it: %v; strict accepts it (%s)", err, fieldsString(want))
	}
	var e *decoder.Error
	var se *strict.Error
	if !errors.As(err, &e) || !errors.As(serr, &se) {
		return fmt.Sprintf("refuses it with %T %v; strict with %T %v", err, err, serr, serr)
	}
	if !sameRefusal(e, se) {
		return fmt.Sprintf("refuses it at offset %d: %s (§%s); strict at offset %d: §%s: %s", e.Offset, e.Rule, ruleSections[e.Rule], se.Offset, se.Section, se.Reason)
	}
	return ""
}

// TestDecoderAgreesWithStrict decodes generated workloads, a quarter of
// their blocks mutated, with the reference decoder and the strict one,
// told of the same settings and given the same header list limit: after
// every block both accept it with the same fields and hold the same
// table, or both refuse it, for the same section at the same offset. A
// refusal ends the connection.
func TestDecoderAgreesWithStrict(t *testing.T) {
	params := params(t, propConfig{runs: 300, maxSize: 30})
	refusals := map[string]int{}
	check(t, params, forAll(func(w mutatedWorkload) error {
		var ref *decoder.Decoder
		var sd *strict.Decoder
		connect := func() {
			ref = newRefDecoder(w.Capacity)
			ref.SetMaxHeaderListSize(w.ListLimit)
			sd = strict.New()
			sd.SetMaxHeaderListSize(int(w.ListLimit))
		}
		ack := func(n uint32) {
			ref.SetTableSize(n)
			sd.SetMaxDynamicTableSize(n)
		}
		return w.drive(connect, ack, func(i int, wire []byte) (bool, error) {
			got, err := refFields(ref, wire)
			want, serr := sd.DecodeBlock(wire)
			if d := compareRefStrict(got, err, want, serr); d != "" {
				return false, fmt.Errorf("step %d, block %s: the reference decoder %s", i, hexShort(wire), d)
			}
			if err != nil {
				refusals[err.(*decoder.Error).Rule]++
				return true, nil
			}
			if d := diffTables("strict", sd.Table(), refName, refTable(ref)); d != "" {
				return false, fmt.Errorf("step %d, block %s: tables differ: %s", i, hexShort(wire), d)
			}
			return false, nil
		})
	}, genMutatedWorkload))
	t.Logf("refusals: %v", refusals)
}
