package certify

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hpackcert/hpackcert/certify/qdecoders"
	"github.com/hpackcert/hpackcert/certify/qencoders"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/engine"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// QPACKEncoderOptions configures RunQPACKEncoders (qencoders.Options).
type QPACKEncoderOptions = qencoders.Options

// SubjectQPACKEncoders is the Report.Subject of a run of the qenc/ cases.
const SubjectQPACKEncoders = "QPACK encoders"

// RunQPACKEncoders grades every QPACK encoder target on the qenc/ cases
// (qencoders.Run) and returns the report, in the Report the HPACK runs
// produce, so that every report format serves it: the run's expected
// failures and declarations are checked against its targets first, and
// each result is settled by the same rules (engine.Rules).
func RunQPACKEncoders(targets []qpack.EncoderTarget, opts QPACKEncoderOptions) (*Report, error) {
	start := time.Now()
	if len(targets) == 0 {
		return nil, errors.New("certify: no QPACK encoder to certify")
	}
	rules, err := runRules("encoder", engine.Names(targets), opts.Strict, opts.ExpectFail, opts.Declared)
	if err != nil {
		return nil, err
	}
	cases, graded, err := qencoders.Run(targets, opts)
	if err != nil {
		return nil, err
	}
	rep := newSideReport(fromQPACKEncoderCases(cases), opts.Strict, start, QPACKEncoderCatalogueVersion(), SubjectQPACKEncoders,
		qif.TrafficSource+", played with the strict QPACK decoder (oracle/qstrict) as the certifier's decoder")
	side := make([]sideGraded, len(graded))
	for i, g := range graded {
		side[i] = sideGraded{name: g.Name, results: g.Results, info: TargetInfo{Kind: g.Kind, Reported: g.Target.Name(), Elapsed: g.Elapsed,
			Breakdown: g.Breakdown, BreakdownStderr: g.BreakdownStderr}}
	}
	rep.settle(rules, side)
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// QPACKEncoderCases returns the qenc/ cases as the Report lists them.
func QPACKEncoderCases() []Case { return fromQPACKEncoderCases(qencoders.Cases()) }

func fromQPACKEncoderCases(cases []qencoders.Case) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		out[i] = Case{ID: c.ID, Section: c.Section, Title: c.Title, RFC: c.RFC, Violation: c.Violation, spec: "RFC 9204"}
	}
	return out
}

var qpackEncoderCatalogue = sync.OnceValue(func() string { return digest("QPACK encoder cases", QPACKEncoderCases()) })

// QPACKEncoderCatalogueVersion names the qenc/ catalogue as
// CatalogueVersion names the enc/ one.
func QPACKEncoderCatalogueVersion() string { return qpackEncoderCatalogue() }

// digest names a catalogue by its size and a digest of its cases.
func digest(what string, cases []Case) string {
	h := sha256.New()
	for _, c := range cases {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\n", c.ID, c.Violation, c.Title, c.RFC)
	}
	return fmt.Sprintf("%d %s, %s", len(cases), what, hex.EncodeToString(h.Sum(nil))[:12])
}

// SelectQPACKEncoderCases returns the qenc/ cases whose id starts with
// one of prefixes (all for none), or an error naming a prefix no qenc/
// case has.
func SelectQPACKEncoderCases(prefixes []string) ([]Case, error) {
	cases, err := qencoders.SelectCases(prefixes)
	return fromQPACKEncoderCases(cases), err
}

// QPACKDecoderOptions configures RunQPACKDecoders (qdecoders.Options).
type QPACKDecoderOptions = qdecoders.Options

// SubjectQPACKDecoders is the Report.Subject of a run of the qdec/ cases.
const SubjectQPACKDecoders = "QPACK decoders"

// RunQPACKDecoders grades every QPACK decoder target on the qdec/ cases
// (qdecoders.Run) and returns the report, settled and reported as
// RunDecoders does for the dec/ cases.
func RunQPACKDecoders(targets []qpack.DecoderTarget, opts QPACKDecoderOptions) (*Report, error) {
	start := time.Now()
	if len(targets) == 0 {
		return nil, errors.New("certify: no QPACK decoder to certify")
	}
	rules, err := runRules("decoder", engine.Names(targets), opts.Strict, opts.ExpectFail, opts.Declared)
	if err != nil {
		return nil, err
	}
	cases, graded, err := qdecoders.Run(targets, opts)
	if err != nil {
		return nil, err
	}
	rep := newSideReport(fromQPACKDecoderCases(cases), opts.Strict, start, QPACKDecoderCatalogueVersion(), SubjectQPACKDecoders,
		qif.TrafficSource+", encoded by the reference QPACK encoder, and hand-built octets")
	side := make([]sideGraded, len(graded))
	for i, g := range graded {
		side[i] = sideGraded{name: g.Name, results: g.Results, info: TargetInfo{Kind: g.Kind, Reported: g.Target.Name(), Lacks: g.Lacks, Elapsed: g.Elapsed,
			Breakdown: g.Breakdown, BreakdownRepro: g.BreakdownRepro, BreakdownStderr: g.BreakdownStderr}}
	}
	rep.settle(rules, side)
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// QPACKDecoderCases returns the qdec/ cases as the Report lists them.
func QPACKDecoderCases() []Case { return fromQPACKDecoderCases(qdecoders.Cases()) }

// SelectQPACKDecoderCases returns the qdec/ cases whose id starts with
// one of prefixes (all for none), or an error naming a prefix no qdec/
// case has.
func SelectQPACKDecoderCases(prefixes []string) ([]Case, error) {
	cases, err := qdecoders.SelectCases(prefixes)
	return fromQPACKDecoderCases(cases), err
}

func fromQPACKDecoderCases(cases []qdecoders.Case) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		out[i] = Case{ID: c.ID, Section: c.Section, Title: c.Title, RFC: c.RFC, Violation: c.Violation, spec: "RFC 9204"}
	}
	return out
}

var qpackDecoderCatalogue = sync.OnceValue(func() string { return digest("QPACK decoder cases", QPACKDecoderCases()) })

// QPACKDecoderCatalogueVersion names the qdec/ catalogue.
func QPACKDecoderCatalogueVersion() string { return qpackDecoderCatalogue() }
