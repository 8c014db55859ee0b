package certify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/vectors"
)

// Case is one graded check.
type Case struct {
	// ID is the case's identifier, enc/<RFC 7541 section>/<n>.
	ID string
	// Section is the RFC 7541 section the case checks, such as "4.2".
	Section string
	// Title says in a few words what the case checks.
	Title string
	// RFC is the text of the RFC the case checks (or, for info cases, what
	// it measures).
	RFC string
	// Violation is the grade an encoder gets when it breaks the rule:
	// Fail for a MUST, NonStrict for a SHOULD or an efficiency rule, Info
	// for a measurement.
	Violation Grade

	scenarios []string
	// rule, when set, judges each block; the run applies it as the block
	// is decoded and keeps what it found (playedBlock.problems).
	rule  blockRule
	check func(c *caseRun) verdict
	// needs is what check reads beyond the transcripts of its scenarios;
	// the engine provides it before the check runs (runner.provide).
	needs need
	// instance is what the case counts as one judged instance of its
	// rule: it passes only on at least one.
	instance instanceKind
}

// Rule is the RFC text the case checks as reports print it, citing RFC
// 7541 once: a text that starts with the section it quotes (not always
// the case's own) or an appendix gets "RFC 7541 " before it; one that
// starts with "And " or "With " adds a citation to the case's section
// ("RFC 7541 §4.2 and RFC 9113 §4.3.1: ..."); any other text follows
// the case's section.
func (c Case) Rule() string {
	if strings.HasPrefix(c.RFC, "§") || strings.HasPrefix(c.RFC, "Appendix ") {
		return "RFC 7541 " + c.RFC
	}
	for _, joint := range []string{"And ", "With "} {
		if rest, ok := strings.CutPrefix(c.RFC, joint); ok {
			return "RFC 7541 §" + c.Section + " " + strings.ToLower(joint) + rest
		}
	}
	return "RFC 7541 §" + c.Section + ": " + c.RFC
}

// need is something a check reads that the engine computes for it.
type need uint8

const (
	// needReference: the reference encoder's transcript of the same
	// traffic stories (caseRun.reference).
	needReference need = 1 << iota
	// needReplay: the traffic stories played again through the target in
	// fresh contexts (caseRun.replayed), for an encoder, not recordings.
	needReplay
	// needAllocRuns: the number of calls to measure allocations over
	// (caseRun.allocRuns).
	needAllocRuns
)

// verdict is a case's outcome before strictness and expected failures.
type verdict struct {
	grade  Grade
	detail string
	repro  string
	// at is the block at fault, for Result.Replay.
	at *playedBlock
	// evidence is what the case judged, when the check counted it.
	evidence *Evidence
	// causedBy lists the root causes that left the case nothing to judge.
	causedBy []string
	// notApplicable marks an unsupported verdict on a case that does not
	// apply to the kind of target (Result.NotApplicable).
	notApplicable bool
}

func pass(format string, args ...any) verdict {
	return verdict{grade: Pass, detail: fmt.Sprintf(format, args...)}
}

// Cases returns every case, sorted by id.
func Cases() []Case {
	out := slices.Clone(allCases)
	slices.SortFunc(out, func(a, b Case) int { return compareIDs(a.ID, b.ID) })
	return out
}

// compareIDs orders ids section by section, numerically where numeric.
func compareIDs(a, b string) int {
	as, bs := strings.FieldsFunc(a, splitID), strings.FieldsFunc(b, splitID)
	for i := 0; i < len(as) && i < len(bs); i++ {
		var x, y int
		_, errX := fmt.Sscanf(as[i], "%d", &x)
		_, errY := fmt.Sscanf(bs[i], "%d", &y)
		switch {
		case errX == nil && errY == nil && x != y:
			return x - y
		case (errX != nil || errY != nil) && as[i] != bs[i]:
			return strings.Compare(as[i], bs[i])
		}
	}
	return len(as) - len(bs)
}

func splitID(r rune) bool { return r == '/' || r == '.' }

