package decoders

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/engine"
	"github.com/hpackcert/hpackcert/vectors"
)

// DecoderOptions configures a run of the decoder side (certify.RunDecoders).
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
	// non-strict case is written, one story file each
	// (certify.WriteRepros), and Report.Repro says where;
	// certify.ReplayDecoder replays one.
	ReproDir string
	// Replay, when set, replaces the stories of every selected case by
	// these, read from reproductions: hpackcert repro
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

// Graded is what grading one decoder target gave, before the run's
// rules (engine.Rules: strict, declarations, expected failures) settle
// its results: certify.RunDecoders settles them and makes the Report.
type Graded struct {
	// Name is the target's name in the report, made unique in the run
	// (engine.UniqueName); Target.Name() is the name it gave.
	Name   string
	Target DecoderTarget
	// Kind is how the target is driven (engine.KindOf), Lacks what it
	// declares it cannot do (DecoderLacks.Names, joined).
	Kind, Lacks string
	Elapsed     time.Duration
	// Breakdown, when set, is the target's one failure, BreakdownRepro
	// its reproduction and BreakdownStderr what the program wrote.
	Breakdown, BreakdownRepro, BreakdownStderr string
	// Results maps a case id to its result.
	Results map[string]*Result
}

// Run grades every decoder target on the selected dec/ cases and
// returns the cases, sorted by id, and each target's grades, in order. A
// case is judged on its own stories, each decoded in a fresh context: a
// valid block must decode to the strict decoder's fields (and table, for
// a decoder that shows it), an invalid one must be refused as a decoding
// error (a *Rejection). A divergence is filed under the first failed
// case of the chain (decChain) whose feature the story's blocks use, or
// else under the case whose story it is; a crash, a panic or a protocol
// violation is the target's breakdown, its one failure, after which none
// of its stories is played.
func Run(targets []DecoderTarget, opts DecoderOptions) ([]Case, []Graded, error) {
	cases, err := selectDecoderCases(opts.Cases)
	if err != nil {
		return nil, nil, err
	}
	stories, liveStories, err := prepareStories(cases, opts)
	if err != nil {
		return nil, nil, err
	}
	var out []Graded
	var names []string
	for _, t := range targets {
		name := engine.UniqueName(names, t.Name())
		names = append(names, name)
		if opts.Progress != nil {
			opts.Progress(name)
		}
		kind := engine.KindOf(unwrapDecoder(t))
		start := time.Now()
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
		out = append(out, Graded{Name: name, Target: t, Kind: kind, Lacks: strings.Join(dr.lacks.Names(), ", "),
			Elapsed: time.Since(start), Breakdown: dr.breakdown, BreakdownRepro: dr.breakdownRepro,
			BreakdownStderr: dr.breakdownStderr, Results: results})
	}
	sorted := make([]Case, len(cases))
	for i, c := range cases {
		sorted[i] = c.Case
	}
	slices.SortFunc(sorted, func(a, b Case) int { return engine.CompareIDs(a.ID, b.ID) })
	return sorted, out, nil
}

// prepareStories makes the stories of every selected case, or reads
// them from the reproductions to replay, and has the strict decoder say
// what each block must give. Live targets decode requests: the stories
// of the decodes-right cases go to them with the fields of a request in
// front of each block's fields (liveStories), so that a server has no
// reason but the block's HPACK to refuse it.
func prepareStories(cases []*decCase, opts DecoderOptions) (stories, liveStories map[string][]decStory, err error) {
	in, err := decoderInputs(opts)
	if err != nil {
		return nil, nil, err
	}
	stories, liveStories = map[string][]decStory{}, map[string][]decStory{}
	for _, c := range cases {
		if c.stories == nil {
			continue
		}
		list := c.stories(in)
		if opts.Replay != nil {
			if list, err = replayStories(opts.Replay); err != nil {
				return nil, nil, err
			}
		}
		var live []decStory
		for i := range list {
			if err := list[i].prepare(); err != nil {
				return nil, nil, err
			}
			l := list[i]
			if c.kind == decDecodes || c.kind == decNever {
				l = asRequests(l)
				if err := l.prepare(); err != nil {
					return nil, nil, err
				}
			}
			live = append(live, l)
		}
		stories[c.ID], liveStories[c.ID] = list, live
	}
	return stories, liveStories, nil
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
