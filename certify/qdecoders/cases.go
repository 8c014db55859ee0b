package qdecoders

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/hpackcert/hpackcert/engine"
)

// kind is how a qdec/ case judges its stories.
type kind uint8

const (
	kDecodes    kind = iota // valid steps: sections, blocking and unblocking as the strict decoder's
	kNever                  // the N bit must be reported
	kRejects                // the last step must be refused with the strict decoder's code (none fails)
	kBomb                   // the last step must be refused (any code), without building the list
	kAcks                   // Section Acknowledgments as the strict decoder's, step by step
	kCancels                // Stream Cancellations as the strict decoder's, step by step
	kIncrements             // the Known Received Count reaches the inserts by the story's end
	kIncValid               // no Insert Count Increment of 0, nor past the inserts received
)

// qCase is one qdec/ case: the Case the reports show, and how it is
// judged.
type qCase struct {
	Case
	kind kind
	// feats is what a divergence must use to be filed under this case
	// once the case failed on its own stories.
	feats   feature
	stories func(in *inputs) []story
	// of names the case's instances, for Evidence.Of.
	of string
	// lack is the declared lack that leaves the case unsupported.
	lack string
}

// basics is what the valid traffic and post-base stories use: a decoder
// that fails on them fails qdec/2.2/1, and every later divergence with
// one of them is filed there.
const basics = fStatic | fLiteral | fHuffman | fInsert | fDynName | fDynamic | fPostBase | fCapacity | fCut

