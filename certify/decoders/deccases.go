package decoders

import (
	"github.com/hpackcert/hpackcert/engine"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/internal/wire"
)

// decFeature is what a dec/ story's blocks use of RFC 7541, so that a
// divergence is filed under the first failed case whose feature the
// blocks that led to it use (the root cause), not under every case whose
// stories meet it.
type decFeature uint32

const (
	fStatic      decFeature = 1 << iota // an index or name index into the static table
	fHuffman                            // a Huffman-coded string literal
	fRaw                                // a raw string literal
	fEdgeSpace                          // a string starting or ending with SP or HTAB
	fLongInt                            // an integer of more than one octet
	fInsert                             // a literal with incremental indexing
	fDynamic                            // an index or name index into the dynamic table
	fPastIndex                          // an index past both tables
	fWithout                            // a literal without indexing
	fNever                              // a literal never indexed
	fEvictInsert                        // an insertion that evicted entries
	fOversized                          // an entry larger than the table
	fOwnName                            // an insertion named after an entry it evicts
	fResize                             // a size update that evicted entries
	fUpdate                             // a dynamic table size update
	fUpdates                            // two size updates or more at the start of a block
	fRaise                              // a size update above the table's maximum size before it
)

// decKind is how a dec/ case judges its stories.
type decKind uint8

const (
	decDecodes decKind = iota // valid blocks: the fields (and table) must be the strict decoder's
	decRejects                // the last block of each story must be refused
	decNever                  // the never-indexed flag must be kept
	decBomb                   // a header list over the limit must be refused, without building it
	decTime                   // Huffman decoding time must grow linearly
)

// decCase is one dec/ case: the Case the reports show, and how it is
// judged.
type decCase struct {
	Case
	kind decKind
	// feats is what a divergence must use to be filed under this case
	// once the case failed on its own stories.
	feats   decFeature
	stories func(in *decInputs) []decStory
	// of names the case's instances, for Evidence.Of.
	of string
	// lack is the declared decoder lack that leaves the case unsupported.
	lack string
	// liveViolation, when set, is the grade a live target gets instead of
	// Violation: HTTP/2 makes MUST what RFC 7541 leaves to the decoder.
	liveViolation Grade
}

// decInputs is what the stories are built from.
type decInputs struct {
	traffic []decStory
}

