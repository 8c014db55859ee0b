package certifytest

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
)

// PlantedDecoder is one planted bug of the broken decoder
// (broken.DecoderBugs) and the dec/ cases it fails in process, with the
// grade of each: no other case may fail or be non-strict. A case left
// unsupported by the failure (its stories "caused by" it) is neither.
type PlantedDecoder struct {
	// Name is the bug's name, Bugs.String().
	Name  string
	Bugs  broken.DecoderBugs
	Fails map[string]certify.Grade
}

// PlantedDecoderBugs returns the table of every planted bug of the
// broken decoder and the cases it fails, the proof that a decoding
// defect is graded once, under the rule it breaks. Each call returns a
// new table.
func PlantedDecoderBugs() []PlantedDecoder {
	fail := func(ids ...string) map[string]certify.Grade {
		m := make(map[string]certify.Grade, len(ids))
		for _, id := range ids {
			m[id] = certify.Fail
		}
		return m
	}
	table := []struct {
		bugs  broken.DecoderBugs
		fails map[string]certify.Grade
	}{
		{broken.AcceptIndexZero, fail("dec/6.1/1")},
		// The dynamic index feature is dec/6.2.1/1's: the other cases
		// whose stories index the dynamic table are caused by it.
		{broken.DynamicIndexOffByOne, fail("dec/6.2.1/1")},
		{broken.EvictNewest, fail("dec/4.4/1")},
		{broken.NoEvictOnResize, fail("dec/4.3/1")},
		{broken.EntryOverhead31, fail("dec/4.1/1")},
		{broken.AcceptLateSizeUpdate, fail("dec/4.2/1")},
		{broken.AcceptUpdateAboveSetting, fail("dec/6.3/1")},
		// RFC 7541 leaves this check to the decoder's choice; only an
		// HTTP/2 endpoint must make it (RFC 9113 §4.3.1).
		{broken.AcceptMissingUpdate, map[string]certify.Grade{"dec/4.2/2": certify.NonStrict}},
		{broken.AcceptLongPadding, fail("dec/5.2/3")},
		{broken.AcceptZeroPadding, fail("dec/5.2/4")},
		{broken.AcceptEOS, fail("dec/5.2/5")},
		{broken.WrapIntegers, fail("dec/5.1/2")},
		{broken.IgnoreListLimit, fail("dec/7.3/1")},
		{broken.LoseNeverIndexed, fail("dec/7.1.3/1")},
		{broken.StripWhitespace, fail("dec/5.2/1")},
		{broken.NameAfterEvict, fail("dec/4.4/3")},
		{broken.AcceptTruncated, fail("dec/5.1/3")},
		{broken.OversizedEntryError, fail("dec/4.4/2")},
	}
	out := make([]PlantedDecoder, len(table))
	for i, row := range table {
		out[i] = PlantedDecoder{Name: row.bugs.String(), Bugs: row.bugs, Fails: row.fails}
	}
	return out
}
