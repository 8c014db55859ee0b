// Package qdecoders is the decoder side of hpackcert's QPACK (RFC 9204)
// certification, as package decoders is for HPACK: the qdec/ cases, the
// stories each plays (encoder-stream octets, field sections on request
// streams and stream resets, under the settings of a connection), how a
// qpack.DecoderTarget is played (a fresh connection per story) and judged
// against the strict decoder (oracle/qstrict), and the root cause of a
// divergence (a feature chain). It grades (Run); the rules of a run and
// the Report are the engine's and package certify's, whose glue settles
// and reports what this package graded, as it does for the dec/ cases.
//
// A refusal is judged by its code: the code of a QPACK connection error
// is all the peer learns (RFC 9204 §6), so a refusal with another code
// fails the refusal case, and so does one with no code at all
// (qpack.ConnectionError.Code ""): no principled reading gives a
// codeless refusal the right code. A source whose library says no code
// gives the one its HTTP/3 layer closes with, as source/inprocess does
// for quic-go/qpack. Only qdec/7.3/1, whose limit is HTTP/3's, takes any
// code.
//
// The files: side.go (the engine's types under this package's names),
// lacks.go (what a decoder declares it cannot do), cases.go (the qdec/
// catalogue), wire.go (the writer of hand-built octets), stories.go and
// invalid.go (the stories), prepare.go (the strict decoder's
// expectations), run.go (Run and a case graded), play.go (a story
// played and judged), compare.go (sections compared) and stream.go (the
// decoder stream read by meaning).
package qdecoders

import (
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/engine"
)

// Field is the module's one header-field type.
type Field = qpack.Field

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

// Case describes one qdec/ case, as a report lists it.
type Case struct {
	// ID is the case's identifier, qdec/<RFC 9204 section>/<n>.
	ID string
	// Section is the RFC 9204 section the case checks.
	Section string
	// Title says in a few words what the case checks.
	Title string
	// RFC is the text of the RFC the case checks.
	RFC string
	// Violation is the grade a decoder gets when it breaks the rule.
	Violation Grade
}

func plural(n int, one, many string) string { return engine.Plural(n, one, many) }