// decChain is the dec/ catalogue in the order divergences are filed: a
// divergence goes to the first failed case before it whose feature its
// story's blocks use. Every case comes after the cases whose features
// its own stories need.
var decChain = []decCase{
	{Case: Case{ID: "dec/2.3.3/1", Section: "2.3.3", Violation: Fail, Title: "static indices map to Appendix A",
		RFC: "\"Indices between 1 and the length of the static table (inclusive) refer to elements in the static table.\""},
		kind: decDecodes, feats: fStatic, stories: func(*decInputs) []decStory { return staticStories() }, of: "blocks with static indices"},
	{Case: Case{ID: "dec/6.1/1", Section: "6.1", Violation: Fail, Title: "index 0 is refused",
		RFC: "\"The index value of 0 is not used. It MUST be treated as a decoding error if found in an indexed header field representation.\""},
		kind: decRejects, stories: rejects("dec/6.1/1"), of: "blocks with index 0 refused"},
	{Case: Case{ID: "dec/5.2/2", Section: "5.2", Violation: Fail, Title: "Huffman-coded strings decode, every symbol",
		RFC: "With Appendix B: a string literal with the H bit set is the Huffman code of Appendix B of its octets; all 256 octets have a code."},
		kind: decDecodes, feats: fHuffman, stories: func(*decInputs) []decStory { return huffmanStories() }, of: "blocks with Huffman-coded strings"},
	{Case: Case{ID: "dec/5.2/1", Section: "5.2", Violation: Fail, Title: "string literals keep every octet, whitespace at the ends too",
		RFC: "a string literal is its length and its octets; nothing in HPACK removes or changes octets, so a decoder returns names and values octet for octet, leading and trailing whitespace included (a decoder that strips it opens request smuggling between hops)."},
		kind: decDecodes, feats: fRaw | fEdgeSpace, stories: func(*decInputs) []decStory { return rawStories() }, of: "blocks with raw strings or strings with whitespace at an end"},
	{Case: Case{ID: "dec/6.2.1/1", Section: "6.2.1", Violation: Fail, Title: "incremental indexing inserts; index 62 is the newest entry",
		RFC: "\"A literal header field with incremental indexing representation results in appending a header field to the decoded header list and inserting it as a new entry into the dynamic table.\" §2.3.3: indices past the static table refer to the dynamic table, newest first."},
		kind: decDecodes, feats: fInsert | fDynamic, stories: func(*decInputs) []decStory { return insertStories() }, of: "blocks with insertions or dynamic indices"},
	{Case: Case{ID: "dec/2.3.3/2", Section: "2.3.3", Violation: Fail, Title: "an index past both tables is refused",
		RFC: "\"Indices strictly greater than the sum of the lengths of both tables MUST be treated as a decoding error.\""},
		kind: decRejects, feats: fPastIndex, stories: rejectsOf(pastStories), of: "blocks with an index past the tables refused"},
	{Case: Case{ID: "dec/4.2/3", Section: "4.2", Violation: Fail, Title: "size updates down and back up at the start of a block are decoded",
		RFC: "\"If the maximum size has been changed several times, the smallest maximum table size that occurs in that interval MUST be signaled in a dynamic table size update. The final maximum size MUST also be signaled.\" A decoder must take the smallest-then-final pair, whatever the table holds, and an update back up to the setting: the bound of an update is the setting (§6.3), not the size before it."},
		kind: decDecodes, feats: fUpdates | fRaise, stories: func(*decInputs) []decStory { return twoUpdateStories() }, of: "blocks with two size updates"},
	{Case: Case{ID: "dec/5.1/1", Section: "5.1", Violation: Fail, Title: "integers decode at every prefix boundary",
		RFC: "an integer that does not fit its N-bit prefix fills the prefix with ones and continues in octets of 7 bits, least significant first."},
		kind: decDecodes, feats: fLongInt, stories: func(*decInputs) []decStory { return integerStories() }, of: "blocks with integers of several octets"},
	{Case: Case{ID: "dec/6.2.2/1", Section: "6.2.2", Violation: Fail, Title: "a literal without indexing leaves the table as it was",
		RFC: "\"A literal header field without indexing representation results in appending a header field to the decoded header list without altering the dynamic table.\""},
		kind: decDecodes, feats: fWithout, stories: func(*decInputs) []decStory { return notInsertedStories(wire.WithoutIndexing, "without-indexing") }, of: "blocks with literals without indexing"},
	{Case: Case{ID: "dec/6.2.3/1", Section: "6.2.3", Violation: Fail, Title: "a never-indexed literal leaves the table as it was",
		RFC: "\"A literal header field never-indexed representation results in appending a header field to the decoded header list without altering the dynamic table.\""},
		kind: decDecodes, feats: fNever, stories: func(*decInputs) []decStory { return notInsertedStories(wire.NeverIndexed, "never-indexed-table") }, of: "blocks with never-indexed literals"},
	{Case: Case{ID: "dec/4.4/1", Section: "4.4", Violation: Fail, Title: "an insertion evicts the oldest entries, just enough",
		RFC: "\"Before a new entry is added to the dynamic table, entries are evicted from the end of the dynamic table until the size of the dynamic table is less than or equal to (maximum size - new entry size) or until the table is empty.\""},
		kind: decDecodes, feats: fEvictInsert, stories: func(*decInputs) []decStory { return evictStories() }, of: "blocks with evictions by insertion"},
	{Case: Case{ID: "dec/4.1/1", Section: "4.1", Violation: Fail, Title: "an entry's size is its name, its value and 32",
		RFC: "\"The size of an entry is the sum of its name's length in octets (as defined in Section 5.2), its value's length in octets, and 32.\""},
		kind: decDecodes, feats: fEvictInsert | fOversized | fResize, stories: func(*decInputs) []decStory { return entrySizeStories() }, of: "blocks filling the table to the octet"},
	{Case: Case{ID: "dec/4.4/2", Section: "4.4", Violation: Fail, Title: "an entry larger than the table empties it, without error",
		RFC: "\"It is not an error to attempt to add an entry that is larger than the maximum size; an attempt to add an entry larger than the maximum size causes the table to be emptied of all existing entries and results in an empty table.\""},
		kind: decDecodes, feats: fOversized, stories: func(*decInputs) []decStory { return oversizedStories() }, of: "blocks with entries larger than the table"},
	{Case: Case{ID: "dec/4.4/3", Section: "4.4", Violation: Fail, Title: "a new entry keeps the name of the entry its insertion evicts",
		RFC: "\"A new entry can reference the name of an entry in the dynamic table that will be evicted when adding this new entry into the dynamic table. Implementations are cautioned to avoid deleting the referenced name if the referenced entry is evicted from the dynamic table prior to inserting the new entry.\""},
		kind: decDecodes, feats: fOwnName, stories: func(*decInputs) []decStory { return ownNameStories() }, of: "blocks with entries named after an entry they evict"},
	{Case: Case{ID: "dec/4.3/1", Section: "4.3", Violation: Fail, Title: "a size update evicts down to the new size",
		RFC: "\"Whenever the maximum size for the dynamic table is reduced, entries are evicted from the end of the dynamic table until the size of the dynamic table is less than or equal to the maximum size.\""},
		kind: decDecodes, feats: fResize, stories: func(*decInputs) []decStory { return resizeStories() }, of: "blocks with evictions by size update"},
	{Case: Case{ID: "dec/7.1.3/1", Section: "7.1.3", Violation: Fail, Title: "never-indexed fields stay marked as such",
		RFC: "§6.2.3 says: \"Intermediaries MUST use the same representation for encoding this header field.\" A decoder must tell which fields came never-indexed, or the hop after it cannot (§7.1.3)."},
		kind: decNever, stories: func(*decInputs) []decStory { return neverIndexedStories() }, of: "never-indexed fields", lack: "never-indexed"},
	{Case: Case{ID: "dec/3.2/1", Section: "3.2", Violation: Fail, Title: "App. C, real traffic and generated stories decode to the header lists sent",
		RFC: "\"To ensure that the decoding will successfully produce a header list, a decoder MUST obey the following rules.\" The header field representations are processed in order; the decoded list is the one the encoder was given."},
		kind: decDecodes, stories: func(in *decInputs) []decStory { return in.traffic }, of: "blocks"},
	{Case: Case{ID: "dec/6.3/1", Section: "6.3", Violation: Fail, Title: "a size update above the setting is refused",
		RFC: "\"The new maximum size MUST be lower than or equal to the limit determined by the protocol using HPACK. A value that exceeds this limit MUST be treated as a decoding error.\""},
		kind: decRejects, stories: rejects("dec/6.3/1"), of: "size updates above the setting refused"},
	{Case: Case{ID: "dec/4.2/1", Section: "4.2", Violation: Fail, Title: "a size update after a field is refused",
		RFC: "\"This dynamic table size update MUST occur at the beginning of the first header block following the change to the dynamic table size.\" A size update after a header field representation is a decoding error (RFC 9113 §4.3.1)."},
		kind: decRejects, stories: rejects("dec/4.2/1"), of: "late size updates refused"},
	{Case: Case{ID: "dec/4.2/2", Section: "4.2", Violation: NonStrict, Title: "a block without the size update a lowered setting needs is refused",
		RFC: "And RFC 9113 §4.3.1: \"An endpoint MUST treat a field block that follows an acknowledgment of the reduction to the maximum dynamic table size as a connection error of type COMPRESSION_ERROR if it does not start with a conformant Dynamic Table Size Update instruction.\" RFC 7541 §4.2 puts the duty on the encoder: a library decoder that accepts the block is non-strict, an HTTP/2 endpoint (live) fails."},
		kind: decRejects, stories: rejects("dec/4.2/2"), of: "blocks missing a size update refused", liveViolation: Fail},
	{Case: Case{ID: "dec/5.1/2", Section: "5.1", Violation: Fail, Title: "an integer above the decoder's limits is refused",
		RFC: "\"Integer encodings that exceed implementation limits -- in value or octet length -- MUST be treated as decoding errors.\" Values of 2^32 and more, and 20 redundant continuation octets, exceed any limit a decoder needs."},
		kind: decRejects, stories: rejects("dec/5.1/2"), of: "oversized integers refused"},
	{Case: Case{ID: "dec/5.1/3", Section: "5.1", Violation: Fail, Title: "a block that ends inside a representation is refused",
		RFC: "With §3.2: a header block is a sequence of complete representations; one cut by the end of the block cannot be decoded, a decoding error."},
		kind: decRejects, stories: rejects("dec/5.1/3"), of: "cut blocks refused"},
	{Case: Case{ID: "dec/5.2/3", Section: "5.2", Violation: Fail, Title: "Huffman padding longer than 7 bits is refused",
		RFC: "\"A padding strictly longer than 7 bits MUST be treated as a decoding error.\""},
		kind: decRejects, stories: rejects("dec/5.2/3"), of: "strings with long padding refused"},
	{Case: Case{ID: "dec/5.2/4", Section: "5.2", Violation: Fail, Title: "Huffman padding other than the start of EOS is refused",
		RFC: "\"A padding not corresponding to the most significant bits of the code for the EOS symbol MUST be treated as a decoding error.\""},
		kind: decRejects, stories: rejects("dec/5.2/4"), of: "strings with wrong padding refused"},
	{Case: Case{ID: "dec/5.2/5", Section: "5.2", Violation: Fail, Title: "EOS inside a Huffman string is refused",
		RFC: "\"A Huffman-encoded string literal containing the EOS symbol MUST be treated as a decoding error.\""},
		kind: decRejects, stories: rejects("dec/5.2/5"), of: "strings with EOS refused"},
	{Case: Case{ID: "dec/5.2/6", Section: "5.2", Violation: Fail, Title: "a string longer than the rest of the block is refused",
		RFC: "a string literal is its length followed by that many octets; a length past the end of the block cannot be decoded, a decoding error."},
		kind: decRejects, stories: rejects("dec/5.2/6"), of: "strings past the block refused"},
	{Case: Case{ID: "dec/7.3/1", Section: "7.3", Violation: Fail, Title: "a header list over SETTINGS_MAX_HEADER_LIST_SIZE is refused without being built",
		RFC: "HPACK limits the memory a decoder commits; the temporary memory of decoding is limited by processing fields one by one. RFC 9113 §10.5.1: SETTINGS_MAX_HEADER_LIST_SIZE bounds the field section a peer may send. A 100,000-octet block of references to a 4 KB entry decodes to 400 MB: a decoder told a 65536-octet limit refuses it and does not build it."},
		kind: decBomb, stories: func(*decInputs) []decStory { return bombStories() }, of: "header-list bombs refused", lack: "max-header-list"},
	{Case: Case{ID: "dec/7.3/2", Section: "7.3", Violation: NonStrict, Title: "Huffman decoding time grows linearly",
		RFC: "With §7.4: a decoder bounds the work a peer can make it do; decoding a Huffman string takes time in proportion to its length (CVE-2022-41723 was a quadratic decoder). Graded from the time of a 2500-, a 10000- and a 40000-octet string (57 KB of code), each decoded 9 times in fresh contexts, in three rounds, sizes in turn, the fastest of each size taken: the CPU time of the decoding thread for a Go decoder in process, of the decoder program for a stdio one (Linux), wall time otherwise (live targets). The 40000-octet string taking 16 times longer than the 2500-octet one is linear, 256 times quadratic: at most 64 times passes; non-strict only in CPU time with every round over 100 times and each size over 6 times the one before; anything else is inconclusive, graded info with the figures, never non-strict, since wall time grows on a busy machine and rounds that disagree show the machine, not the decoder."},
		kind: decTime, of: "timings"},
}

