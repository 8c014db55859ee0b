package certify

import (
	"encoding/hex"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/vectors"
)

// DecoderOptions configures RunDecoders.
type DecoderOptions struct {
	// Cases selects dec/ cases by id prefix; none selects every case.
	Cases []string
	// Strict turns non-strict grades into failures.
	Strict bool
	// ExpectFail lists known failures that do not fail the run: a case
	// id, "DECODER CASE", "DECODER breakdown", or "DECODER
	// nothing-judged".
	ExpectFail []string
	// Declared lists the cases the user declares a decoder cannot be
	// graded on.
	Declared []Declaration
	// Kinds says how each decoder is driven, by name: "in-process"
	// (the default), "stdio" or "live". A live target is held to RFC
	// 9113 as well as RFC 7541 (dec/4.2/2).
	Kinds map[string]string
	// TrafficStories and TrafficBlocks, when positive, cut the traffic
	// stories of dec/3.2/1 to that many stories of at most that many
	// blocks; Generated is the number of generated stories (0 means 8).
	TrafficStories, TrafficBlocks, Generated int
	// Seed seeds the generated stories.
	Seed int64
	// Progress, when set, is called as each decoder starts.
	Progress func(decoder string)
}

// RunDecoders grades every decoder target on the dec/ cases and returns
// the report, in the Report the encoder runs produce (its Encoders are
// the decoders), so that every report format serves both. A case is
// judged on its own stories, each decoded in a fresh context: a valid
// block must decode to the strict decoder's fields (and table, for a
// decoder that shows it), an invalid one must be refused as a decoding
// error (a *Rejection). A divergence is filed under the first failed case
// of the chain (decChain) whose feature the story's blocks use, or else
// under the case whose story it is; a crash, a panic or a protocol
// violation is the target's breakdown, its one failure.
func RunDecoders(targets []DecoderTarget, opts DecoderOptions) (*Report, error) {
	start := time.Now()
	if len(targets) == 0 {
		return nil, errors.New("certify: no decoder to certify")
	}
	cases, err := selectDecoderCases(opts.Cases)
	if err != nil {
		return nil, err
	}
	in, err := decoderInputs(opts)
	if err != nil {
		return nil, err
	}
	// Live targets decode requests: the stories of the decodes-right
	// cases go to them with the fields of a request in front of each
	// block's fields (liveStories), so that a server has no reason but
	// the block's HPACK to refuse it.
	stories, liveStories := map[string][]decStory{}, map[string][]decStory{}
	for _, c := range cases {
		if c.stories == nil {
			continue
		}
		list := c.stories(in)
		var live []decStory
		for i := range list {
			if err := list[i].prepare(); err != nil {
				return nil, err
			}
			l := list[i]
			if c.kind == decDecodes || c.kind == decNever {
				l = asRequests(l)
				if err := l.prepare(); err != nil {
					return nil, err
				}
			}
			live = append(live, l)
		}
		stories[c.ID], liveStories[c.ID] = list, live
	}
	rep := &Report{Results: map[string]map[string]*Result{}, Coverage: map[string]*Coverage{},
		Strict: opts.Strict, Targets: map[string]TargetInfo{}, Started: start,
		Version: Version(), Catalogue: DecoderCatalogueVersion(), TrafficSource: "hpack-test-case raw-data (embedded), RFC 7541 App. C, generated stories, encoded by the reference encoder",
		Subject: "decoders"}
	for _, c := range cases {
		rep.Cases = append(rep.Cases, c.Case)
	}
	slices.SortFunc(rep.Cases, func(a, b Case) int { return compareIDs(a.ID, b.ID) })
	expect := map[string]bool{}
	for _, e := range opts.ExpectFail {
		expect[e] = true
	}
	met := map[string]bool{}
	for _, t := range targets {
		name := t.Name()
		if _, dup := rep.Results[name]; dup {
			return nil, fmt.Errorf("two decoders are named %q", name)
		}
		if opts.Progress != nil {
			opts.Progress(name)
		}
		kind := opts.Kinds[name]
		if kind == "" {
			kind = "in-process"
		}
		tstart := time.Now()
		dr := &decRunner{target: t, kind: kind, stories: stories}
		if kind == "live" {
			dr.stories = liveStories
		}
		if l, ok := t.(DecoderLacker); ok {
			dr.lacks = l.DecoderLacks()
		}
		results := dr.run(cases)
		info := TargetInfo{Kind: kind, Reported: name, Lacks: strings.Join(dr.lacks.Names(), ", "),
			Elapsed: time.Since(tstart), Breakdown: dr.breakdown, BreakdownRepro: dr.breakdownRepro,
			BreakdownStderr: dr.breakdownStderr}
		if info.Breakdown != "" && (expect[name+" breakdown"]) {
			info.BreakdownExpected = true
			met[name+" breakdown"] = true
		}
		for _, c := range cases {
			res := results[c.ID]
			if res.Grade == NonStrict && opts.Strict {
				res.Grade = Fail
			}
			if res.Grade == Fail || res.Grade == NonStrict {
				for _, key := range []string{c.ID, name + " " + c.ID} {
					if expect[key] {
						res.Expected = true
						met[key] = true
					}
				}
			}
			if res.Grade == Unsupported {
				for _, d := range opts.Declared {
					if d.covers(name, c.ID) {
						res.Declared = d.Reason
					}
				}
			}
		}
		rep.Encoders = append(rep.Encoders, name)
		rep.Results[name] = results
		rep.Targets[name] = info
	}
	for _, key := range rep.expectNothingJudged(expect) {
		met[key] = true
	}
	for _, e := range opts.ExpectFail {
		if !met[e] {
			rep.StaleExpectations = append(rep.StaleExpectations, e)
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// decoderInputs builds the traffic stories of dec/3.2/1.
func decoderInputs(opts DecoderOptions) (*decInputs, error) {
	raw, err := vectors.RawData()
	if err != nil {
		return nil, err
	}
	if opts.TrafficStories > 0 && len(raw) > opts.TrafficStories {
		raw = raw[:opts.TrafficStories]
	}
	var lists []*vectors.Story
	for _, s := range raw {
		st := *s
		if opts.TrafficBlocks > 0 && len(st.Cases) > opts.TrafficBlocks {
			st.Cases = st.Cases[:opts.TrafficBlocks]
		}
		lists = append(lists, &st)
	}
	n := opts.Generated
	if n == 0 {
		n = 8
	}
	for i, s := range vectors.GenerateStories(opts.Seed, n) {
		st := *s
		st.Path = fmt.Sprintf("generated-%02d", i)
		if opts.TrafficBlocks > 0 && len(st.Cases) > opts.TrafficBlocks {
			st.Cases = st.Cases[:opts.TrafficBlocks]
		}
		lists = append(lists, &st)
	}
	return &decInputs{traffic: trafficStories(lists)}, nil
}

// decRunner grades one decoder target.
type decRunner struct {
	target  DecoderTarget
	kind    string
	lacks   DecoderLacks
	stories map[string][]decStory

	breakdown, breakdownRepro, breakdownStderr string
}

// decOutcome is what one story showed of the decoder.
type decOutcome struct {
	story *decStory
	// judged counts the blocks judged, and instances the instances of the
	// case's rule among them.
	judged, instances int
	ev                Evidence
	// div is the first divergence, nil when there was none.
	div *decDivergence
	// unsupported says why the story could not be played.
	unsupported string
	// broke is set when the story ended in the target's breakdown.
	broke bool
	// hidden counts valid blocks accepted whose fields were not visible.
	hidden int
	// detail is a measurement (dec/7.3/x).
	detail string
}

// decDivergence is a block where the decoder did not do what the strict
// decoder did.
type decDivergence struct {
	step int
	// feats is what the story's blocks used up to and including it.
	feats  decFeature
	what   string
	repro  string
	notJud int // blocks of the story left unjudged after it
	// invalid is set when the block is the one the story tests a refusal
	// on; a divergence before it is a valid block decoded wrongly.
	invalid bool
	// ev is what the block held: a case that finds fault with it judged
	// it.
	ev Evidence
}

// run grades every case, in chain order.
func (dr *decRunner) run(cases []*decCase) map[string]*Result {
	results := map[string]*Result{}
	failed := map[string]decFeature{} // cases failed on their own, and the features they failed on
	var order []string
	for _, c := range cases {
		cstart := time.Now()
		res := dr.grade(c, failed, &order, results)
		res.Duration = time.Since(cstart)
		results[c.ID] = res
		if res.Grade == Fail || res.Grade == NonStrict {
			order = append(order, c.ID)
		}
	}
	return results
}

// grade runs one case's stories and grades it; failed holds the features
// the cases before it failed on, order those cases in chain order.
func (dr *decRunner) grade(c *decCase, failed map[string]decFeature, order *[]string, results map[string]*Result) *Result {
	if why, ok := dr.lacks.NotApplicable[c.ID]; ok {
		return &Result{Grade: Unsupported, NotApplicable: true, Detail: "n/a: " + why}
	}
	if c.lack != "" && slices.Contains(dr.lacks.Names(), c.lack) {
		return &Result{Grade: Unsupported, Detail: "not graded: the decoder declares the lack \"" + c.lack + "\""}
	}
	if c.kind == decTime {
		return dr.timing(c)
	}
	violation := c.Violation
	if dr.kind == "live" && c.liveViolation != 0 {
		violation = c.liveViolation
	}
	var outs []decOutcome
	for i := range dr.stories[c.ID] {
		outs = append(outs, dr.play(c, &dr.stories[c.ID][i]))
	}
	res := &Result{}
	ev := Evidence{Of: c.of}
	var own *decOutcome
	var reasons []string
	hidden, broke := 0, false
	consequences := map[string]*Consequence{}
	for i := range outs {
		o := &outs[i]
		addEvidence(&ev, o.ev)
		ev.Instances += o.instances
		hidden += o.hidden
		broke = broke || o.broke
		if o.unsupported != "" {
			reasons = append(reasons, o.unsupported)
		}
		if o.div == nil {
			continue
		}
		ev.NotJudged += o.div.notJud
		owner := ""
		for _, id := range *order {
			if failed[id]&o.div.feats != 0 {
				owner = id
				break
			}
		}
		if owner == "" && !o.div.invalid && (c.kind == decRejects || c.kind == decBomb) {
			// A valid block decoded wrongly before the block a refusal
			// case tests breaks §3.2, not the refusal's rule.
			if r := results[decodesRight]; r != nil {
				owner = decodesRight
				if r.Grade != Fail {
					r.Grade, r.Detail, r.Repro = Fail, o.div.what, o.div.repro
					r.At = fmt.Sprintf("story %s, block %d", o.story.name, o.div.step)
					*order = append(*order, decodesRight)
				}
			}
		}
		if owner == "" {
			if own == nil {
				own = o
			}
			// The case judged the block it found at fault.
			addEvidence(&ev, o.div.ev)
			failed[c.ID] |= o.div.feats & c.feats
			continue
		}
		// A consequence of an earlier root cause: the root's result
		// lists it, this case judged nothing there.
		ev.NotJudged++
		at := fmt.Sprintf("story %s, block %d", o.story.name, o.div.step)
		if cons, ok := consequences[owner]; ok {
			cons.Blocks += 1 + o.div.notJud
			cons.Stories++
		} else {
			consequences[owner] = &Consequence{Case: c.ID, Blocks: 1 + o.div.notJud, Stories: 1, First: at, Detail: o.div.what}
		}
	}
	for owner, cons := range consequences {
		if r := results[owner]; r != nil {
			r.Consequences = append(r.Consequences, *cons)
		}
	}
	res.Evidence = ev
	switch {
	case own != nil:
		res.Grade = violation
		res.At = fmt.Sprintf("story %s, block %d", own.story.name, own.div.step)
		res.Detail = own.div.what
		res.Repro = own.div.repro
	case ev.Instances > 0:
		res.Grade = Pass
		res.Detail = "pass: " + ev.String()
		if o := firstDetail(outs); o != "" {
			res.Detail += "; " + o
		}
	default:
		res.Grade = Unsupported
		var causes []string
		for owner := range consequences {
			causes = append(causes, owner)
		}
		slices.Sort(causes)
		if broke && len(causes) == 0 {
			causes = append(causes, BreakdownCause)
		}
		switch {
		case len(causes) > 0:
			res.CausedBy = causes
			res.Detail = "consequence: every block it would judge follows a divergence filed under " + strings.Join(causes, ", ")
		case hidden > 0:
			res.Detail = fmt.Sprintf("not exercised: the target does not show the fields it decodes (%s accepted, none compared)", plural(hidden, "valid block", "valid blocks"))
		case len(reasons) > 0:
			res.Detail = "not exercised: " + strings.Join(uniq(reasons), "; ")
		default:
			res.Detail = "not exercised: no story judged"
		}
	}
	return res
}

func firstDetail(outs []decOutcome) string {
	for _, o := range outs {
		if o.detail != "" {
			return o.detail
		}
	}
	return ""
}

func uniq(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

func addEvidence(dst *Evidence, e Evidence) {
	dst.Blocks += e.Blocks
	dst.Representations += e.Representations
	dst.Insertions += e.Insertions
	dst.Evictions += e.Evictions
	dst.SizeUpdates += e.SizeUpdates
	dst.HuffmanStrings += e.HuffmanStrings
	dst.SensitiveFields += e.SensitiveFields
}

// play decodes one story in a fresh context.
func (dr *decRunner) play(c *decCase, s *decStory) decOutcome {
	out := decOutcome{story: s}
	d, err := dr.target.NewDecoder()
	if err != nil {
		dr.broke(s, 0, "opening a decoding context: "+err.Error())
		out.broke = true
		return out
	}
	_, showsTable := d.(DecoderTableReader)
	hider, _ := d.(FieldsHider)
	table, list := uint32(spec.DefaultTableSize), uint32(0)
	var feats decFeature
	for i := range s.steps {
		st := &s.steps[i]
		// setting gives the decoder a setting of the block; false ends
		// the story, unsupported or broken down.
		setting := func(name string, have *uint32, want uint32, set func(uint32) error) bool {
			if want == *have {
				return true
			}
			if err := set(want); err != nil {
				if errors.Is(err, ErrSettingUnsupported) && c.kind == decBomb && name == "SETTINGS_MAX_HEADER_LIST_SIZE" {
					// The bomb's 409.6 MB list is over any limit a target
					// advertised in place of ours: it is graded under that.
					*have = want
					return true
				}
				if errors.Is(err, ErrSettingUnsupported) {
					out.unsupported = fmt.Sprintf("story %s needs %s %d: %v", s.name, name, want, err)
				} else {
					dr.broke(s, i, "setting "+name+": "+err.Error())
					out.broke = true
				}
				return false
			}
			*have = want
			return true
		}
		if !setting("SETTINGS_HEADER_TABLE_SIZE", &table, st.tableSize, d.SetMaxDynamicTableSize) ||
			!setting("SETTINGS_MAX_HEADER_LIST_SIZE", &list, st.maxList, d.SetMaxHeaderListSize) {
			return out
		}
		feats |= st.expect.feats
		var before runtime.MemStats
		if c.kind == decBomb && dr.kind == "in-process" {
			runtime.GC()
			runtime.ReadMemStats(&before)
		}
		t0 := time.Now()
		fields, err := decodeSafely(d, st.block)
		elapsed := time.Since(t0)
		if errors.Is(err, ErrSettingUnsupported) {
			out.unsupported = fmt.Sprintf("story %s, block %d: %v", s.name, i, err)
			return out
		}
		if err != nil && !Rejected(err) && !errors.Is(err, ErrAnswerTooLarge) {
			dr.broke(s, i, err.Error())
			out.broke = true
			return out
		}
		diverge := func(what string) decOutcome {
			out.div = &decDivergence{step: i, feats: feats, what: what, repro: reproText(s, i, what), notJud: len(s.steps) - 1 - i, invalid: st.invalid, ev: st.expect.ev}
			return out
		}
		if c.kind == decBomb && err == nil {
			// A live target refuses a field section too large for it with
			// a stream error or 431 (RFC 9113 §8.2, §10.5.1), which keeps
			// the connection: not an acceptance of the list.
			if a, ok := d.(interface{ LastAnswer() string }); ok && (strings.HasPrefix(a.LastAnswer(), "reset the stream") || strings.Contains(a.LastAnswer(), "431")) {
				err = &Rejection{Reason: a.LastAnswer()}
			}
		}
		if st.expect.refused != "" {
			if err == nil || errors.Is(err, ErrAnswerTooLarge) {
				what := fmt.Sprintf("accepted a block it must refuse (%s): decoded %s", st.note, describeFields(fields, err))
				if c.kind == decBomb {
					what = fmt.Sprintf("expanded the bomb (%s) under a header-list limit of %d: %s", st.note, st.maxList, describeFields(fields, err))
					if a, ok := d.(interface{ LastAnswer() string }); ok && a.LastAnswer() != "" {
						what = fmt.Sprintf("took the bomb (%s) under a header-list limit of %d and %s", st.note, st.maxList, a.LastAnswer())
					}
				}
				return diverge(what)
			}
			out.judged++
			out.instances++
			addEvidence(&out.ev, st.expect.ev)
			if !refusedForDecoding(err) && out.detail == "" {
				out.detail = fmt.Sprintf("story %s refused, though not as a decoding error: %v", s.name, err)
			}
			if c.kind == decBomb {
				out.detail = fmt.Sprintf("refused in %s", elapsed.Round(time.Microsecond))
				if dr.kind == "in-process" {
					var after runtime.MemStats
					runtime.ReadMemStats(&after)
					alloc := after.TotalAlloc - before.TotalAlloc
					out.detail += fmt.Sprintf(", allocating %d KiB", alloc>>10)
					if alloc > 64<<20 {
						return diverge(fmt.Sprintf("refused the bomb (%s) only after allocating %d MiB: it built the header list first", st.note, alloc>>20))
					}
				}
				if m, ok := d.(interface{ PeakMemory() (int64, bool) }); ok {
					if peak, ok := m.PeakMemory(); ok {
						out.detail += fmt.Sprintf(", peak resident memory %d MiB", peak>>20)
					}
				}
			}
			return out
		}
		if err != nil && dr.kind == "live" && st.expect.httpInvalid != "" {
			out.unsupported = fmt.Sprintf("story %s: the target refused a block whose fields are no well-formed HTTP/2 request (%s; RFC 9113 §8.2.1, §8.3.1): %v", s.name, st.expect.httpInvalid, err)
			return out
		}
		if err != nil && st.expect.longest > maxUnlimitedString {
			out.unsupported = fmt.Sprintf("story %s: the decoder refused a block with a %d-octet string (%s), a string-length limit, which RFC 7541 §7.4 lets a decoder set: %v", s.name, st.expect.longest, st.note, err)
			return out
		}
		if err != nil && !refusedForDecoding(err) {
			out.unsupported = fmt.Sprintf("story %s: the target refused a valid block (%s) for another reason than a decoding error: %v", s.name, st.note, err)
			return out
		}
		if err != nil {
			return diverge(fmt.Sprintf("refused a valid block (%s): %v%s", st.note, err, httpNote(st)))
		}
		if hider != nil && hider.FieldsHidden() {
			out.hidden++
			continue
		}
		if what := compareFields(st.expect.fields, fields, c.kind == decNever); what != "" {
			return diverge(fmt.Sprintf("block %d (%s): %s%s", i, st.note, what, httpNote(st)))
		}
		if showsTable {
			got, err := d.(DecoderTableReader).DecoderTable()
			if err != nil {
				dr.broke(s, i, "reading the table: "+err.Error())
				out.broke = true
				return out
			}
			if what := compareFields(st.expect.table, got, false); what != "" {
				return diverge(fmt.Sprintf("the dynamic table after block %d (%s): %s", i, st.note, what))
			}
		}
		out.judged++
		addEvidence(&out.ev, st.expect.ev)
		switch {
		case c.kind == decNever:
			out.instances += st.expect.ev.SensitiveFields
		case c.feats == 0 || st.expect.feats&c.feats != 0:
			out.instances++
		}
	}
	return out
}

// httpNote says, for a block whose fields HTTP/2 does not let through,
// that RFC 7541 decodes them all the same: a library that applies HTTP
// rules in its HPACK decoder changes what the layer above is given.
func httpNote(st *decStep) string {
	if st.expect.httpInvalid == "" {
		return ""
	}
	return " (the fields are not all valid HTTP/2 fields: " + st.expect.httpInvalid + "; RFC 9113 §8.2.1 makes such a request malformed, but an HPACK decoder decodes them, octet for octet)"
}

// maxUnlimitedString is the longest string a decoder is expected to take
// whatever its limits: a refusal of a block with a longer one may be the
// decoder's string-length limit (RFC 7541 §7.4: a decoder "has to set a
// limit to the length it accepts for string literals"), not a fault.
const maxUnlimitedString = 4096

// decodesRight is the case a valid block decoded wrongly is filed under
// when no feature case owns it.
const decodesRight = "dec/3.2/1"

// ErrAnswerTooLarge is wrapped by the error of a Decoder whose answer was
// too large for its source to take (a stdio decoder's line over the
// bound): the decoder accepted the block and built a header list that
// large, which the bomb case grades as such.
var ErrAnswerTooLarge = errors.New("the decoder's answer is larger than the certifier takes")

// decodeSafely decodes a block, turning a panic into a breakdown.
func decodeSafely(d Decoder, block []byte) (fields []Field, err error) {
	defer func() {
		if r := recover(); r != nil {
			fields, err = nil, fmt.Errorf("the decoder panicked: %v", r)
		}
	}()
	return d.DecodeBlock(block)
}

// broke records the target's first breakdown.
func (dr *decRunner) broke(s *decStory, step int, what string) {
	if dr.breakdown != "" {
		return
	}
	dr.breakdown = fmt.Sprintf("decoder broke down at story %s, block %d: %s", s.name, step, what)
	dr.breakdownRepro = reproText(s, step, what)
	// What the program said as it broke down, as for an encoder: taken
	// now, before the next story restarts it.
	if st, ok := dr.target.(StderrTail); ok {
		dr.breakdownStderr = st.StderrTail()
	}
}

// compareFields says how got differs from want, "" when it does not;
// sensitive compares the never-indexed flags too.
func compareFields(want, got []Field, sensitive bool) string {
	for i := 0; i < len(want) || i < len(got); i++ {
		switch {
		case i >= len(got):
			return fmt.Sprintf("%s, where %s were expected: field %d, %s, is missing", plural(len(got), "field", "fields"), plural(len(want), "field", "fields"), i, quoteField(want[i]))
		case i >= len(want):
			return fmt.Sprintf("%s, where %s were expected: field %d, %s, is extra", plural(len(got), "field", "fields"), plural(len(want), "field", "fields"), i, quoteField(got[i]))
		case got[i].Name != want[i].Name || got[i].Value != want[i].Value:
			return fmt.Sprintf("field %d is %s, where %s was expected", i, quoteField(got[i]), quoteField(want[i]))
		case sensitive && got[i].Sensitive != want[i].Sensitive:
			if want[i].Sensitive {
				return fmt.Sprintf("field %d, %s, came never-indexed and is not marked so", i, quoteField(want[i]))
			}
			return fmt.Sprintf("field %d, %s, is marked never-indexed but was not", i, quoteField(want[i]))
		}
	}
	return ""
}

// quoteField quotes a field for a report, cut to a readable length.
func quoteField(f Field) string {
	return cutQuote(f.Name) + ": " + cutQuote(f.Value)
}

func cutQuote(s string) string {
	if len(s) > 64 {
		return fmt.Sprintf("%q... (%d octets)", s[:64], len(s))
	}
	return fmt.Sprintf("%q", s)
}

func describeFields(fields []Field, err error) string {
	if err != nil {
		return err.Error()
	}
	size := 0
	for _, f := range fields {
		size += len(f.Name) + len(f.Value) + spec.EntryOverhead
	}
	if len(fields) == 0 {
		return "no field"
	}
	return fmt.Sprintf("%s (%d octets of header list), the first %s", plural(len(fields), "field", "fields"), size, quoteField(fields[0]))
}

// reproText reproduces a divergence: the story's blocks up to the one at
// fault, in hex, with their settings.
func reproText(s *decStory, step int, what string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "decoder story %s, a fresh context (SETTINGS_HEADER_TABLE_SIZE 4096), block by block:\n", s.name)
	for i := 0; i <= step && i < len(s.steps); i++ {
		st := s.steps[i]
		h := hex.EncodeToString(st.block)
		if len(h) > 512 {
			h = h[:512] + fmt.Sprintf("... (%d octets)", len(st.block))
		}
		fmt.Fprintf(&b, "  block %d: table_size %d, max_header_list %d: %s\n    wire %s\n", i, st.tableSize, st.maxList, st.note, h)
		if i == step {
			if st.expect.refused != "" {
				fmt.Fprintf(&b, "    expected: refused (%s)\n", st.expect.refused)
			} else {
				fmt.Fprintf(&b, "    expected: %s\n", describeFields(st.expect.fields, nil))
			}
		}
	}
	fmt.Fprintf(&b, "  found: %s\n", what)
	return b.String()
}

func (dr *decRunner) brokeText(what string) {
	if dr.breakdown == "" {
		dr.breakdown = "decoder broke down: " + what
	}
}
