// Package certify is the certification engine of hpackcert: it grades
// HPACK (RFC 7541) header encoders from the transcripts sources give it.
//
// hpackcert is one pipeline: a source makes a transcript (blocks with the
// table sizes acknowledged before each, the fields sent where known, the
// wire: package certify/transcript's types, one per side), this package
// grades it, and package report renders the results. The sources are
// packages of their own, and this one imports none:
//
//   - in process: anything implementing Encoder, through Func or
//     TestEncoder (source/inprocess names the built-in encoders);
//   - over stdio, in any language: source/stdio's Exec starts a program
//     speaking the hpack-stdio/1 protocol;
//   - recorded wire: source/recorded reads story files of the
//     hpack-test-case format into a Recording and hands it to Recorded;
//   - live HTTP/2 capture: source/live captures the blocks of real
//     servers, proxies and clients, and certify/livegrade converts the
//     capture into a Recording too, describing each target in the Report
//     (TargetInfo.Live).
//
// A source that plays scenarios itself is a Player (Recorded's target
// is one); the engine plays the encoders of the first two itself, block
// by block (package transcript's doc says why).
//
// For an encoder it drives, the engine plays traffic stories (hpack-test-
// case's raw-data, embedded in package vectors), generated adversarial
// sequences and targeted scenarios (vectors.Scenario), decodes every block
// with every oracle built into the binary (oracle/panel: oracle/strict,
// x/net's decoder and, with -tags nghttp2, libnghttp2's), splits the wire
// with internal/wire, which also checks what decoders throw away (integer
// minimality, Huffman padding, each string's Huffman code on its own), and
// grades a fixed list of cases. Case ids follow h2spec's style,
// enc/<RFC 7541 section>/<n>; grades follow Autobahn's: pass, non-strict
// (a SHOULD or an efficiency rule broken), fail (a MUST broken), info and
// unsupported. Each block is judged by every rule as it is decoded, then
// released; a check declares what else it needs (the reference encoder's
// traffic, a replay) and the engine provides it.
//
// A verdict is exact (DESIGN.md, "Certification"):
//
//   - evidence (evidence.go): each case counts what it judged (blocks,
//     representations, insertions, evictions, size updates, Huffman
//     strings, sensitive fields) and the instances of its own rule; a pass
//     needs one, and a case that judged none is unsupported, "not
//     exercised", with the reason. A departure from DESIGN.md: when the
//     case's rule is about a representation RFC 7541 leaves to the
//     encoder (Huffman-coded strings, §5.2; entries of the dynamic
//     table, §6.2; the table's size, §4.2, when the encoder's table was
//     too small for any entry or 0 whenever a setting came) and the
//     encoder used it in none of the blocks it wrote, the case is
//     unsupported and not applicable (n/a,
//     Result.NotApplicable, optionalUse in evidence.go) and fails no run:
//     nothing any scenario could send would give the rule an instance,
//     so it is no lack to declare; a single use, or a single block the
//     encoder refused, makes the rule apply;
//   - root cause (diagnose.go, whose package-level comment gives the order
//     in which rules are asked of a block): once the encoder's output and
//     the decoders' view diverge in a story, the divergence is filed under
//     the rule first broken, and what follows in the story is listed under
//     it as consequences, judged by no case;
//   - a breakdown (an encoder's error, crash, timeout or protocol
//     violation; a live target that stopped early) is the target's one
//     failure (TargetInfo.Breakdown), not a failure of each case, and
//     nothing is played through the target after it, on either side: a
//     program that stopped answering costs one timeout, and what the
//     scenarios or stories after it would judge is its consequence;
//   - nothing ungraded passes: a MUST case left unsupported (and
//     applicable) for an encoder
//     the engine drives fails the run unless declared (Options.Declared,
//     Report.Ungraded); a recording states what it does not exercise;
//   - side results (coverage, the rules no decoder checks, non-strict
//     ones among them) come only from blocks every oracle decoded.
//
// The verdict model both sides share (grades, results and evidence,
// declarations and the expect file, expected failures, strict, target
// names and kinds, the stderr tail of a breakdown, a target's part of the
// report) is package engine's (the module's top-level engine/); the decoder side is package
// certify/decoders (Run grades, RunDecoders here settles and reports);
// an encoder's lacks and the stories it is given instead are package
// certify/lacks. This package keeps their names as aliases and thin
// wrappers, and settles every result of either side with engine.Rules.
//
// The files of the encoder side: cases.go (Case, selection), catalogue.go
// (the enc/ cases), caserun.go (a case run against a target),
// checks.go, octets.go and measure.go (the rules and measurements),
// evidence.go, diagnose.go, scenarios.go, play.go (the play loop, a
// scenario played), decode.go, diff.go, repro.go, transcript.go,
// coverage.go, relayed.go, recorded.go (Recorded, the Player of a
// recording, and the transcript types' names), options.go, run.go (Run),
// judge.go (a case judged: the shared checks, the breakdown),
// targetkinds.go (the markers a target declares itself with, Player
// among them), lacker.go
// (Lacks, Declare). Of the decoder side: decside.go (its names),
// decrun.go (RunDecoders, ReplayDecoder). Of both: expect.go (runRules,
// the expect file), reprofiles.go (WriteRepros), report.go (the Report),
// version.go. The public API for a Go encoder's own tests: func.go (Func,
// a target of an in-process encoder) and testencoder.go (TestEncoder).
//
// The package imports package encoder for one thing: Reference, the
// reference encoder that the compression-ratio case compares every
// encoder with (a departure from DESIGN.md's arrows, which would have the
// engine import only oracle and vectors). It does not import testing
// (TestEncoder is generic over the test type), so that the hpackcert
// command does not link it.
package certify