// SelectCases returns the cases whose id starts with one of prefixes (all
// cases when there are none), or an error naming a prefix no case has.
func SelectCases(prefixes []string) ([]Case, error) {
	all := Cases()
	if len(prefixes) == 0 {
		return all, nil
	}
	var out []Case
	for _, p := range prefixes {
		found := false
		for _, c := range all {
			if strings.HasPrefix(c.ID, p) {
				found = true
				if !slices.ContainsFunc(out, func(o Case) bool { return o.ID == c.ID }) {
					out = append(out, c)
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no case id starts with %q (see hpackcert list)", p)
		}
	}
	slices.SortFunc(out, func(a, b Case) int { return compareIDs(a.ID, b.ID) })
	return out, nil
}

// caseRun is one case being run against one target.
type caseRun struct {
	c *Case
	// ruleIndex is the index of c.rule in the run's rules, or -1.
	ruleIndex   int
	target      Target
	recorded    bool // the target is recorded stories, not an encoder
	transcripts []*transcript

	// What the case's needs asked for, provided by the engine: the
	// reference encoder's traffic transcript; the traffic replayed through
	// the target and the error that kept it from being played; the number
	// of runs of an allocation measure.
	reference, replayed *transcript
	// notPlayed are the case's scenarios left unplayed after the
	// encoder's breakdown.
	notPlayed []*transcript
	// targetBroke is set when the encoder broke down in any scenario:
	// nothing is played through it again (no replay).
	targetBroke bool
	replayErr   error
	allocRuns   int
}

// judges reports whether the case judges the block: every block the
// encoder produced before its story diverged, and the diverging block
// itself for the case that owns the divergence (diagnose.go).
func (c *caseRun) judges(b *playedBlock) bool {
	switch {
	case b.encErr != nil:
		return false
	case b.root == nil, b.problems == nil:
		// A block kept whole (a test of a rule on hand-built blocks) is
		// judged by every case.
		return true
	}
	return b.root == b && b.owner == c.c.ID
}

// judge applies f to every block the case judges and counts what they
// held; the verdict describes the first block f finds at fault, and is
// empty when there is none.
func (c *caseRun) judge(f blockRule) (verdict, Evidence) {
	ev := Evidence{Of: instanceNames[c.c.instance].noun}
	var v verdict
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if b.encErr != nil {
				continue
			}
			if !c.judges(b) {
				ev.NotJudged++
				continue
			}
			addJudged(&ev, b, c.c.instance)
			if v.detail != "" {
				continue
			}
			if problem, bad := f(b); bad {
				v = verdict{detail: fmt.Sprintf("%s: %s", b.where(), problem), repro: b.repro(problem), at: b}
			}
		}
	}
	return v, ev
}

// notExercised is the verdict of a case that judged no instance of its
// rule.
func (c *caseRun) notExercised(ev Evidence) verdict {
	// The case is a consequence only when the blocks it could not judge
	// held instances of its rule: a case with nothing to judge in them
	// either would have judged nothing anyway.
	if note := c.causesNote(ev); note != "" && ev.Instances == 0 && c.unjudgedInstances() > 0 {
		ids, _ := c.causes()
		return verdict{grade: Unsupported, detail: fmt.Sprintf("%s (%s)", note, ev), evidence: &ev, causedBy: ids}
	}
	return verdict{grade: Unsupported, detail: fmt.Sprintf("not exercised: %s (%s)", instanceNames[c.c.instance].notExercised, ev), evidence: &ev}
}

// unjudgedInstances counts the instances of the case's rule in the blocks
// of its scenarios that it did not judge (those after a divergence).
func (c *caseRun) unjudgedInstances() int {
	n := 0
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			if b.encErr == nil && !c.judges(b) {
				n += b.ev.instances(c.c.instance, b)
			}
		}
	}
	return n
}

// leniencyNote says which oracles rejected blocks that the strict oracle
// decoded correctly, by a known leniency of theirs.
func (c *caseRun) leniencyNote() string {
	counts := map[string]int{}
	var order []string
	for _, tr := range c.transcripts {
		for _, b := range tr.blocks {
			for _, d := range b.decoded {
				if d.known != "" {
					key := fmt.Sprintf("%s (known leniency %q)", d.oracle, d.known)
					if counts[key] == 0 {
						order = append(order, key)
					}
					counts[key]++
				}
			}
		}
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%s rejected %d blocks strict decoded", k, counts[k]))
	}
	if len(parts) == 0 {
		return ""
	}
	return "; " + strings.Join(parts, ", ")
}