// chain is the qdec/ catalogue in the order divergences are filed: a
// divergence goes to the first failed case before it whose feature its
// story's steps use. Every case comes after the cases whose features its
// own stories need.
var chain = []qCase{
	{Case: Case{ID: "qdec/2.2/1", Section: "2.2", Violation: Fail, Title: "valid sections decode to the header list, in order",
		RFC: "\"The decoder MUST emit field lines in the order their representations appear in the encoded field section.\" Judged on the reference encoder's sections of QIF traffic (static table only, a 4 KiB table, its encoder stream cut in pieces) and on post-base references (§3.2.6)."},
		kind: kDecodes, feats: basics, stories: func(in *inputs) []story {
			return slices.Concat(in.static, in.dynamic, in.cut, postBaseStories())
		}, of: "sections"},
	{Case: Case{ID: "qdec/3.2/1", Section: "3.2", Violation: Fail, Title: "duplicate entries are not an error",
		RFC: "\"The dynamic table can contain duplicate entries (i.e., entries with the same name and same value). Therefore, duplicate entries MUST NOT be treated as an error by the decoder.\""},
		kind: kDecodes, feats: fDuplicate, stories: func(*inputs) []story { return duplicateStories() }, of: "sections referencing duplicate entries"},
	{Case: Case{ID: "qdec/2.2.1/1", Section: "2.2.1", Violation: Fail, Title: "a blocked section is decoded once its inserts arrive, not before",
		RFC: "\"When the Required Insert Count is less than or equal to the decoder's Insert Count, the field section can be processed immediately. Otherwise, the stream on which the field section was received becomes blocked.\" \"A stream becomes unblocked when the Insert Count becomes greater than or equal to the Required Insert Count for all encoded field sections the decoder has started reading from the stream.\""},
		kind: kDecodes, feats: fBlocked, stories: func(*inputs) []story { return blockedStories() }, of: "blocked sections"},
	{Case: Case{ID: "qdec/4.5.1.1/2", Section: "4.5.1.1", Violation: Fail, Title: "a wrapped Required Insert Count is decoded",
		RFC: "\"EncInsertCount = (ReqInsertCount mod (2 * MaxEntries)) + 1\" \"The decoder can reconstruct the Required Insert Count using an algorithm such as the following.\" Judged on 20 inserts into a table of MaxEntries 3."},
		kind: kDecodes, feats: fWrap, stories: func(*inputs) []story { return wrapStories() }, of: "sections with a wrapped count"},
	{Case: Case{ID: "qdec/4.5.1.2/2", Section: "4.5.1.2", Violation: Fail, Title: "a section with no dynamic reference decodes whatever its Base",
		RFC: "\"A field section that was encoded without references to the dynamic table can use any value for the Base; setting Delta Base to zero is one of the most efficient encodings.\" Judged with Delta Base 1, 1000 and 2^62-1, \"QPACK implementations MUST be able to decode integers up to and including 62 bits long\" (§4.1.1)."},
		kind: kDecodes, feats: fAnyBase, stories: func(*inputs) []story { return anyBaseStories() }, of: "sections with a Base not 0"},
	{Case: Case{ID: "qdec/4.5.4/1", Section: "4.5.4", Violation: Fail, Title: "the N bit of a literal is reported",
		RFC: "\"When the 'N' bit is set, the encoded field line MUST always be encoded with a literal representation. In particular, when a peer sends a field line that it received represented as a literal field line with the 'N' bit set, it MUST use a literal representation to forward this field line.\" A decoder must tell which fields came with the N bit, or the hop after it cannot (§7.1.3). Unsupported for a decoder that declares it cannot show it."},
		kind: kNever, stories: func(*inputs) []story { return sensitiveStories() }, of: "fields with the N bit", lack: lackNeverIndexed},
	{Case: Case{ID: "qdec/2.2.2.1/1", Section: "2.2.2.1", Violation: Fail, Title: "a Section Acknowledgment for each section with dynamic references, none for the others",
		RFC: "\"After the decoder finishes decoding a field section encoded using representations containing dynamic table references, it MUST emit a Section Acknowledgment instruction.\" §4.4.1: \"After processing an encoded field section whose declared Required Insert Count is not zero, the decoder emits a Section Acknowledgment instruction.\""},
		kind: kAcks, stories: func(in *inputs) []story { return slices.Concat(in.dynamic, blockedStories(), unreferencedStories()) }, of: "sections acknowledged or not as owed"},
	{Case: Case{ID: "qdec/2.2.2.2/1", Section: "2.2.2.2", Violation: Fail, Title: "a Stream Cancellation when a stream with dynamic references is reset",
		RFC: "\"When an endpoint receives a stream reset before the end of a stream or before all encoded field sections are processed on that stream, or when it abandons reading of a stream, it generates a Stream Cancellation instruction.\" Judged on resets of streams whose section is blocked or referenced the dynamic table."},
		kind: kCancels, stories: func(*inputs) []story { return cancelStories() }, of: "stream cancellations"},
	{Case: Case{ID: "qdec/2.2.2.3/1", Section: "2.2.2.3", Violation: NonStrict, Title: "inserts no section references are acknowledged by an Insert Count Increment",
		RFC: "\"After receiving new table entries on the encoder stream, the decoder chooses when to emit Insert Count Increment instructions\" \"However, delaying too long may lead to compression inefficiencies if the encoder waits for an entry to be acknowledged before using it.\" Judged at the end of each story: the Known Received Count must reach the inserts received."},
		kind: kIncrements, stories: func(in *inputs) []story { return slices.Concat(unreferencedStories(), in.dynamic) }, of: "stories whose inserts were all acknowledged"},
	{Case: Case{ID: "qdec/4.4.3/1", Section: "4.4.3", Violation: Fail, Title: "never an Insert Count Increment of 0, nor one past the inserts received",
		RFC: "\"An encoder that receives an Increment field equal to zero, or one that increases the Known Received Count beyond what the encoder has sent, MUST treat this as a connection error of type QPACK_DECODER_STREAM_ERROR.\" A decoder that writes one closes its own connection."},
		kind: kIncValid, stories: func(in *inputs) []story { return slices.Concat(in.dynamic, unreferencedStories(), blockedStories()) }, of: "encoder-stream steps followed"},
	{Case: Case{ID: "qdec/2.1.2/1", Section: "2.1.2", Violation: Fail, Title: "more blocked streams than SETTINGS_QPACK_BLOCKED_STREAMS: QPACK_DECOMPRESSION_FAILED",
		RFC: "\"If a decoder encounters more blocked streams than it promised to support, it MUST treat this as a connection error of type QPACK_DECOMPRESSION_FAILED.\""},
		kind: kRejects, stories: rejects("qdec/2.1.2/1"), of: "streams blocked over the limit refused"},
	{Case: Case{ID: "qdec/2.2.3/1", Section: "2.2.3", Violation: Fail, Title: "a field line referencing an evicted entry or one at the Required Insert Count: QPACK_DECOMPRESSION_FAILED",
		RFC: "\"If the decoder encounters a reference in a field line representation to a dynamic table entry that has already been evicted or that has an absolute index greater than or equal to the declared Required Insert Count (Section 4.5.1), it MUST treat this as a connection error of type QPACK_DECOMPRESSION_FAILED.\""},
		kind: kRejects, stories: rejects("qdec/2.2.3/1"), of: "invalid references refused"},
	{Case: Case{ID: "qdec/2.2.3/2", Section: "2.2.3", Violation: Fail, Title: "an encoder instruction referencing an evicted or absent entry: QPACK_ENCODER_STREAM_ERROR",
		RFC: "\"If the decoder encounters a reference in an encoder instruction to a dynamic table entry that has already been evicted, it MUST treat this as a connection error of type QPACK_ENCODER_STREAM_ERROR.\""},
		kind: kRejects, stories: rejects("qdec/2.2.3/2"), of: "invalid encoder-stream references refused"},
	{Case: Case{ID: "qdec/3.1/1", Section: "3.1", Violation: Fail, Title: "an invalid static index in a field line: QPACK_DECOMPRESSION_FAILED",
		RFC: "\"When the decoder encounters an invalid static table index in a field line representation, it MUST treat this as a connection error of type QPACK_DECOMPRESSION_FAILED.\""},
		kind: kRejects, stories: rejects("qdec/3.1/1"), of: "invalid static indices refused"},
	{Case: Case{ID: "qdec/3.1/2", Section: "3.1", Violation: Fail, Title: "an invalid static index on the encoder stream: QPACK_ENCODER_STREAM_ERROR",
		RFC: "\"If this index is received on the encoder stream, this MUST be treated as a connection error of type QPACK_ENCODER_STREAM_ERROR.\""},
		kind: kRejects, stories: rejects("qdec/3.1/2"), of: "invalid static indices refused"},
	{Case: Case{ID: "qdec/3.2.2/1", Section: "3.2.2", Violation: Fail, Title: "an entry larger than the capacity: QPACK_ENCODER_STREAM_ERROR",
		RFC: "\"The initial capacity of the dynamic table is zero.\" \"It is an error if the encoder attempts to add an entry that is larger than the dynamic table capacity; the decoder MUST treat this as a connection error of type QPACK_ENCODER_STREAM_ERROR.\""},
		kind: kRejects, stories: rejects("qdec/3.2.2/1"), of: "oversized insertions refused"},
	{Case: Case{ID: "qdec/4.1.1/1", Section: "4.1.1", Violation: Fail, Title: "an integer past 62 bits is refused with the stream's code",
		RFC: "\"QPACK implementations MUST be able to decode integers up to and including 62 bits long.\" No value of QPACK is larger: an integer past 62 bits is invalid input, QPACK_DECOMPRESSION_FAILED in a field section (§6: \"failed to interpret an encoded field section\"), QPACK_ENCODER_STREAM_ERROR on the encoder stream (\"failed to interpret an encoder instruction\")."},
		kind: kRejects, stories: rejects("qdec/4.1.1/1"), of: "oversized integers refused"},
	{Case: Case{ID: "qdec/4.1.2/1", Section: "4.1.2", Violation: Fail, Title: "invalid Huffman code: QPACK_DECOMPRESSION_FAILED",
		RFC: "\"When Huffman encoding is enabled, the Huffman table from Appendix B of [RFC7541] is used without modification\"; RFC 7541 §5.2: \"A padding strictly longer than 7 bits MUST be treated as a decoding error. A padding not corresponding to the most significant bits of the code for the EOS symbol MUST be treated as a decoding error. A Huffman-encoded string literal containing the EOS symbol MUST be treated as a decoding error.\""},
		kind: kRejects, stories: rejects("qdec/4.1.2/1"), of: "invalid Huffman strings refused"},
	{Case: Case{ID: "qdec/4.3.1/1", Section: "4.3.1", Violation: Fail, Title: "a capacity above SETTINGS_QPACK_MAX_TABLE_CAPACITY: QPACK_ENCODER_STREAM_ERROR",
		RFC: "\"The decoder MUST treat a new dynamic table capacity value that exceeds this limit as a connection error of type QPACK_ENCODER_STREAM_ERROR.\""},
		kind: kRejects, stories: rejects("qdec/4.3.1/1"), of: "capacities over the limit refused"},
	{Case: Case{ID: "qdec/4.5.1.1/1", Section: "4.5.1.1", Violation: Fail, Title: "an EncodedInsertCount no encoder could produce: QPACK_DECOMPRESSION_FAILED",
		RFC: "\"If the decoder encounters a value of EncodedInsertCount that could not have been produced by a conformant encoder, it MUST treat this as a connection error of type QPACK_DECOMPRESSION_FAILED.\""},
		kind: kRejects, stories: rejects("qdec/4.5.1.1/1"), of: "impossible counts refused"},
	{Case: Case{ID: "qdec/4.5.1.2/1", Section: "4.5.1.2", Violation: Fail, Title: "a negative Base: QPACK_DECOMPRESSION_FAILED",
		RFC: "\"The value of Base MUST NOT be negative.\" \"An endpoint MUST treat a field block with a Sign bit of 1 as invalid if the value of Required Insert Count is less than or equal to the value of Delta Base.\""},
		kind: kRejects, stories: rejects("qdec/4.5.1.2/1"), of: "negative Bases refused"},
	{Case: Case{ID: "qdec/7.3/1", Section: "7.3", Violation: Fail, Title: "a section over SETTINGS_MAX_FIELD_SECTION_SIZE is refused without being built",
		RFC: "\"The amount of temporary memory consumed by an encoder or decoder can be limited by processing field lines sequentially. A decoder implementation does not need to retain a complete list of field lines while decoding a field section.\" RFC 9114 §4.2.2 bounds the section a peer may send by SETTINGS_MAX_FIELD_SECTION_SIZE: 20,000 references, 80 MB decoded, under a limit of 4096 must be refused (any code), in process without allocating 64 MiB."},
		kind: kBomb, stories: rejects("qdec/7.3/1"), of: "section bombs refused"},
}

