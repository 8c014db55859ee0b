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
	rep := &Report{Cases: fromDecoderCases(cases), Results: map[string]map[string]*Result{}, Coverage: map[string]*Coverage{},
		Strict: opts.Strict, Targets: map[string]TargetInfo{}, Started: start,
		Version: Version(), Catalogue: DecoderCatalogueVersion(), TrafficSource: "hpack-test-case raw-data (embedded), RFC 7541 App. C, generated stories, encoded by the reference encoder",
		Subject: "decoders"}
	for _, g := range graded {
		t := g.Target
		info := TargetInfo{Kind: g.Kind, Reported: t.Name(), Lacks: g.Lacks, Elapsed: g.Elapsed,
			Breakdown: g.Breakdown, BreakdownRepro: g.BreakdownRepro, BreakdownStderr: g.BreakdownStderr}
		info.BreakdownExpected = info.Breakdown != "" && rules.Expect.Breakdown(t.Name())
		for _, c := range cases {
			rules.Settle(t.Name(), c.ID, g.Results[c.ID])
		}
		rep.Encoders = append(rep.Encoders, g.Name)
		rep.Results[g.Name] = g.Results
		rep.Targets[g.Name] = info
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
