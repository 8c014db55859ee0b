package property

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/leanovate/gopter"
)

// fragmentWorkload is a mutatedWorkload with, for each step, where its
// block is cut into fragments (offsets in increasing order, possibly
// equal, so that a fragment may be empty).
type fragmentWorkload struct {
	mutatedWorkload
	Cuts [][]int
}

// genFragmentWorkload draws a mutatedWorkload and up to four cuts in each
// of its blocks.
func genFragmentWorkload(p *gopter.GenParameters) *gopter.GenResult {
	w := fragmentWorkload{mutatedWorkload: genMutatedWorkload(p).Result.(mutatedWorkload)}
	w.Cuts = make([][]int, len(w.Steps))
	for i, s := range w.Steps {
		for range p.Rng.Intn(5) {
			w.Cuts[i] = append(w.Cuts[i], p.Rng.Intn(len(s.Wire)+1))
		}
		slices.Sort(w.Cuts[i])
	}
	return gopter.NewGenResult(w, gopter.NoShrinker)
}

// decodeInPieces decodes block with d as the fragments cuts make, each
// fragment starting with what the one before left unconsumed, as
// DecodeFragment's doc asks. An error's offset is made absolute, counted
// from the start of block.
func decodeInPieces(d *decoder.Decoder, block []byte, cuts []int) ([]oracle.Field, error) {
	var fields []oracle.Field
	emit := func(name, value []byte, sensitive bool) error {
		fields = append(fields, oracle.Field{Name: string(name), Value: string(value), Sensitive: sensitive})
		return nil
	}
	d.BeginBlock()
	base := 0 // the offset in block of the next fragment's first octet
	for k := 0; k <= len(cuts); k++ {
		end := len(block)
		if k < len(cuts) {
			end = cuts[k]
		}
		frag, final := block[base:max(end, base)], k == len(cuts)
		n, err := d.DecodeFragment(frag, final, emit)
		if err != nil {
			var e *decoder.Error
			if errors.As(err, &e) {
				return fields, &decoder.Error{Offset: base + e.Offset, Rule: e.Rule}
			}
			return fields, err
		}
		if n < 0 || n > len(frag) || final && n != len(frag) {
			return fields, fmt.Errorf("DecodeFragment(%s, final %v) consumed %d octets", hexShort(frag), final, n)
		}
		base += n
	}
	return fields, nil
}

// TestDecodeFragmentCuts decodes generated workloads, a quarter of their
// blocks mutated, twice: with Decode, and with BeginBlock and
// DecodeFragment on the block cut at generated offsets. Both must accept
// each block with the same fields and leave the same table, or refuse it
// for the same rule at the same offset in the block.
func TestDecodeFragmentCuts(t *testing.T) {
	params := params(t, propConfig{runs: 300, maxSize: 30})
	cutBlocks := 0
	check(t, params, forAll(func(w fragmentWorkload) error {
		var whole, pieces *decoder.Decoder
		connect := func() {
			whole, pieces = newRefDecoder(w.Capacity), newRefDecoder(w.Capacity)
			whole.SetMaxHeaderListSize(w.ListLimit)
			pieces.SetMaxHeaderListSize(w.ListLimit)
		}
		ack := func(n uint32) {
			whole.SetTableSize(n)
			pieces.SetTableSize(n)
		}
		return w.drive(connect, ack, func(i int, wire []byte) (bool, error) {
			want, werr := refFields(whole, wire)
			got, err := decodeInPieces(pieces, wire, w.Cuts[i])
			if len(w.Cuts[i]) > 0 {
				cutBlocks++
			}
			var e, we *decoder.Error
			switch {
			case (err == nil) != (werr == nil),
				err != nil && (!errors.As(err, &e) || !errors.As(werr, &we) || *e != *we):
				return false, fmt.Errorf("step %d, block %s cut at %v: in pieces %v; whole %v", i, hexShort(wire), w.Cuts[i], err, werr)
			case !slices.Equal(got, want):
				return false, fmt.Errorf("step %d, block %s cut at %v: in pieces %s; whole %s", i, hexShort(wire), w.Cuts[i], fieldsString(got), fieldsString(want))
			case err != nil:
				return true, nil
			}
			if d := diffTables("whole", refTable(whole), "in pieces", refTable(pieces)); d != "" {
				return false, fmt.Errorf("step %d, block %s cut at %v: tables differ: %s", i, hexShort(wire), w.Cuts[i], d)
			}
			return false, nil
		})
	}, genFragmentWorkload))
	if cutBlocks == 0 && !t.Failed() {
		t.Error("no generated block was cut; the generator needs a look")
	}
}
