package qencoders

import (
	"slices"
	"strings"
)

// qcase is one qenc/ case: the Case the reports show, and what judging
// it needs.
type qcase struct {
	Case
	// of names the case's instances, for Evidence.Of.
	of string
	// driven is set for a case only a played encoder can show: the
	// certifier must send it decoder-stream octets (a recording or a
	// capture was told nothing: n/a).
	driven bool
	// needsLists is set for a case that compares what was decoded with
	// the header lists sent, unknown for some captures (n/a there).
	needsLists bool
}

// The case ids, as the judge files its findings.
const (
	cOrder        = "qenc/2.1/1"
	cEvict        = "qenc/2.1.1/1"
	cBlocked      = "qenc/2.1.2/1"
	cReference    = "qenc/2.2.3/1"
	cStatic       = "qenc/3.1/1"
	cStaticUse    = "qenc/3.1/2"
	cDynamicUse   = "qenc/3.2/1"
	cInsertSize   = "qenc/3.2.2/1"
	cCapacity     = "qenc/3.2.3/1"
	cZeroCapacity = "qenc/3.2.3/2"
	cInteger      = "qenc/4.1.1/1"
	cHuffman      = "qenc/4.1.2/1"
	cHuffmanUse   = "qenc/4.1.2/2"
	cInstruction  = "qenc/4.3/1"
	cBadAck       = "qenc/4.4.1/1"
	cBadIncrement = "qenc/4.4.3/1"
	cRIC          = "qenc/4.5.1.1/1"
	cBase         = "qenc/4.5.1.2/1"
	cNever        = "qenc/7.1.3/1"
)

