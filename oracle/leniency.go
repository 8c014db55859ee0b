package oracle

// LeniencyKind says which way an oracle departs from the strict oracle.
type LeniencyKind int

const (
	// AcceptsForbidden: the oracle decodes a block RFC 7541 forbids; the
	// strict oracle rejects it.
	AcceptsForbidden LeniencyKind = iota
	// AcceptsOverLimit: the oracle decodes a block beyond a limit the
	// strict oracle sets by choice, where RFC 7541 lets each decoder choose
	// (§5.1 integer octet length, §7.3 header-list size); the strict oracle
	// rejects it.
	AcceptsOverLimit
	// RejectsAllowed: the oracle rejects a block RFC 7541 allows; the
	// strict oracle decodes it.
	RejectsAllowed
)

func (k LeniencyKind) String() string {
	switch k {
	case AcceptsForbidden:
		return "accepts forbidden"
	case AcceptsOverLimit:
		return "accepts over strict's limit"
	case RejectsAllowed:
		return "rejects allowed"
	}
	return "unknown leniency kind"
}

// Leniency is a known difference between a third-party oracle and the
// strict oracle (oracle/strict), which follows RFC 7541 to the letter.
// The agreement tests (agreement_test.go) hold a case named Case for every
// entry and fail both when an oracle departs from strict without an entry
// here and when an entry no longer matches what the oracle does.
type Leniency struct {
	// Oracle is the registered name of the oracle, such as "x/net".
	Oracle string
	// Case names the agreement test case that shows the difference.
	Case string
	// Section is the RFC 7541 section at stake, in the form of
	// strict.Error.Section ("4.2"); for AcceptsForbidden and
	// AcceptsOverLimit it is the section of the strict oracle's error.
	Section string
	Kind    LeniencyKind
	// Reason says what the oracle does and why.
	Reason string
	// MinUpdates and StringOver say, for a RejectsAllowed entry, which
	// blocks the oracle rejects (see MatchLeniency): those starting with
	// at least MinUpdates dynamic table size updates, and those holding a
	// name or value longer than StringOver octets. Zero sets no condition;
	// every RejectsAllowed entry sets at least one, so that an entry never
	// explains every rejection by its oracle.
	MinUpdates int
	StringOver int
}

// KnownLeniencies lists every known difference between an oracle and the
// strict oracle. Differential fuzzing and the certifier use it, through
// MatchLeniency, to tell a known difference from a new one.
var KnownLeniencies = []Leniency{
	{
		Oracle: "x/net", Case: "size-update-after-field-empty-table", Section: "4.2", Kind: AcceptsForbidden,
		Reason: "x/net accepts a dynamic table size update after a header field representation when its dynamic table is empty at that point; §4.2 requires updates at the beginning of the block",
	},
	{
		Oracle: "x/net", Case: "setting-down-no-update", Section: "4.2", Kind: AcceptsForbidden,
		Reason: "x/net is told only the bound for updates (SetAllowedMaxDynamicTableSize), not the history of settings, so it accepts a block without the size update §4.2 requires after the acknowledged setting fell below the table's maximum size",
	},
	{
		Oracle: "x/net", Case: "setting-down-up-no-update", Section: "4.2", Kind: AcceptsForbidden,
		Reason: "after the setting went down and back up between two blocks, x/net sees only the final bound and accepts a block without the update to the smallest size §4.2 requires",
	},
	{
		Oracle: "x/net", Case: "setting-down-up-update-too-big", Section: "4.2", Kind: AcceptsForbidden,
		Reason: "after the setting went down and back up, x/net checks updates against the final bound only and accepts an update above the smallest acknowledged size, which §4.2 requires to be signaled",
	},
	{
		Oracle: "x/net", Case: "min-then-final-entries-survive", Section: "4.2", Kind: RejectsAllowed,
		Reason:     "x/net rejects a second dynamic table size update at the start of a block when the first left entries in the table, so it rejects the smallest-then-final pair §4.2 asks for after a setting went down to a non-zero size and back up",
		MinUpdates: 2,
	},
	{
		Oracle: "x/net", Case: "integer-overlong", Section: "5.1", Kind: AcceptsOverLimit,
		Reason: "x/net reads integers with up to nine continuation octets; strict stops at five, enough for any value below 2^32 (§5.1 lets a decoder limit integers in octet length)",
	},
	{
		Oracle: "nghttp2", Case: "giant-value", Section: "5.2", Kind: RejectsAllowed,
		Reason:     "libnghttp2's inflater rejects any name or value longer than 65,536 octets (NGHTTP2_HD_MAX_NV), whatever header-list limit is set; RFC 7541 sets no such limit, so giant-field cases can only be checked with strict and x/net",
		StringOver: 65536,
	},
}

// LookupLeniency returns the entry of KnownLeniencies for the oracle and
// case, if there is one.
func LookupLeniency(oracleName, caseName string) (Leniency, bool) {
	for _, l := range KnownLeniencies {
		if l.Oracle == oracleName && l.Case == caseName {
			return l, true
		}
	}
	return Leniency{}, false
}

// A Disagreement is how a third-party oracle's verdict on one header block
// differs from the strict oracle's, in the terms MatchLeniency needs.
type Disagreement struct {
	// Oracle is the registered name of the oracle, such as "x/net".
	Oracle string
	// Accepted is true when the oracle decoded a block that the strict
	// oracle rejected, false when it rejected a block strict decoded.
	Accepted bool
	// Section is, when Accepted, the RFC 7541 section of strict's error
	// (strict.Error.Section, "4.2"); "" when the error is not a
	// *strict.Error.
	Section string
	// Updates is, when not Accepted, the number of dynamic table size
	// updates at the start of the block (strict.Decoder.Updates).
	Updates int
	// LongestString is, when not Accepted, the length in octets of the
	// longest name or value strict decoded from the block.
	LongestString int
}

// MatchLeniency returns the entry of KnownLeniencies that explains d, if
// there is one, and reports whether there is:
//
//   - an acceptance (d.Accepted) is explained by an AcceptsForbidden or
//     AcceptsOverLimit entry for d.Oracle whose Section is d.Section;
//   - a rejection is explained by a RejectsAllowed entry for d.Oracle whose
//     conditions the block meets: d.Updates >= MinUpdates and
//     d.LongestString > StringOver, for those set (an entry without
//     conditions explains nothing).
//
// Differences in the fields or the table of a block both oracles decode
// are never known leniencies. A Huffman-coded string is judged by its
// decoded length: a decoder that limits the coded length (nghttp2 does)
// rejects some shorter decoded strings too, which MatchLeniency then does
// not explain, reporting rather than hiding them.
func MatchLeniency(d Disagreement) (Leniency, bool) {
	for _, l := range KnownLeniencies {
		if l.Oracle != d.Oracle {
			continue
		}
		switch l.Kind {
		case AcceptsForbidden, AcceptsOverLimit:
			if d.Accepted && d.Section != "" && d.Section == l.Section {
				return l, true
			}
		case RejectsAllowed:
			if d.Accepted || (l.MinUpdates == 0 && l.StringOver == 0) {
				continue
			}
			if d.Updates >= l.MinUpdates && (l.StringOver == 0 || d.LongestString > l.StringOver) {
				return l, true
			}
		}
	}
	return Leniency{}, false
}