// problem returns what the case's rule found in the block: as the run
// recorded it, or, for a block that was kept whole (tests), by applying
// the rule now.
func (c *caseRun) problem(b *playedBlock) (string, bool) {
	if b.root == b && b.owner == c.c.ID {
		return b.rootProblem, true
	}
	if c.c.rule == nil {
		return "", false
	}
	if b.problems != nil && c.ruleIndex >= 0 {
		p := b.problems[c.ruleIndex]
		return p, p != ""
	}
	return c.c.rule(b)
}

// everyBlock builds a check that grades the first block the case's rule
// finds at fault with the case's Violation.
func everyBlock(what string) func(c *caseRun) verdict {
	return func(c *caseRun) verdict {
		v, ev := c.judge(c.problem)
		v.evidence = &ev
		switch {
		case v.detail != "":
			v.grade = c.c.Violation
			return v
		case ev.Instances == 0:
			return c.notExercised(ev)
		}
		v = pass("%s: %d %s judged in %s%s", what, ev.Instances, ev.Of, plural(ev.Blocks, "block", "blocks"), c.leniencyNote())
		v.evidence = &ev
		return v
	}
}

// blockRule is a check of one block: it returns what is wrong and true,
// or "" and false.
type blockRule func(b *playedBlock) (string, bool)

// tablesCheck grades tablesAgree's findings, and does not pass a run in
// which no block left two tables to compare: after every oracle but one
// rejected the blocks, an encoder that does not show its table has
// nothing to be compared with.
func tablesCheck(c *caseRun) verdict {
	v := everyBlock("every table equal after every block")(c)
	if v.grade != Pass {
		return v
	}
	if alone := v.evidence.Blocks - v.evidence.Instances; alone > 0 {
		v.detail += fmt.Sprintf("; %s compared nothing, with one table left after the other oracles rejected earlier blocks", plural(alone, "block", "blocks"))
	}
	return v
}

// roundTrip is the rule that every oracle decodes the fields sent.
func roundTrip(b *playedBlock) (string, bool) {
	if e := b.roundTripError(); e != "" {
		return e, true
	}
	return "", false
}

// tablesAgree is the rule that the encoder's table and the oracles'
// tables are the same after the block.
func tablesAgree(b *playedBlock) (string, bool) {
	if b.tableDiff != "" {
		return "after the block, " + b.tableDiff, true
	}
	return "", false
}

// walked gives rule the walked representations of blocks the walker could
// split; a block it could not split is judged by none of these rules.
func walked(rule blockRule) blockRule {
	return func(b *playedBlock) (string, bool) {
		if b.walkErr != nil {
			// The block diverged: the case that owns the divergence
			// reports it (diagnose.go).
			return "", false
		}
		return rule(b)
	}
}

// rfc9113 is the HTTP/2 revision's reading of the size-update rule of
// RFC 7541 §4.2, cited beside it by the cases that check that rule.
const rfc9113 = " RFC 9113 §4.3.1 restates the rule for HTTP/2: once an endpoint acknowledges a SETTINGS_HEADER_TABLE_SIZE that reduces the maximum below the current table size, its encoder must start the next field block with a dynamic table size update to at most the reduced maximum, and the peer treats a field block without one as a connection error (COMPRESSION_ERROR)."

