package certify

import (
	"errors"
	"time"

	"github.com/hpackcert/hpackcert/certify/decoders"
	"github.com/hpackcert/hpackcert/engine"
	"github.com/hpackcert/hpackcert/vectors"
)

// RunDecoders grades every decoder target on the dec/ cases
// (decoders.Run) and returns the report, in the Report the encoder runs
// produce (its Encoders are the decoders), so that every report format
// serves both. The run's expected failures and declarations are checked
// against its targets before any is played, and each result is settled
// by the same rules as an encoder's (engine.Rules); with
// DecoderOptions.ReproDir, the failures' reproductions are written.
func RunDecoders(targets []DecoderTarget, opts DecoderOptions) (*Report, error) {
	start := time.Now()
	if len(targets) == 0 {
		return nil, errors.New("certify: no decoder to certify")
	}
	rules, err := runRules("decoder", engine.Names(targets), opts.Strict, opts.ExpectFail, opts.Declared)
	if err != nil {
		return nil, err
	}
	cases, graded, err := decoders.Run(targets, opts)
	if err != nil {
		return nil, err
	}
	rep := newSideReport(fromDecoderCases(cases), opts.Strict, start, DecoderCatalogueVersion(), "decoders",
		"hpack-test-case raw-data (embedded), RFC 7541 App. C, generated stories, encoded by the reference encoder")
	side := make([]sideGraded, len(graded))
	for i, g := range graded {
		side[i] = sideGraded{name: g.Name, results: g.Results, info: TargetInfo{Kind: g.Kind, Reported: g.Target.Name(), Lacks: g.Lacks, Elapsed: g.Elapsed,
			Breakdown: g.Breakdown, BreakdownRepro: g.BreakdownRepro, BreakdownStderr: g.BreakdownStderr}}
	}
	rep.settle(rules, side)
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

// IsDecoderReproduction reports whether st is a reproduction that
// RunDecoders wrote under DecoderOptions.ReproDir, rather than one of an
// encoder's run.
func IsDecoderReproduction(st *vectors.Story) bool { return decoders.IsReproduction(st) }

// ReplayDecoder replays a decoder's reproduction, the story file at path
// that RunDecoders wrote under DecoderOptions.ReproDir, against t: each
// case selected by opts.Cases (the one that failed, for a reproduction)
// decodes exactly its blocks. It is hpackcert repro for a decoder.
func ReplayDecoder(t DecoderTarget, path string, opts DecoderOptions) (*Report, error) {
	st, err := vectors.ReadStory(path)
	if err != nil {
		return nil, err
	}
	opts.Replay = []*vectors.Story{st}
	return RunDecoders([]DecoderTarget{t}, opts)
}

// sideGraded is one target as a side graded it, before the run's rules
// settle it: its name in the report, what it is, and its results.
type sideGraded struct {
	name    string
	info    TargetInfo // Reported is the name the target gave itself
	results map[string]*Result
}

// newSideReport returns the Report of one side's run, targets to come
// (Report.settle).
func newSideReport(cases []Case, strict bool, start time.Time, catalogue, subject, traffic string) *Report {
	return &Report{Cases: cases, Results: map[string]map[string]*Result{}, Coverage: map[string]*Coverage{},
		Strict: strict, Targets: map[string]TargetInfo{}, Started: start, Version: Version(),
		Catalogue: catalogue, Subject: subject, TrafficSource: traffic}
}

// settle applies the run's rules to every target's results, in order,
// and adds them to the report, as every side but the HPACK encoders'
// does: each result settled (engine.Rules.Settle), an expected breakdown
// marked, the expectations no finding met listed.
func (rep *Report) settle(rules *engine.Rules, graded []sideGraded) {
	for _, g := range graded {
		g.info.BreakdownExpected = g.info.Breakdown != "" && rules.Expect.Breakdown(g.info.Reported)
		for _, c := range rep.Cases {
			rules.Settle(g.info.Reported, c.ID, g.results[c.ID])
		}
		rep.Encoders = append(rep.Encoders, g.name)
		rep.Results[g.name] = g.results
		rep.Targets[g.name] = g.info
	}
	rep.finishExpectations(rules.Expect)
}
