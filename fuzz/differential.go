package fuzz

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// A Session is what the decoder differential target decodes its input
// into: what
// one HPACK decoding context receives, header blocks of arbitrary octets
// and the SETTINGS_HEADER_TABLE_SIZE values acknowledged between them.
//
// ParseSession reads any input; its format, one op after another:
//
//	0x00-0xdf  a header block of that many octets (fewer at the end of input)
//	0xe0-0xef  a header block of (low 4 bits << 8 | next octet) octets
//	0xf0-0xff  a setting acknowledged: 2 octets of size follow, big-endian,
//	           or 4 when bit 0 is set
//
// ParseSession reads the first MaxSessionInput octets of its input, and
// stops before the step past MaxSessionSteps.
type Session struct {
	Steps []Step
}

// A Step is a header block or, when IsSetting, an acknowledged setting.
type Step struct {
	IsSetting bool
	Size      uint32
	Block     []byte
}

// Limits that keep every run of a session within a few milliseconds.
const (
	// MaxSessionSteps bounds the blocks and settings of a session: every
	// oracle lists its dynamic table after each block, and a block costs
	// one octet of input.
	MaxSessionSteps = 64
	// MaxSessionInput is how many octets of its input ParseSession reads,
	// and so the octets of all its blocks together, which every oracle
	// decodes (an octet can be an indexed field naming an entry of
	// hundreds of octets, which x/net decodes without a header list
	// limit): room for a string of a three-octet length (§5.1, from 255
	// on). Like MaxScriptInput, it bounds what the go command's minimizer
	// can be asked to do with one input, on the order of n² executions for
	// n octets that cannot go; the octets of a block rarely can.
	MaxSessionInput = 320
)

const (
	sessionShortMax = 0xdf
	sessionLongMax  = 0xef
	sessionSize32   = 1 << 0
)

// ParseSession decodes data as a Session. Every input is a valid session.
// The blocks are slices of data, not copies.
func ParseSession(data []byte) *Session {
	s := &Session{}
	s.parse(data)
	return s
}

// parse sets s to the session data holds, reusing the array of s.Steps,
// and returns how many octets of data it read: all of them unless a bound
// stopped it.
func (s *Session) parse(data []byte) int {
	r := &scriptReader{data: data[:min(len(data), MaxSessionInput)]}
	s.Steps = s.Steps[:0]
	for !r.done() {
		start := r.pos
		if len(s.Steps) == MaxSessionSteps {
			return start
		}
		b := r.byte()
		if b <= sessionLongMax {
			n := int(b)
			if b > sessionShortMax {
				n = int(b&0x0f)<<8 | int(r.byte())
			}
			s.Steps = append(s.Steps, Step{Block: r.slice(n)})
			continue
		}
		size := uint32(r.uint16())
		if b&sessionSize32 != 0 {
			size = size<<16 | uint32(r.uint16())
		}
		s.Steps = append(s.Steps, Step{IsSetting: true, Size: size})
	}
	return len(r.data)
}

// Bytes encodes s in the format ParseSession reads. It fails for a block
// longer than 4095 octets.
func (s *Session) Bytes() ([]byte, error) {
	var out []byte
	for i, st := range s.Steps {
		switch {
		case st.IsSetting && st.Size > 0xffff:
			out = append(out, 0xf0|sessionSize32)
			out = binary.BigEndian.AppendUint32(out, st.Size)
		case st.IsSetting:
			out = append(out, 0xf0)
			out = binary.BigEndian.AppendUint16(out, uint16(st.Size))
		case len(st.Block) <= sessionShortMax:
			out = append(out, byte(len(st.Block)))
			out = append(out, st.Block...)
		case len(st.Block) < 1<<12:
			out = append(out, 0xe0|byte(len(st.Block)>>8), byte(len(st.Block)))
			out = append(out, st.Block...)
		default:
			return nil, fmt.Errorf("fuzz: step %d: block of %d octets is longer than 4095", i, len(st.Block))
		}
	}
	return out, nil
}

// String prints the session one step a line, blocks in hex.
func (s *Session) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "session: %d steps\n", len(s.Steps))
	block := 0
	for _, st := range s.Steps {
		if st.IsSetting {
			fmt.Fprintf(&b, "  SETTINGS_HEADER_TABLE_SIZE = %d\n", st.Size)
			continue
		}
		block++
		fmt.Fprintf(&b, "  block %d (%d octets): %x\n", block, len(st.Block), st.Block)
	}
	return b.String()
}

