package certify

import (
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// prepare decodes a story with the strict decoder and keeps, for each
// block, what the decoder certified must make of it and what the block
// uses (its features and evidence). A story whose invalid block the
// strict decoder accepts, or whose valid block it refuses, is a bug of
// the catalogue: prepare returns an error naming it.
func (s *decStory) prepare() error {
	d := strict.New()
	table := uint32(spec.DefaultTableSize)
	for i := range s.steps {
		st := &s.steps[i]
		if st.tableSize != table {
			d.SetMaxDynamicTableSize(st.tableSize)
			table = st.tableSize
		}
		d.SetMaxHeaderListSize(int(st.maxList))
		before := len(d.Table())
		fields, err := d.DecodeBlock(st.block)
		ev := d.TableEvents()
		st.expect.feats, st.expect.ev = blockFeatures(st.block, before, ev)
		switch {
		case err != nil && !st.invalid:
			return fmt.Errorf("certify: dec/ story %s, block %d (%s): the strict decoder refuses it: %v", s.name, i, st.note, err)
		case err == nil && st.invalid:
			return fmt.Errorf("certify: dec/ story %s, block %d (%s): the strict decoder accepts it", s.name, i, st.note)
		case err != nil:
			st.expect.refused = err.Error()
			if i != len(s.steps)-1 {
				return fmt.Errorf("certify: dec/ story %s: block %d is refused but not last", s.name, i)
			}
		default:
			st.expect.fields = fields
			st.expect.table = d.Table()
		}
	}
	return nil
}

// blockFeatures returns what a block uses, read off its representations
// and the strict decoder's table events, and its evidence. tableLen is
// the number of dynamic entries before the block.
func blockFeatures(block []byte, tableLen int, ev strict.TableEvents) (decFeature, Evidence) {
	var f decFeature
	e := Evidence{Blocks: 1, Insertions: ev.Inserted, Evictions: ev.EvictedByInsertion + ev.EvictedBySizeUpdate}
	reps, _ := wire.Walk(block)
	index := func(i uint64) {
		switch {
		case i >= 1 && i <= spec.StaticTableLen:
			f |= fStatic
		case i > spec.StaticTableLen && i-spec.StaticTableLen <= uint64(tableLen):
			f |= fDynamic
		case i > spec.StaticTableLen:
			f |= fPastIndex
		}
	}
	str := func(s *wire.String) {
		if s == nil {
			return
		}
		if s.Length.Octets > 1 {
			f |= fLongInt
		}
		if s.Huffman {
			f |= fHuffman
			e.HuffmanStrings++
		} else {
			f |= fRaw
		}
		if t := s.Text; t != "" && (strings.ContainsAny(t[:1], " \t") || strings.ContainsAny(t[len(t)-1:], " \t")) {
			f |= fEdgeSpace
		}
	}
	updates := 0
	for _, r := range reps {
		if r.Kind == wire.SizeUpdate {
			if updates++; updates == 2 {
				f |= fUpdates
			}
		}
		if r.Index.Octets > 1 {
			f |= fLongInt
		}
		switch r.Kind {
		case wire.SizeUpdate:
			f |= fUpdate
			e.SizeUpdates++
			continue
		case wire.Indexed:
			index(r.Index.Value)
		default:
			if r.Index.Value != 0 {
				index(r.Index.Value)
			}
		}
		e.Representations++
		switch r.Kind {
		case wire.Incremental:
			f |= fInsert
			if r.Index.Value > spec.StaticTableLen && ev.EvictedByInsertion > 0 {
				f |= fOwnName
			}
			tableLen++
		case wire.WithoutIndexing:
			f |= fWithout
		case wire.NeverIndexed:
			f |= fNever
			e.SensitiveFields++
		}
		str(r.Name)
		str(r.Value)
	}
	if ev.EvictedByInsertion > 0 {
		f |= fEvictInsert
	}
	if ev.Oversized > 0 {
		f |= fOversized
	}
	if ev.EvictedBySizeUpdate > 0 {
		f |= fResize
	}
	return f, e
}
