package fuzz

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// A QScript is what the QPACK round-trip target decodes its input into:
// one HTTP/3 connection, the settings its decoder sent, the header lists
// its encoder is given and the schedule by which the encoder's output
// reaches the decoders and their decoder stream reaches the encoder.
//
// ParseQScript turns any byte string into a QScript; QScript.Bytes goes
// back. The format: three octets of settings, then one op after another:
//
//	header     2 octets big-endian, modulo 4,097:
//	           SETTINGS_QPACK_MAX_TABLE_CAPACITY; 1 octet modulo 101:
//	           SETTINGS_QPACK_BLOCKED_STREAMS
//	0x00-0x7f  a header field, as in a Script (the static sources are
//	           entries of the QPACK static table, the next octet modulo 99)
//	0x80-0x9f  the header list is complete: encode it as the field section
//	           of the next request stream (0, 4, 8, ...)
//	0xa0-0xbf  the decoders receive the next N = low 5 bits octets of the
//	           encoder stream written so far (N = 0: all of them)
//	0xc0-0xdf  the decoders receive the field section N = low 5 bits,
//	           modulo the number written and not yet received or reset,
//	           counted from the oldest
//	0xe0-0xef  the encoder receives the next N = low 4 bits octets of what
//	           the strict decoder wrote on the decoder stream (N = 0: all)
//	0xf0-0xff  the stream of section N = low 4 bits, counted as for 0xc0,
//	           is reset before its section arrives
//
// At the end every octet written is delivered, the sections not reset in
// the order written, and the decoder stream fed back. The bounds are a
// Script's: MaxScriptInput octets, MaxString octets a string,
// MaxScriptListSize for all the header lists, MaxScriptBlocks ops other
// than fields.
type QScript struct {
	Settings qpack.Settings
	Ops      []QOp
}

// QOpKind says what a QOp does.
type QOpKind uint8

// The kinds of QOp.
const (
	QOpField         QOpKind = iota // add Name: Value to the header list, never indexed if Sensitive
	QOpEndSection                   // encode the header list
	QOpEncoderStream                // deliver N octets of the encoder stream (0: all)
	QOpSection                      // deliver the N-th pending section
	QOpFeedback                     // hand the encoder N octets of the decoder stream (0: all)
	QOpReset                        // reset the stream of the N-th pending section
)

// A QOp is one step of a QScript.
type QOp struct {
	Kind        QOpKind
	Name, Value string
	Sensitive   bool
	N           int
}

// The settings' ranges, and the octets that start each kind of op.
const (
	qscriptMaxCapacity = 4096
	qscriptMaxBlocked  = 100
	qopEndSection      = 0x80
	qopEncoderStream   = 0xa0
	qopSection         = 0xc0
	qopFeedback        = 0xe0
	qopReset           = 0xf0
)

// qpackStatic is the QPACK static table as a slice, for the field ops.
var qpackStatic = qspec.StaticTable[:]

// ParseQScript decodes data as a QScript. Every input is a valid QScript.
func ParseQScript(data []byte) *QScript {
	s := &QScript{}
	s.parse(data)
	return s
}

// parse sets s to the script data holds, reusing the array of s.Ops, and
// returns how many octets of data it read: all unless a bound stopped it.
func (s *QScript) parse(data []byte) int {
	r := &scriptReader{data: data[:min(len(data), MaxScriptInput)]}
	*s = QScript{Ops: s.Ops[:0]}
	s.Settings.MaxTableCapacity = uint64(r.uint16()) % (qscriptMaxCapacity + 1)
	s.Settings.BlockedStreams = uint64(r.byte()) % (qscriptMaxBlocked + 1)
	var names, values []string
	listSize, others := 0, 0
	for !r.done() {
		start := r.pos
		b := r.byte()
		if b <= opFieldMax {
			name, value := r.field(qpackStatic, b, names, values)
			size := len(name) + len(value) + spec.EntryOverhead
			if listSize+size > MaxScriptListSize {
				return start
			}
			listSize += size
			names, values = append(names, name), append(values, value)
			s.Ops = append(s.Ops, QOp{Kind: QOpField, Name: name, Value: value, Sensitive: b&fieldSensitive != 0})
			continue
		}
		if others == MaxScriptBlocks {
			return start
		}
		others++
		switch {
		case b < qopEncoderStream:
			s.Ops = append(s.Ops, QOp{Kind: QOpEndSection})
		case b < qopSection:
			s.Ops = append(s.Ops, QOp{Kind: QOpEncoderStream, N: int(b & 0x1f)})
		case b < qopFeedback:
			s.Ops = append(s.Ops, QOp{Kind: QOpSection, N: int(b & 0x1f)})
		case b < qopReset:
			s.Ops = append(s.Ops, QOp{Kind: QOpFeedback, N: int(b & 0x0f)})
		default:
			s.Ops = append(s.Ops, QOp{Kind: QOpReset, N: int(b & 0x0f)})
		}
	}
	return len(r.data)
}