// CheckDecoderDifferential is the body of the decoder differential target.
// It feeds
// the session decoded from data to the strict oracle, to a fresh decoder
// from each factory in others (factories of the strict oracle are skipped)
// and to the broken decoder without bugs (internal/broken), and compares
// every block's outcome with strict's: accept or reject, the fields with
// their never-indexed marks, and the dynamic table. A difference of an
// oracle listed in oracle.KnownLeniencies takes that oracle out of the
// rest of the session, since its table may now differ; the broken
// decoder has no leniencies, and must agree with strict on every block.
// Once strict rejects a block the session ends, as an HTTP/2 connection
// would. The error, if any, ends with the session.
func CheckDecoderDifferential(data []byte, others []func() oracle.Decoder) error {
	return newChecker(others).decoderDifferential(data)
}

func (c *checker) decoderDifferential(data []byte) error {
	s := &c.session
	s.parse(data)
	if err := c.runDifferential(s); err != nil {
		return fmt.Errorf("%w\n%s", err, s)
	}
	return nil
}

type outcome struct {
	fields []oracle.Field
	err    error
	table  []oracle.Field
}

func decode(d oracle.Decoder, block []byte) outcome {
	fields, err := d.DecodeBlock(block)
	if err != nil {
		return outcome{err: err}
	}
	return outcome{fields: fields, table: d.Table()}
}

func (c *checker) runDifferential(s *Session) error {
	ref := c.reference()
	var decoders []oracle.Decoder
	for i := range c.oracles {
		if d := c.decoder(i); d.Name() != strict.Name {
			decoders = append(decoders, d)
		}
	}
	independent := newIndependent(c.independentBugs)
	block := 0
	for _, st := range s.Steps {
		if st.IsSetting {
			ref.SetMaxDynamicTableSize(st.Size)
			independent.SetMaxDynamicTableSize(st.Size)
			for _, d := range decoders {
				d.SetMaxDynamicTableSize(st.Size)
			}
			continue
		}
		block++
		want := decode(ref, st.Block)
		if got := decode(independent, st.Block); !agree(got, want) {
			return fmt.Errorf("block %d: %s and strict disagree: %s", block, independent.Name(), compareOutcomes(got, want))
		}
		kept := decoders[:0]
		for _, d := range decoders {
			got := decode(d, st.Block)
			if agree(got, want) {
				kept = append(kept, d)
				continue
			}
			if _, known := knownLeniency(d.Name(), got, want, len(ref.Updates())); known {
				continue
			}
			return fmt.Errorf("block %d: %s and strict disagree: %s", block, d.Name(), compareOutcomes(got, want))
		}
		decoders = kept
		if want.err != nil {
			return nil
		}
	}
	return nil
}

// agree reports whether got and want are both errors, or the same fields
// and table.
func agree(got, want outcome) bool {
	if got.err != nil || want.err != nil {
		return got.err != nil && want.err != nil
	}
	return slices.Equal(got.fields, want.fields) && slices.Equal(got.table, want.table)
}

// compareOutcomes describes how got differs from want, or returns "". It
// is called for a failure only: a known leniency may differ on a block of
// thousands of fields, and describing it costs more than decoding it.
func compareOutcomes(got, want outcome) string {
	switch {
	case got.err != nil && want.err != nil:
		return ""
	case got.err != nil:
		return fmt.Sprintf("it rejects the block (%v); strict decodes %s", got.err, tableString(want.fields))
	case want.err != nil:
		return fmt.Sprintf("it decodes %s; strict rejects the block (%v)", tableString(got.fields), want.err)
	case !slices.Equal(got.fields, want.fields):
		return fmt.Sprintf("it decodes %s; strict decodes %s", fieldsString(got.fields), fieldsString(want.fields))
	case !slices.Equal(got.table, want.table):
		return fmt.Sprintf("its table is %s; strict's is %s", tableString(got.table), tableString(want.table))
	}
	return ""
}

func fieldsString(fields []oracle.Field) string {
	s := tableString(fields)
	var never []string
	for i, f := range fields {
		if f.Sensitive {
			never = append(never, fmt.Sprint(i))
		}
	}
	if len(never) > 0 {
		s += " (never indexed: " + strings.Join(never, ", ") + ")"
	}
	return s
}

// knownLeniency reports whether oracle.KnownLeniencies explains the
// difference between an oracle's outcome got and strict's outcome want,
// for a block that began with updates dynamic table size updates, by the
// rule of oracle.MatchLeniency.
func knownLeniency(name string, got, want outcome, updates int) (oracle.Leniency, bool) {
	d := oracle.Disagreement{Oracle: name}
	switch {
	case got.err == nil && want.err != nil:
		d.Accepted = true
		var strictErr *strict.Error
		if errors.As(want.err, &strictErr) {
			d.Section = strictErr.Section
		}
	case got.err != nil && want.err == nil:
		d.Updates = updates
		for _, f := range want.fields {
			d.LongestString = max(d.LongestString, len(f.Name), len(f.Value))
		}
	default:
		return oracle.Leniency{}, false
	}
	return oracle.MatchLeniency(d)
}