// rejects returns the stories of a refusal case.
func rejects(id string) func(*inputs) []story {
	return func(*inputs) []story { return refusalStories()[id] }
}

// Cases returns the qdec/ cases, sorted by id.
func Cases() []Case {
	out := make([]Case, len(chain))
	for i, c := range chain {
		out[i] = c.Case
	}
	slices.SortFunc(out, func(a, b Case) int { return engine.CompareIDs(a.ID, b.ID) })
	return out
}

// selectCases returns the chain's cases whose id starts with one of
// prefixes (all for none), in chain order, or an error naming a prefix no
// qdec/ case has.
func selectCases(prefixes []string) ([]*qCase, error) {
	var out []*qCase
	for i := range chain {
		c := &chain[i]
		if len(prefixes) == 0 || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(c.ID, p) }) {
			out = append(out, c)
		}
	}
	for _, p := range prefixes {
		if !slices.ContainsFunc(chain, func(c qCase) bool { return strings.HasPrefix(c.ID, p) }) {
			return nil, fmt.Errorf("certify: no QPACK decoder case id starts with %q", p)
		}
	}
	return out, nil
}

// SelectCases returns the qdec/ cases whose id starts with one of
// prefixes (all for none), sorted by id, or an error naming a prefix no
// qdec/ case has.
func SelectCases(prefixes []string) ([]Case, error) {
	sel, err := selectCases(prefixes)
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

var catalogue = sync.OnceValue(func() string {
	h := sha256.New()
	for _, c := range Cases() {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\n", c.ID, c.Violation, c.Title, c.RFC)
	}
	return fmt.Sprintf("%d QPACK decoder cases, %s", len(Cases()), hex.EncodeToString(h.Sum(nil))[:12])
})

// CatalogueVersion names the qdec/ catalogue as
// certify.DecoderCatalogueVersion names the dec/ one: the number of
// cases and a digest of their ids, grades, titles and texts.
func CatalogueVersion() string { return catalogue() }
