// Package decoders is the decoder side of hpackcert's HPACK
// certification: the dec/ cases, the stories each decodes, how a decoder
// target is played (a fresh context per story) and judged against the
// strict decoder, the root cause of a divergence (a feature chain), the
// timing of dec/7.3/2 and the reproduction files. It grades (Run); the
// rules of a run and the Report are the engine's (package engine, the top-level engine/)
// and package certify's, whose RunDecoders settles and reports what this
// package graded, as it does for encoders.
//
// The files: dectarget.go (DecoderTarget, Decoder, Rejection and the
// interfaces a decoder may implement), deccases.go (the dec/ catalogue),
// decstories.go and decscenarios.go (the stories), decwire.go (the block
// writer), decprepare.go (the strict decoder's expectations), decrun.go
// (Run), decgrade.go (a case graded), decplay.go (a story played: each
// block's answer recorded as the decoder side's transcript,
// transcript.DecoderAnswer, then judged), decbreakdown.go, decdiff.go
// (differences in words), dectiming.go
// (dec/7.3/2), decrepro.go (reproductions), side.go (the engine's types
// under this package's names).
package decoders

import (
	"github.com/hpackcert/hpackcert/engine"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// Field is the module's one header-field type.
type Field = spec.Field

// The engine's verdict types, as this side's results use them.
type (
	Result      = engine.Result
	Evidence    = engine.Evidence
	Grade       = engine.Grade
	Consequence = engine.Consequence
	Declaration = engine.Declaration
)

// The grades.
const (
	Pass        = engine.Pass
	Info        = engine.Info
	Unsupported = engine.Unsupported
	NonStrict   = engine.NonStrict
	Fail        = engine.Fail
)

// BreakdownCause is the Result.CausedBy of a case the breakdown left
// nothing to judge.
const BreakdownCause = engine.BreakdownCause

// Case describes one dec/ case, as a report lists it.
type Case struct {
	// ID is the case's identifier, dec/<RFC 7541 section>/<n>.
	ID string
	// Section is the RFC 7541 section the case checks.
	Section string
	// Title says in a few words what the case checks.
	Title string
	// RFC is the text of the RFC the case checks.
	RFC string
	// Violation is the grade a decoder gets when it breaks the rule.
	Violation Grade
}

func plural(n int, one, many string) string { return engine.Plural(n, one, many) }