// Bytes encodes s in the format ParseQScript reads. It fails for settings
// or an N out of range, or a string longer than MaxString.
func (s *QScript) Bytes() ([]byte, error) {
	if s.Settings.MaxTableCapacity > qscriptMaxCapacity || s.Settings.BlockedStreams > qscriptMaxBlocked {
		return nil, fmt.Errorf("fuzz: settings %+v out of range (capacity at most %d, blocked streams at most %d)", s.Settings, qscriptMaxCapacity, qscriptMaxBlocked)
	}
	out := binary.BigEndian.AppendUint16(nil, uint16(s.Settings.MaxTableCapacity))
	out = append(out, byte(s.Settings.BlockedStreams))
	var names, values []string
	for i, op := range s.Ops {
		base, max := qopEndSection, 0
		switch op.Kind {
		case QOpField:
			var err error
			if out, err = appendFieldOp(out, qpackStatic, Op{Kind: OpField, Name: op.Name, Value: op.Value, Sensitive: op.Sensitive}, names, values); err != nil {
				return nil, fmt.Errorf("fuzz: op %d: %v", i, err)
			}
			names, values = append(names, op.Name), append(values, op.Value)
			continue
		case QOpEncoderStream:
			base, max = qopEncoderStream, 0x1f
		case QOpSection:
			base, max = qopSection, 0x1f
		case QOpFeedback:
			base, max = qopFeedback, 0x0f
		case QOpReset:
			base, max = qopReset, 0x0f
		}
		if op.N < 0 || op.N > max {
			return nil, fmt.Errorf("fuzz: op %d: N %d out of 0..%d", i, op.N, max)
		}
		out = append(out, byte(base+op.N))
	}
	return out, nil
}

// String prints the script one op a line, for failure messages.
func (s *QScript) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "qpack script: SETTINGS_QPACK_MAX_TABLE_CAPACITY %d, SETTINGS_QPACK_BLOCKED_STREAMS %d, %d ops\n",
		s.Settings.MaxTableCapacity, s.Settings.BlockedStreams, len(s.Ops))
	section := 0
	for _, op := range s.Ops {
		switch op.Kind {
		case QOpField:
			fmt.Fprintf(&b, "    %s: %s", quoteShort(op.Name), quoteShort(op.Value))
			if op.Sensitive {
				b.WriteString(" (sensitive)")
			}
			b.WriteByte('\n')
		case QOpEndSection:
			fmt.Fprintf(&b, "  encode section %d (stream %d)\n", section, 4*section)
			section++
		case QOpEncoderStream:
			fmt.Fprintf(&b, "  deliver %s of the encoder stream\n", octetsOrAll(op.N))
		case QOpSection:
			fmt.Fprintf(&b, "  deliver pending section %d\n", op.N)
		case QOpFeedback:
			fmt.Fprintf(&b, "  feed back %s of the decoder stream\n", octetsOrAll(op.N))
		case QOpReset:
			fmt.Fprintf(&b, "  reset the stream of pending section %d\n", op.N)
		}
	}
	return b.String()
}

func octetsOrAll(n int) string {
	if n == 0 {
		return "all octets"
	}
	return fmt.Sprintf("%d octets", n)
}