// rejects returns the stories of a refusal case.
func rejects(id string) func(*decInputs) []decStory {
	return func(*decInputs) []decStory { return rejectStories()[id] }
}

func rejectsOf(f func() []decStory) func(*decInputs) []decStory {
	return func(*decInputs) []decStory { return f() }
}

// DecoderCases returns the dec/ cases, sorted by id.
func DecoderCases() []Case {
	out := make([]Case, len(decChain))
	for i, c := range decChain {
		out[i] = c.Case
	}
	slices.SortFunc(out, func(a, b Case) int { return engine.CompareIDs(a.ID, b.ID) })
	return out
}

// selectDecoderCases returns the chain's cases whose id starts with one
// of prefixes (all for none), in chain order, or an error naming a prefix
// no dec/ case has.
func selectDecoderCases(prefixes []string) ([]*decCase, error) {
	var out []*decCase
	for i := range decChain {
		c := &decChain[i]
		if len(prefixes) == 0 || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(c.ID, p) }) {
			out = append(out, c)
		}
	}
	for _, p := range prefixes {
		if !slices.ContainsFunc(decChain, func(c decCase) bool { return strings.HasPrefix(c.ID, p) }) {
			return nil, &caseError{prefix: p}
		}
	}
	return out, nil
}

type caseError struct{ prefix string }

func (e *caseError) Error() string {
	return "certify: no decoder case id starts with \"" + e.prefix + "\" (see hpackcert list --decoders)"
}

// SelectDecoderCases returns the dec/ cases whose id starts with one of
// prefixes (all for none), sorted by id, or an error naming a prefix no
// dec/ case has.
func SelectDecoderCases(prefixes []string) ([]Case, error) {
	sel, err := selectDecoderCases(prefixes)
	if err != nil {
		return nil, err
	}
	out := make([]Case, len(sel))
	for i, c := range sel {
		out[i] = c.Case
	}
	slices.SortFunc(out, func(a, b Case) int { return engine.CompareIDs(a.ID, b.ID) })
	return out, nil
}
