package decoders

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
		before, maxBefore := len(d.Table()), d.MaxTableSize()
		fields, err := d.DecodeBlock(st.block)
		ev := d.TableEvents()
		used := st.block
		if a := st.authority; a[1] > 0 {
			used = append(append([]byte(nil), st.block[:a[0]]...), st.block[a[1]:]...)
		}
		st.expect.feats, st.expect.ev = blockFeatures(used, before, maxBefore, ev)
		st.expect.longest = longestString(used)
		if err != nil && s.replayed && i == len(s.steps)-1 {
			st.invalid = true
		}
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
			st.expect.httpInvalid = httpInvalid(fields)
			if st.expect.httpInvalid == "" {
				st.expect.httpInvalid = notRequest(fields)
			}
		}
	}
	return nil
}

// blockFeatures returns what a block uses, read off its representations
// and the strict decoder's table events, and its evidence. tableLen is
// the number of dynamic entries before the block, maxSize the table's
// maximum size.
func blockFeatures(block []byte, tableLen int, maxSize uint32, ev strict.TableEvents) (decFeature, Evidence) {
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
			if r.Index.Value > uint64(maxSize) {
				f |= fRaise
			}
			maxSize = uint32(min(r.Index.Value, 1<<32-1))
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

// httpInvalid says why a header list is not one HTTP/2 lets through,
// "" when it is (RFC 9113 §8.2.1, §8.3): a name with an octet outside
// lowercase visible ASCII (a pseudo-header's leading colon aside), a
// value with NUL, CR or LF, or with whitespace at an end, an empty name.
func httpInvalid(fields []Field) string {
	for i, f := range fields {
		name := f.Name
		if strings.HasPrefix(name, ":") {
			name = name[1:]
		}
		if name == "" {
			return fmt.Sprintf("field %d has an empty name", i)
		}
		for j := 0; j < len(name); j++ {
			if c := name[j]; c <= 0x20 || (c >= 'A' && c <= 'Z') || c >= 0x7f || c == ':' {
				return fmt.Sprintf("field %d's name has the octet 0x%02x", i, c)
			}
		}
		if strings.ContainsAny(f.Value, "\x00\r\n") {
			return fmt.Sprintf("field %d's value has NUL, CR or LF", i)
		}
		if v := f.Value; v != "" && (strings.ContainsAny(v[:1], " \t") || strings.ContainsAny(v[len(v)-1:], " \t")) {
			return fmt.Sprintf("field %d's value starts or ends with whitespace", i)
		}
	}
	return ""
}

// notRequest says why a header list is not a well-formed HTTP/2 request
// (RFC 9113 §8.3.1), "" when it is: :method, :scheme and :path once
// each, before the other fields, no other pseudo-header but :authority.
// A live server may refuse a block that is not one, with any error.
func notRequest(fields []Field) string {
	seen := map[string]int{}
	regular := false
	for i, f := range fields {
		if !strings.HasPrefix(f.Name, ":") {
			regular = true
			continue
		}
		switch {
		case regular:
			return fmt.Sprintf("field %d, a pseudo-header, follows a regular field", i)
		case f.Name != ":method" && f.Name != ":scheme" && f.Name != ":path" && f.Name != ":authority":
			return fmt.Sprintf("field %d is the pseudo-header %s, not one of a request", i, f.Name)
		}
		seen[f.Name]++
	}
	for _, p := range []string{":method", ":scheme", ":path"} {
		if seen[p] != 1 {
			return fmt.Sprintf("it has %d %s fields, not one: not a request", seen[p], p)
		}
	}
	return ""
}

// longestString returns the length of a block's longest string literal,
// decoded, 0 for a block without one or that does not split.
func longestString(block []byte) int {
	reps, _ := wire.Walk(block)
	n := 0
	for _, r := range reps {
		for _, s := range []*wire.String{r.Name, r.Value} {
			if s != nil && len(s.Text) > n {
				n = len(s.Text)
			}
		}
	}
	return n
}