// qcases is the qenc/ catalogue, sorted by id.
var qcases = []qcase{
	{Case: Case{ID: cOrder, Section: "2.1", Title: "every field section decodes to the header list sent, in order",
		RFC:       "QPACK preserves the ordering of field lines within each field section. An encoder MUST emit field representations in the order they appear in the input field section.",
		Violation: Fail}, of: "field sections compared", needsLists: true},
	{Case: Case{ID: cEvict, Section: "2.1.1", Title: "no entry is evicted unless it is evictable",
		RFC:       "If the dynamic table does not contain enough room for a new entry without evicting other entries, and the entries that would be evicted are not evictable, the encoder MUST NOT insert that entry into the dynamic table (including duplicates of existing entries). ... The encoder MUST NOT cause a dynamic table entry to be evicted unless that entry is evictable (§3.2.2).",
		Violation: Fail}, of: "connections whose evictions were checked"},
	{Case: Case{ID: cBlocked, Section: "2.1.2", Title: "the streams that could become blocked stay within SETTINGS_QPACK_BLOCKED_STREAMS",
		RFC:       "An encoder MUST limit the number of streams that could become blocked to the value of SETTINGS_QPACK_BLOCKED_STREAMS at all times.",
		Violation: Fail}, of: "field sections"},
	{Case: Case{ID: cReference, Section: "2.2.3", Title: "every dynamic reference resolves below the Required Insert Count, to an entry not evicted",
		RFC:       "If the decoder encounters a reference in a field line representation to a dynamic table entry that has already been evicted or that has an absolute index greater than or equal to the declared Required Insert Count (Section 4.5.1), it MUST treat this as a connection error of type QPACK_DECOMPRESSION_FAILED.",
		Violation: Fail}, of: "field sections"},
	{Case: Case{ID: cStatic, Section: "3.1", Title: "every static index exists",
		RFC:       "When the decoder encounters an invalid static table index in a field line representation, it MUST treat this as a connection error of type QPACK_DECOMPRESSION_FAILED. If this index is received on the encoder stream, this MUST be treated as a connection error of type QPACK_ENCODER_STREAM_ERROR.",
		Violation: Fail}, of: "static references"},
	{Case: Case{ID: cStaticUse, Section: "3.1", Title: "a field equal to a static entry is sent as an index of it",
		RFC:       "The static table consists of a predefined list of field lines, each of which has a fixed index over time. (Efficiency: a field line equal to a static entry costs one or two octets as an Indexed Field Line, Section 4.5.2.)",
		Violation: NonStrict}, of: "fields equal to a static entry", needsLists: true},
	{Case: Case{ID: cDynamicUse, Section: "3.2", Title: "with a dynamic table allowed, repeated fields are sent by reference",
		RFC:       "The dynamic table (Section 3.2) is built up over the course of the connection and can be used by the encoder to index both header and trailer field lines in the encoded field sections. (Efficiency: an encoder that never uses a table the decoder offers sends every repeated field in full.)",
		Violation: NonStrict}, of: "connections with a dynamic table allowed and repeated fields", needsLists: true},
	{Case: Case{ID: cInsertSize, Section: "3.2.2", Title: "no entry larger than the capacity is inserted (nor any before a capacity is set)",
		RFC:       "The initial capacity of the dynamic table is zero. The encoder sends a Set Dynamic Table Capacity instruction (Section 4.3.1) with a non-zero capacity to begin using the dynamic table. ... It is an error if the encoder attempts to add an entry that is larger than the dynamic table capacity; the decoder MUST treat this as a connection error of type QPACK_ENCODER_STREAM_ERROR.",
		Violation: Fail}, of: "connections whose insertions were checked"},
	{Case: Case{ID: cCapacity, Section: "3.2.3", Title: "the capacity is never set above SETTINGS_QPACK_MAX_TABLE_CAPACITY",
		RFC:       "The encoder MUST NOT set a dynamic table capacity that exceeds this maximum, but it can choose to use a lower dynamic table capacity; see Section 4.3.1.",
		Violation: Fail}, of: "connections with a dynamic table allowed"},
	{Case: Case{ID: cZeroCapacity, Section: "3.2.3", Title: "with a maximum capacity of 0, nothing on the encoder stream",
		RFC:       "When the maximum table capacity is zero, the encoder MUST NOT insert entries into the dynamic table and MUST NOT send any encoder instructions on the encoder stream.",
		Violation: Fail}, of: "connections with a maximum capacity of 0"},
	{Case: Case{ID: cInteger, Section: "4.1.1", Title: "prefixed integers are well formed and at most 62 bits",
		RFC:       "The prefixed integer from Section 5.1 of [RFC7541] is used heavily throughout this document. ... QPACK implementations MUST be able to decode integers up to and including 62 bits long.",
		Violation: Fail}, of: "connections read to their end"},
	{Case: Case{ID: cHuffman, Section: "4.1.2", Title: "Huffman-coded strings are valid (padding of at most 7 bits of the EOS prefix, no EOS)",
		RFC:       "The string literal defined by Section 5.2 of [RFC7541] is also used throughout. This string format includes optional Huffman encoding. (RFC 7541 §5.2: padding longer than 7 bits, padding not corresponding to the most significant bits of the EOS code, or an EOS symbol in the string MUST be treated as a decoding error.)",
		Violation: Fail}, of: "string literals"},
	{Case: Case{ID: cHuffmanUse, Section: "4.1.2", Title: "Huffman coding is used when it is shorter",
		RFC:       "This string format includes optional Huffman encoding. When Huffman encoding is enabled, the Huffman table from Appendix B of [RFC7541] is used without modification. (Efficiency: a string sent raw when its Huffman code is shorter, or coded when the code is longer, wastes octets.)",
		Violation: NonStrict}, of: "string literals"},
	{Case: Case{ID: cInstruction, Section: "4.3", Title: "encoder instructions are well formed and reference entries that exist",
		RFC:       "An encoder sends encoder instructions on the encoder stream to set the capacity of the dynamic table and add dynamic table entries. ... If the decoder encounters a reference in an encoder instruction to a dynamic table entry that has already been evicted, it MUST treat this as a connection error of type QPACK_ENCODER_STREAM_ERROR (Section 2.2.3).",
		Violation: Fail}, of: "connections whose encoder stream was read to its end"},
	{Case: Case{ID: cBadAck, Section: "4.4.1", Title: "a Section Acknowledgment for a stream with nothing outstanding is refused (QPACK_DECODER_STREAM_ERROR)",
		RFC:       "If an encoder receives a Section Acknowledgment instruction referring to a stream on which every encoded field section with a non-zero Required Insert Count has already been acknowledged, this MUST be treated as a connection error of type QPACK_DECODER_STREAM_ERROR.",
		Violation: Fail}, of: "decoder-stream instructions sent", driven: true},
	{Case: Case{ID: cBadIncrement, Section: "4.4.3", Title: "an Insert Count Increment of 0 or past the inserts sent is refused (QPACK_DECODER_STREAM_ERROR)",
		RFC:       "An encoder that receives an Increment field equal to zero, or one that increases the Known Received Count beyond what the encoder has sent, MUST treat this as a connection error of type QPACK_DECODER_STREAM_ERROR.",
		Violation: Fail}, of: "decoder-stream instructions sent", driven: true},
	{Case: Case{ID: cRIC, Section: "4.5.1.1", Title: "the Required Insert Count is exact and encoded modulo 2*MaxEntries",
		RFC:       "For a field section encoded using references to the dynamic table, the Required Insert Count is one larger than the largest absolute index of all referenced dynamic table entries. For a field section encoded with no references to the dynamic table, the Required Insert Count is zero (Section 2.1.2). ... if ReqInsertCount == 0: EncInsertCount = 0 else: EncInsertCount = (ReqInsertCount mod (2 * MaxEntries)) + 1.",
		Violation: Fail}, of: "field sections"},
	{Case: Case{ID: cBase, Section: "4.5.1.2", Title: "the Base is not negative",
		RFC:       "The value of Base MUST NOT be negative. Though the protocol might operate correctly with a negative Base using post-Base indexing, it is unnecessary and inefficient. An endpoint MUST treat a field block with a Sign bit of 1 as invalid if the value of Required Insert Count is less than or equal to the value of Delta Base.",
		Violation: Fail}, of: "field sections"},
	{Case: Case{ID: cNever, Section: "7.1.3", Title: "a sensitive field is sent as a literal with the N bit, and never inserted",
		RFC:       "When the 'N' bit is set, the encoded field line MUST always be encoded with a literal representation (Section 4.5.4). ... An intermediary MUST NOT re-encode a value that uses a literal representation with the 'N' bit set with another representation that would index it. If QPACK is used for re-encoding, a literal representation with the 'N' bit set MUST be used.",
		Violation: Fail}, of: "sensitive fields", needsLists: true},
}

