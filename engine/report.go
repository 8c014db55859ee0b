package engine

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// TargetInfo describes one target of a run, an encoder or a decoder.
type TargetInfo struct {
	// Kind is how the target was driven: "in-process", "stdio",
	// "recorded" or "live".
	Kind string
	// Reported is the name (and version) the target gave for itself, the
	// answer to hello for a stdio program; for others, Target.Name.
	Reported string
	// Binary is set for a stdio encoder that offered the binary form.
	Binary bool
	// Lacks lists what the target declared its library cannot do
	// (certify's Lacks.String, DecoderLacks.Names), "" for nothing.
	Lacks string
	// Elapsed is how long its cases took.
	Elapsed time.Duration
	// Breakdown, when set, is the target's one failure as a whole: the
	// target broke the protocol, crashed or timed out ("encoder broke
	// hpack-stdio at request N: ..."), or a live target stopped before its
	// schedule ended. Nothing is played through the target from
	// there on; the run fails.
	Breakdown string
	// BreakdownRepro reproduces the breakdown, the blocks up to the one it
	// happened on, and BreakdownStderr is the end of what the target
	// wrote to its standard error by then (stdio programs).
	BreakdownRepro, BreakdownStderr string
	// BreakdownExpected is set when the breakdown was listed as expected
	// ("NAME breakdown" in an expect file, Options.ExpectFail): a known
	// finding, reported as such, that does not fail the run.
	BreakdownExpected bool
	// NothingJudgedExpected is set when the run judged nothing for the
	// target (Report.NothingJudged) and it was declared to ("NAME
	// nothing-judged" in an expect file): the run does not fail for it.
	NothingJudgedExpected bool
	// Live describes a target whose blocks were captured live over
	// HTTP/2 (hpackcert live); nil for the others.
	Live *LiveInfo
}

// LiveInfo describes a target captured live: a server, proxy or client
// whose header blocks hpackcert read off the wire. Its strings come from
// the target and its catalogue entry; the report writers escape them.
type LiveInfo struct {
	// Version is the target's version, when known: "1.22.1".
	Version string
	// Role is "server", "proxy" or "client".
	Role string
	// Encoder says whose HPACK encoder the target uses, when known.
	Encoder string
	// Where is the URL or command captured.
	Where string
	// Transport is "h2c" (prior knowledge) or "TLS".
	Transport string
	// Transform is what the target was declared to do to the header
	// lists; Declared is set when it declares anything (a client with no
	// transformation declares nothing).
	Transform string
	Declared  bool
	// Blocks and Conns count the header blocks and connections captured.
	Blocks, Conns int
	// Notes say what went wrong or was left out, one line each.
	Notes []string
	// Elapsed is how long the capture took.
	Elapsed time.Duration
}

// Ungraded is a MUST case a run did not grade for an encoder.
type Ungraded struct {
	Case string
	// Why is the case's detail: why it could not be graded.
	Why string
}

// Repro says where a run wrote the reproductions of its failures (story
// files that hpackcert repro replays) and how to replay the first one.
// Every report names both, so that whoever reads a failed gate's report
// can replay the failure.
type Repro struct {
	// Dir is the folder of the story files.
	Dir string
	// Files is how many story files were written: one per failed or
	// non-strict case of each encoder.
	Files int
	// Replay is a shell command replaying the first failure; empty when
	// no story file was written.
	Replay string
}

// Text returns the sentence every report prints of r, in plain text; each
// format escapes it as it escapes any other text.
func (r Repro) Text() string {
	if r.Files == 0 {
		return fmt.Sprintf("reproductions: none to write to %s (no case failed)", r.Dir)
	}
	files := "1 story file"
	if r.Files != 1 {
		files = fmt.Sprintf("%d story files", r.Files)
	}
	return fmt.Sprintf("reproductions: %s in %s; replay one with\n  %s", files, r.Dir, r.Replay)
}

// ReproPath is the file a run writes the reproduction of case id
// for the target named name to: the name's letters, digits and -._ (64
// at most), then the case id with "_" for "/".
func ReproPath(dir, name, id string) string {
	safe := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.', r == '_':
			return r
		}
		return '_'
	}, name)
	if len(safe) > 64 {
		safe = safe[:64]
	}
	return filepath.Join(dir, safe+"--"+strings.ReplaceAll(id, "/", "_")+".json")
}
