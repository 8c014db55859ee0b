// Package certify certifies HPACK (RFC 7541) header encoders.
//
// It drives an encoder through traffic stories, generated adversarial
// sequences and targeted scenarios, decodes every header block it produces
// with oracle/strict and with every other oracle built into the binary, and
// grades the encoder on a fixed list of cases. Case ids follow h2spec's
// style, enc/<RFC 7541 section>/<n>; grades follow Autobahn's: pass,
// non-strict (a SHOULD or an efficiency rule broken), fail (a MUST broken),
// info and unsupported.
//
// There are three ways to drive an encoder:
//
//   - in process: anything implementing Encoder, through Func or
//     TestEncoder (package source/inprocess names the built-in ones);
//   - over stdio, in any language: package source/stdio's Exec starts a
//     program speaking the hpack-stdio/1 protocol (its Serve implements
//     the encoder side);
//   - from recorded story files in the hpack-test-case format: Recorded
//     grades the wire another implementation wrote down.
//
// Every block is decoded by oracle/strict and by every other oracle in
// oracle.Available(); the package imports oracle/all, so that is x/net's
// decoder and, in binaries built with -tags nghttp2, libnghttp2's. The
// wire itself is split by internal/wire, which also checks what decoders
// throw away (integer minimality, Huffman padding, each string's Huffman
// code on its own).
//
// The traffic is hpack-test-case's raw-data stories, embedded in package
// vectors; targeted scenarios reach every static entry and name, every
// Huffman code and every integer prefix boundary whatever the traffic, and
// the report's Coverage says what each encoder's wire exercised.
//
// The package does not import testing (TestEncoder is generic over the
// test type) so that the hpackcert command does not link it. It imports
// no source: sources (source/stdio, certify/live) import it.
//
// Run grades one or more targets and returns a Report, which writes itself
// as text, JSON, JUnit XML, an HTML matrix or Markdown.
package certify

import (
	"errors"
	"fmt"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"

	// Every verdict uses every oracle built into the binary: strict, x/net
	// and, with -tags nghttp2, nghttp2.
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

// Grade is the verdict of one case for one encoder.
type Grade int

// The grades, from best to worst; Unsupported and Info are neither.
const (
	Pass        Grade = iota // the encoder does what the RFC text says
	Info                     // a measurement, never a verdict
	Unsupported              // the case cannot run against this target
	NonStrict                // a SHOULD, or an efficiency rule, is broken
	Fail                     // a MUST is broken, or the encoder broke down
)

var gradeNames = [...]string{
	Pass:        "pass",
	Info:        "info",
	Unsupported: "unsupported",
	NonStrict:   "non-strict",
	Fail:        "fail",
}

// String returns the grade as the reports spell it: "pass", "non-strict",
// "fail", "info" or "unsupported".
func (g Grade) String() string {
	if g < 0 || int(g) >= len(gradeNames) {
		return fmt.Sprintf("Grade(%d)", int(g))
	}
	return gradeNames[g]
}

// MarshalText implements encoding.TextMarshaler.
func (g Grade) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (g *Grade) UnmarshalText(text []byte) error {
	for i, name := range gradeNames {
		if string(text) == name {
			*g = Grade(i)
			return nil
		}
	}
	return fmt.Errorf("certify: unknown grade %q", text)
}

// ErrTimeout is returned by an encoder that did not answer a request in time.
var ErrTimeout = errors.New("certify: encoder did not answer in time")