var allCases = []Case{
	{
		ID: "enc/3.2/1", Section: "3.2", Violation: Fail,
		Title:     "traffic stories decode to the fields sent, by every oracle",
		RFC:       "§3.2: \"All the header field representations contained in a header block are processed in the order in which they appear\", each appending its field to the decoded header list: the list must be the fields sent, in order, duplicates included.",
		scenarios: []string{scTraffic},
		rule:      roundTrip,
		check:     listsCheck,
		instance:  instBlocks,
	},
	{
		ID: "enc/3.2/2", Section: "3.2", Violation: Fail,
		Title:     "generated and targeted sequences decode to the fields sent",
		RFC:       "§3.2 as enc/3.2/1, on every scenario but the traffic: generated sequences with settings going to 0 and back, giant fields, duplicates and sensitive fields, and the targeted ones (every static entry and name, integers at every prefix boundary, every octet Huffman-coded, evictions).",
		scenarios: targetedScenarios,
		rule:      roundTrip,
		check:     listsCheck,
		instance:  instBlocks,
	},
	{
		ID: "enc/2.3.2/1", Section: "2.3.2", Violation: Fail,
		Title:     "dynamic tables agree after every block (traffic)",
		RFC:       "§2.3.2: \"The dynamic table consists of a list of header fields maintained in first-in, first-out order.\" Encoder and decoder must hold the same entries, or an index names different fields on each side.",
		scenarios: []string{scTraffic},
		rule:      tablesAgree,
		check:     tablesCheck,
		instance:  instTables,
	},
	{
		ID: "enc/2.3.2/2", Section: "2.3.2", Violation: Fail,
		Title:     "dynamic tables agree after every block (generated and targeted)",
		RFC:       "§2.3.2 as enc/2.3.2/1, on every scenario but the traffic.",
		scenarios: targetedScenarios,
		rule:      tablesAgree,
		check:     tablesCheck,
		instance:  instTables,
	},
	{
		ID: "enc/4.1/1", Section: "4.1", Violation: Fail,
		Title:     "an entry's size is its name and value plus 32 octets",
		RFC:       "§4.1: \"The size of an entry is the sum of its name's length in octets ..., its value's length in octets, and 32.\"",
		scenarios: allScenarios,
		check:     everyBlock("tables and fields right"),
		instance:  instInsertions,
	},
	{
		ID: "enc/4.2/1", Section: "4.2", Violation: Fail,
		Title:     "a lower setting is signalled by a size update in the next block",
		RFC:       "§4.2: the size the encoder chooses \"MUST stay lower than or equal to the maximum set by the protocol\", so a setting below it forces a change, and \"A change in the maximum size of the dynamic table is signaled via a dynamic table size update ... This dynamic table size update MUST occur at the beginning of the first header block following the change to the dynamic table size.\"" + rfc9113,
		scenarios: allScenarios,
		rule:      reducedSignalled,
		check:     everyBlock("every lowered setting signalled"),
		instance:  instLowered,
	},
	{
		ID: "enc/4.2/2", Section: "4.2", Violation: Fail,
		Title:     "after several settings, the smallest one is signalled",
		RFC:       "§4.2: \"In the case that this size is changed more than once in this interval, the smallest maximum table size that occurs in that interval MUST be signaled in a dynamic table size update.\"" + rfc9113,
		scenarios: allScenarios,
		rule:      smallestSignalled,
		check:     everyBlock("the smallest setting of each interval signalled"),
		instance:  instSeveral,
	},
	{
		ID: "enc/4.2/3", Section: "4.2", Violation: NonStrict,
		Title:     "at most two size updates, the smallest first",
		RFC:       "§4.2: \"The final maximum size is always signaled, resulting in at most two dynamic table size updates.\" The smallest is signalled, then the final.",
		scenarios: allScenarios,
		rule:      fewUpdates,
		check:     everyBlock("at most two updates, the smallest first"),
		instance:  instUpdateBlocks,
	},
	{
		ID: "enc/4.2/4", Section: "4.2", Violation: NonStrict,
		Title:     "a block without fields still carries the size update",
		RFC:       "§4.2: the size update \"MUST occur at the beginning of the first header block following the change to the dynamic table size\"; a block without fields (empty trailers) is such a block, and the strict oracle rejects it without the update. Graded non-strict: an encoder that changes its table lazily, at its next field, can read the rule as satisfied." + rfc9113,
		scenarios: allScenarios,
		rule:      walked(emptyBlockSignalled),
		check:     everyBlock("the setting signalled even without fields"),
		instance:  instEmptyAfter,
	},
	{
		ID: "enc/4.3/1", Section: "4.3", Violation: Fail,
		Title:     "a smaller table evicts entries",
		RFC:       "§4.3: \"Whenever the maximum size for the dynamic table is reduced, entries are evicted from the end of the dynamic table until the size of the dynamic table is less than or equal to the maximum size.\"",
		scenarios: allScenarios,
		check:     everyBlock("tables and fields right"),
		instance:  instResizeEvictions,
	},
	{
		ID: "enc/4.4/1", Section: "4.4", Violation: Fail,
		Title:     "a new entry evicts exactly enough old ones",
		RFC:       "§4.4: \"Before a new entry is added to the dynamic table, entries are evicted from the end of the dynamic table until the size of the dynamic table is less than or equal to (maximum size - new entry size) or until the table is empty.\"",
		scenarios: allScenarios,
		check:     everyBlock("tables and fields right"),
		instance:  instInsertEvictions,
	},
	{
		ID: "enc/4.4/2", Section: "4.4", Violation: Fail,
		Title:     "fields larger than the table do not break the context",
		RFC:       "§4.4: \"an attempt to add an entry larger than the maximum size causes the table to be emptied of all existing entries and results in an empty table.\"",
		scenarios: allScenarios,
		check:     everyBlock("tables and fields right"),
		instance:  instOversized,
	},
	{
		ID: "enc/5.1/1", Section: "5.1", Violation: NonStrict,
		Title:     "integers use the fewest octets",
		RFC:       "§5.1: \"It is also possible for an encoder to send a large number of zero values, which can waste octets ... Integer encodings that exceed implementation limits -- in value or octet length -- MUST be treated as decoding errors.\" A minimal integer ends in a non-zero octet.",
		scenarios: allScenarios,
		rule:      walked(minimalIntegers),
		check:     everyBlock("every integer minimal"),
		instance:  instIntegers,
	},
	{
		ID: "enc/5.2/1", Section: "5.2", Violation: Fail,
		Title:     "Huffman padding is fewer than 8 bits of EOS",
		RFC:       "§5.2: \"To prevent this padding from being misinterpreted as part of the string literal, the most significant bits of the code corresponding to the EOS (end-of-string) symbol are used.\" \"A padding strictly longer than 7 bits MUST be treated as a decoding error. A padding not corresponding to the most significant bits of the code for the EOS symbol MUST be treated as a decoding error.\"",
		scenarios: allScenarios,
		rule:      walked(huffmanPadding),
		check:     everyBlock("every Huffman padding right"),
		instance:  instHuffman,
	},
	{
		ID: "enc/5.2/2", Section: "5.2", Violation: NonStrict,
		Title:     "Huffman is used only when it is shorter",
		RFC:       "§5.2: a string literal is sent \"either by directly encoding the string literal's octets or by using a Huffman code\"; Huffman coding a string into more octets than it has defeats the purpose of compression (§7.1: \"reduce the amount of data\").",
		scenarios: allScenarios,
		rule:      walked(huffmanShorter),
		check:     everyBlock("Huffman only where it saves octets"),
		instance:  instHuffman,
	},
	{
		ID: "enc/5.2/3", Section: "5.2", Violation: Fail,
		Title:     "every octet value round-trips",
		RFC:       "§5.2: \"A string literal is encoded as a sequence of octets, either by directly encoding the string literal's octets or by using a Huffman code\"; Appendix B gives a code to every octet value, so every value 0-255 must round-trip either way, alone and in runs.",
		scenarios: []string{vectors.ScenarioOctets},
		rule:      roundTrip,
		check:     octetsRoundTrip,
		instance:  instBlocks,
	},
	{
		ID: "enc/5.2/4", Section: "5.2", Violation: Fail,
		Title:     "every octet's Huffman code is right",
		RFC:       "Appendix B gives each octet value its code; §5.2: \"The Huffman code ... is used\" for a string whose H bit is set. Each octet 0-255 is sent inside a run of 5-bit characters long enough that Huffman coding is shorter, so an encoder that codes Huffman when shorter sends every code; each Huffman string is decoded on its own and compared with what was sent, naming the octet whose code is wrong.",
		scenarios: allScenarios,
		rule:      walked(huffmanCodeRule),
		check:     huffmanCodes,
		instance:  instHuffman,
	},
	{
		ID: "enc/6.3/1", Section: "6.3", Violation: Fail,
		Title:     "a size update never exceeds the acknowledged setting",
		RFC:       "§6.3: \"The new maximum size MUST be lower than or equal to the limit determined by the protocol using HPACK ... In HTTP/2, this limit is the last value of the SETTINGS_HEADER_TABLE_SIZE parameter ... received from the decoder and acknowledged by the encoder.\"" + rfc9113,
		scenarios: allScenarios,
		rule:      walked(updatesWithinSetting),
		check:     everyBlock("every update within the setting"),
		instance:  instSizeUpdates,
	},
	{
		ID: "enc/6.3/2", Section: "6.3", Violation: Fail,
		Title:     "size updates come only at the start of a block",
		RFC:       "§4.2: \"This dynamic table size update MUST occur at the beginning of the first header block following the change to the dynamic table size.\"" + rfc9113,
		scenarios: allScenarios,
		rule:      walked(updatesFirst),
		check:     everyBlock("every update first in its block"),
		instance:  instSizeUpdates,
	},
	{
		ID: "enc/7.1.3/1", Section: "7.1.3", Violation: Fail,
		Title:     "sensitive fields are sent never-indexed",
		RFC:       "§6.2.3: this representation \"is intended for protecting header field values that are not to be put at risk by compressing them\"; \"When a header field is represented as a literal header field never indexed, it MUST always be encoded with this specific literal representation.\"",
		scenarios: allScenarios,
		rule:      walked(sensitiveNeverIndexed),
		check:     everyBlock("every sensitive field never-indexed"),
		instance:  instSensitive,
	},
	{
		ID: "enc/7.1.3/2", Section: "7.1.3", Violation: NonStrict,
		Title:     "authorization and proxy-authorization at any length, and cookies under 20 octets, are not indexed",
		RFC:       "§7.1.3: \"An encoder might also choose not to index values for header fields that are considered to be highly valuable or sensitive to recovery, such as the Cookie or Authorization header fields\", and \"short or low-entropy values are more readily recovered by an adversary\". Graded: an authorization or proxy-authorization field of any length (the credentials of RFC 9110 §11.6.2 and §11.7.2), or a cookie field whose value is under 20 octets (nghttp2's threshold), sent with incremental indexing. A field equal to a static entry (empty value) may be referenced.",
		scenarios: allScenarios,
		rule:      walked(credentialsNotIndexed),
		check:     everyBlock("every credential kept out of the table"),
		instance:  instCredentials,
	},
	{
		ID: "enc/1.1/1", Section: "1.1", Violation: Info,
		Title:     "compression ratio on the traffic stories",
		RFC:       "§1.1: HPACK eliminates redundant header fields; measured as wire octets per header-list octet, next to the reference encoder's.",
		scenarios: []string{scTraffic},
		check:     compressionRatio,
		needs:     needReference,
		instance:  instBlocks,
	},
	{
		ID: "enc/2.2/1", Section: "2.2", Violation: Info,
		Title:     "the same input in a fresh context gives the same output",
		RFC:       "§2.2: each context starts empty; an encoder that writes the same blocks from the same state is reproducible (measured, not graded).",
		scenarios: []string{scTraffic},
		check:     determinism,
		needs:     needReplay,
		instance:  instBlocks,
	},
	{
		ID: "enc/7.3/1", Section: "7.3", Violation: Info,
		Title:     "amplification: decoded octets per wire octet",
		RFC:       "§7.3: \"A decoder can limit the amount of state memory used\"; measured as the header-list size a decoder must build per octet received.",
		scenarios: []string{scTraffic, vectors.ScenarioAdversarial},
		check:     amplification,
		instance:  instBlocks,
	},
	{
		ID: "enc/7.3/2", Section: "7.3", Violation: Info,
		Title:     "allocations per block (Go encoders)",
		RFC:       "§7.3 on memory: heap allocations per EncodeBlock call, measured with runtime.MemStats over repeated runs on a traffic story.",
		scenarios: []string{scTraffic},
		check:     allocations,
		needs:     needAllocRuns,
		instance:  instBlocks,
	},
}