import (
	"errors"

	"github.com/hpackcert/hpackcert/engine"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"

	// Every verdict uses every oracle built into the binary: strict, ref,
	// x/net and, with -tags nghttp2, nghttp2.
	_ "github.com/hpackcert/hpackcert/oracle/all"
)

// Field is a header field to encode: spec.Field, the module's one
// header-field type. Sensitive marks a field the encoder must never
// index: it must be sent as a "Literal Header Field Never Indexed" (RFC
// 7541 §6.2.3, §7.1.3).
type Field = spec.Field

// Encoder is one HPACK encoding context, as one HTTP/2 connection writer
// holds it. A new Encoder starts with an empty dynamic table whose maximum
// size is 4096 octets, the initial SETTINGS_HEADER_TABLE_SIZE.
type Encoder interface {
	// SetMaxDynamicTableSize records a SETTINGS_HEADER_TABLE_SIZE value the
	// peer acknowledged. Several calls may come between two blocks; the
	// encoder signals them at the start of the next block (RFC 7541 §4.2).
	SetMaxDynamicTableSize(n uint32) error
	// EncodeBlock appends one complete header block holding fields, in
	// order, to dst and returns the extended buffer.
	EncodeBlock(dst []byte, fields []Field) ([]byte, error)
}

// TableReader is implemented by encoders that can show their dynamic table.
// The certifier then compares it with every oracle's table after each
// block, which finds a disagreement as soon as it happens rather than when
// a later block refers to the entry.
type TableReader interface {
	// Table returns the dynamic table, newest entry first.
	Table() []oracle.Field
}

// Target is an encoder implementation under certification: a name for the
// reports and a way to open fresh encoding contexts.
type Target interface {
	// Name identifies the implementation in reports.
	Name() string
	// NewEncoder returns a fresh encoding context.
	NewEncoder() (Encoder, error)
	// Close releases what the target holds (a child process, C memory).
	Close() error
}

// Grade is the verdict of one case for one target (engine.Grade).
type Grade = engine.Grade

// The grades, from best to worst; Unsupported and Info are neither.
const (
	Pass        = engine.Pass
	Info        = engine.Info
	Unsupported = engine.Unsupported
	NonStrict   = engine.NonStrict
	Fail        = engine.Fail
)

// ErrTimeout is returned by an encoder that did not answer a request in time.
var ErrTimeout = errors.New("certify: encoder did not answer in time")

// The result of a case and what it judged, written once for both sides
// in package engine.
type (
	// Result is the outcome of one case for one target.
	Result = engine.Result
	// Consequence is what followed from a root cause in the stories it
	// broke.
	Consequence = engine.Consequence
	// Evidence counts what a case judged.
	Evidence = engine.Evidence
)

// BreakdownCause is the Result.CausedBy of a case left with nothing to
// judge by the target's breakdown (TargetInfo.Breakdown).
const BreakdownCause = engine.BreakdownCause

func plural(n int, one, many string) string { return engine.Plural(n, one, many) }

func instancesOf(n int, of string) string { return engine.InstancesOf(n, of) }
