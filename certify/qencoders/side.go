// Package qencoders is the encoder side of hpackcert's QPACK (RFC 9204)
// certification: the qenc/ cases, the scenarios an encoder is played
// through, the play itself (the certifier acts as the decoder: it holds
// back or delivers what the encoder wrote, and answers on the decoder
// stream with what the strict decoder, oracle/qstrict, owes) and the
// judging of the transcript that results, whoever made it: a played
// encoder, a recording, a live capture (certify/qpack.Player).
//
// A transcript is judged twice over, once from each end of the
// connection. The encoder's view (encview.go) follows the encoder stream,
// the field sections and the decoder-stream octets in the order the
// encoder wrote and read them, keeps the table the encoder must have kept
// and checks every rule that binds the encoder at the moment it wrote:
// capacity, insertion, eviction, the blocked-streams budget, the Required
// Insert Count and Base, each reference, the never-indexed fields, the
// answers to the certifier's bad decoder-stream octets. The decoder's
// view (decview.go) delivers the same octets to the strict decoder in the
// order the certifier chose and compares each decoded section to the
// header list sent. Every finding of the encoder's view is a root cause
// of its own; a finding of the decoder's view that follows one in the
// same transcript is its consequence, not a second failure, so each
// defect is reported once, under the rule it breaks.
//
// The rules of a run and the Report are the engine's (package engine)
// and package certify's, whose RunQPACKEncoders settles and reports
// what this package graded, as it does for the HPACK sides.
//
// The files: side.go (the engine's types, Case), cases.go (the qenc/
// catalogue), scenarios.go (what a played encoder is given), play.go (a
// scenario played into a transcript), encview.go and decview.go (the two
// views), judge.go (a transcript judged: findings and evidence), run.go
// (Run: every target graded).
package qencoders

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

// Case describes one qenc/ case, as a report lists it.
type Case struct {
	// ID is the case's identifier, qenc/<RFC 9204 section>/<n>.
	ID string
	// Section is the RFC 9204 section the case checks.
	Section string
	// Title says in a few words what the case checks.
	Title string
	// RFC is the text of the RFC the case checks.
	RFC string
	// Violation is the grade an encoder gets when it breaks the rule.
	Violation Grade
}

func plural(n int, one, many string) string { return engine.Plural(n, one, many) }
