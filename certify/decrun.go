package certify

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify/engine"
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
	// ReproDir, when set, is where the reproduction of every failed or
	// non-strict case is written, one story file each (WriteRepros), and
	// Report.Repro says where; ReplayDecoder replays one.
	ReproDir string
	// Replay, when set, replaces the stories of every selected case by
	// these, read from reproductions (ReadDecoderRepro): hpackcert repro
	// against a decoder.
	Replay []*vectors.Story
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
		if opts.Replay != nil {
			if list, err = replayStories(opts.Replay); err != nil {
				return nil, err
			}
		}
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
	rules, err := runRules("decoder", engine.Names(targets), opts.Strict, opts.ExpectFail, opts.Declared)
	if err != nil {
		return nil, err
	}
	for _, t := range targets {
		name := engine.UniqueName(rep.Encoders, t.Name())
		if opts.Progress != nil {
			opts.Progress(name)
		}
		kind := engine.KindOf(unwrapDecoder(t))
		tstart := time.Now()
		dr := &decRunner{target: t, kind: kind, stories: stories}
		if kind == "live" {
			dr.stories = liveStories
		}
		if l, ok := t.(DecoderLacker); ok {
			dr.lacks = l.DecoderLacks()
		}
		results := dr.run(cases)
		if dr.breakdown == "" {
			if err := engine.SourceBreakdown(t); err != nil {
				dr.breakdown = err.Error()
			}
		}
		info := TargetInfo{Kind: kind, Reported: t.Name(), Lacks: strings.Join(dr.lacks.Names(), ", "),
			Elapsed: time.Since(tstart), Breakdown: dr.breakdown, BreakdownRepro: dr.breakdownRepro,
			BreakdownStderr: dr.breakdownStderr}
		info.BreakdownExpected = info.Breakdown != "" && rules.Expect.Breakdown(t.Name())
		for _, c := range cases {
			rules.Settle(t.Name(), c.ID, results[c.ID])
		}
		rep.Encoders = append(rep.Encoders, name)
		rep.Results[name] = results
		rep.Targets[name] = info
	}
	rep.finishExpectations(rules.Expect)
	rep.Elapsed = time.Since(start)
	if opts.ReproDir != "" {
		repro, err := WriteRepros(rep, opts.ReproDir)
		if err != nil {
			return nil, err
		}
		rep.Repro = &repro
	}
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