// Cases returns the qenc/ catalogue, sorted by id.
func Cases() []Case {
	out := make([]Case, len(qcases))
	for i, c := range qcases {
		out[i] = c.Case
	}
	return out
}

// selectCases returns the cases whose id starts with one of prefixes
// (all for none), or an error naming a prefix no case has.
func selectCases(prefixes []string) ([]*qcase, error) {
	var out []*qcase
	for i := range qcases {
		c := &qcases[i]
		if len(prefixes) == 0 || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(c.ID, p) }) {
			out = append(out, c)
		}
	}
	for _, p := range prefixes {
		if !slices.ContainsFunc(qcases, func(c qcase) bool { return strings.HasPrefix(c.ID, p) }) {
			return nil, &caseError{prefix: p}
		}
	}
	return out, nil
}

type caseError struct{ prefix string }

func (e *caseError) Error() string {
	return "certify: no QPACK encoder case id starts with \"" + e.prefix + "\" (see hpackcert list --qpack)"
}

// SelectCases returns the qenc/ cases whose id starts with one of
// prefixes (all for none), sorted by id.
func SelectCases(prefixes []string) ([]Case, error) {
	cs, err := selectCases(prefixes)
	out := make([]Case, len(cs))
	for i, c := range cs {
		out[i] = c.Case
	}
	return out, err
}
