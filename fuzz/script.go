package fuzz

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
)

// A Script is what the round-trip and x/net encoder targets decode
// their input into: the life of one HPACK encoding context, as a sequence
// of header fields, changes of the acknowledged SETTINGS_HEADER_TABLE_SIZE,
// header block boundaries and connection resets.
//
// ParseScript turns any byte string into a Script and never fails, so every
// input the fuzzer makes is a valid script; Script.Bytes goes back. The wire
// format, one header octet then one op after another:
//
//	header   bits 0-2 select Capacity from 4096, 256, 1024, 64, 16384,
//	         65536, 100, 0 (0 is the encoder's default); bit 3 sets
//	         IndexAll; bits 4-5 select Huffman: 0 and 3 HuffmanShorter,
//	         1 HuffmanNotLonger, 2 HuffmanNever
//	0x00-0x7f  a header field; bit 0 marks it sensitive, bits 1-2 say where
//	           the name comes from, bits 3-4 where the value comes from:
//	             0 static: name (and, for the value, the value) of static
//	               table entry 1 + (next octet % 61); a value "static" with
//	               a name that was not static is empty
//	             1 repeat: the name (value) of an earlier field in the
//	               script, the next octet modulo how many there were
//	               (empty when there were none)
//	             2 literal: a length, then that many octets
//	             3 run: a 2-octet big-endian count, then one octet repeated
//	           a length is one octet below 0xff, or 0xff and 2 octets
//	0x80-0xbf  the peer's SETTINGS_HEADER_TABLE_SIZE changes (and is
//	           acknowledged); 2 octets follow, or 4 when bit 0 is set
//	0xc0-0xef  end of the header block; the round-trip target ends a
//	           block without fields with encoder.AppendSizeUpdates, so it
//	           is sent when size updates are pending
//	0xf0-0xff  reset: a new connection, fresh encoder and decoders
//
// Octets missing at the end of the input read as zero. A setting change
// ends the block being written, because an encoder applies a new setting
// from the next block on (RFC 7541 §4.2). Strings are cut to MaxString
// octets, and parsing stops before the field that would take the script's
// header list size past MaxScriptListSize, and before the op that would end
// a block (a setting change, an end of block or a reset) past
// MaxScriptBlocks; the octets after it are not read, nor any after the
// first MaxScriptInput.
type Script struct {
	// Capacity is the encoder's Config.Capacity.
	Capacity uint32
	// IndexAll selects encoder.IndexAllPolicy instead of the default policy.
	IndexAll bool
	// Huffman is the policy's Huffman mode.
	Huffman encoder.HuffmanMode
	Ops     []Op
}

// OpKind says what an Op does.
type OpKind uint8

// The kinds of Op.
const (
	OpField     OpKind = iota // encode Name: Value, never indexed if Sensitive
	OpTableSize               // the peer's SETTINGS_HEADER_TABLE_SIZE becomes Size
	OpEndBlock                // the current header block is complete
	OpReset                   // the connection is replaced by a new one
)

// An Op is one step of a Script.
type Op struct {
	Kind        OpKind
	Name, Value string
	Sensitive   bool
	Size        uint32
}

// Limits that keep every run of a script within a few milliseconds, and
// decodable by every oracle (see the package doc for what each costs).
const (
	// MaxString is the longest name or value a script holds: long enough
	// for a string length of three octets (§5.1, 7-bit prefix, from 255
	// on) and for fields too large for the table below the default size
	// (a setting change or a capacity of 64, 100, 256 or 1024 makes one),
	// which the encoder sends without indexing.
	MaxString = 1<<10 - 1
	// MaxScriptListSize bounds the header list size (name + value + 32 per
	// field, as SETTINGS_MAX_HEADER_LIST_SIZE counts it) of the whole
	// script, and so of each block: twice the largest capacity below the
	// default (1,024), so that every such table evicts. Every
	// oracle decodes every octet, the strict one a bit at a time, and three
	// octets of a run make a string of MaxString; what an execution costs
	// grows with this bound.
	MaxScriptListSize = 1 << 11
	// MaxScriptBlocks bounds the ops that end a block (setting changes,
	// ends of block, resets), and so the blocks sent and the table
	// comparisons made: an op of one octet would otherwise cost a block.
	MaxScriptBlocks = 64
	// MaxScriptInput is how many octets of its input ParseScript reads.
	// It bounds the minimizer rather than one execution: the go command
	// shrinks each new input by trying to remove every stretch of it, on
	// the order of n² executions for n octets that cannot go, within 60
	// seconds a minimization by default, while fuzzing waits. The script
	// format says much in few octets (a run of 1,023 octets in four, a
	// static or earlier name in two).
	MaxScriptInput = 224
)

var scriptCapacities = [8]uint32{4096, 256, 1024, 64, 16384, 65536, 100, 0}

// Octets that start each kind of op, and the field op's bit layout.
const (
	opFieldMax      = 0x7f
	opTableSizeBase = 0x80
	opTableSizeMax  = 0xbf
	opEndBlockBase  = 0xc0
	opResetBase     = 0xf0

	fieldSensitive  = 1 << 0
	fieldNameShift  = 1
	fieldValShift   = 3
	tableSize32     = 1 << 0
	headerIndexAll  = 1 << 3
	headerHuffShift = 4
	longLength      = 0xff
)

// Sources of a field's name or value (bits 1-2 and 3-4 of a field op).
const (
	srcStatic = iota
	srcRepeat
	srcLiteral
	srcRun
)

type scriptReader struct {
	data []byte
	pos  int
}

func (r *scriptReader) done() bool { return r.pos >= len(r.data) }

func (r *scriptReader) byte() byte {
	if r.pos >= len(r.data) {
		return 0
	}
	b := r.data[r.pos]
	r.pos++
	return b
}

func (r *scriptReader) uint16() uint16 { return uint16(r.byte())<<8 | uint16(r.byte()) }

func (r *scriptReader) uint32() uint32 { return uint32(r.uint16())<<16 | uint32(r.uint16()) }

func (r *scriptReader) bytes(n int) string {
	end := min(r.pos+n, len(r.data))
	s := string(r.data[r.pos:end])
	r.pos = end
	return s
}

// ParseScript decodes data as a Script (see the format in the Script
// documentation). Every input is a valid script.
func ParseScript(data []byte) *Script {
	s := &Script{}
	s.parse(data)
	return s
}

// parse sets s to the script data holds, reusing the array of s.Ops, and
// returns how many octets of data it read: all of them unless a bound
// stopped it.
func (s *Script) parse(data []byte) int {
	r := &scriptReader{data: data[:min(len(data), MaxScriptInput)]}
	h := r.byte()
	*s = Script{Capacity: scriptCapacities[h&7], IndexAll: h&headerIndexAll != 0, Ops: s.Ops[:0]}
	if mode := encoder.HuffmanMode(h >> headerHuffShift & 3); mode <= encoder.HuffmanNever {
		s.Huffman = mode
	}
	var names, values []string
	scriptSize, blocks := 0, 0
	for !r.done() {
		start := r.pos
		b := r.byte()
		if b > opFieldMax {
			if blocks == MaxScriptBlocks {
				return start
			}
			blocks++
		}
		switch {
		case b <= opFieldMax:
			name, value := r.field(spec.StaticTable[:], b, names, values)
			size := len(name) + len(value) + spec.EntryOverhead
			if scriptSize+size > MaxScriptListSize {
				return start
			}
			scriptSize += size
			names = append(names, name)
			values = append(values, value)
			s.Ops = append(s.Ops, Op{Kind: OpField, Name: name, Value: value, Sensitive: b&fieldSensitive != 0})
		case b <= opTableSizeMax:
			var size uint32
			if b&tableSize32 != 0 {
				size = r.uint32()
			} else {
				size = uint32(r.uint16())
			}
			s.Ops = append(s.Ops, Op{Kind: OpTableSize, Size: size})
		case b < opResetBase:
			s.Ops = append(s.Ops, Op{Kind: OpEndBlock})
		default:
			s.Ops = append(s.Ops, Op{Kind: OpReset})
		}
	}
	return len(r.data)
}

// field reads the name and value of the field op b, whose static sources
// are entries of table (HPACK's or QPACK's static table); names and values
// are the earlier fields' for repeat sources.
func (r *scriptReader) field(table []spec.Field, b byte, names, values []string) (name, value string) {
	var nameStatic int
	name = r.string(table, (b>>fieldNameShift)&3, names, -1, &nameStatic)
	return name, r.string(table, (b>>fieldValShift)&3, values, nameStatic, nil)
}

// string reads a name or value from the source src. For names, static
// receives the index in table used (or -1); for values, pairedStatic is
// the name's index, whose value a static source takes.
func (r *scriptReader) string(table []spec.Field, src byte, earlier []string, pairedStatic int, static *int) string {
	if static != nil {
		*static = -1
	}
	switch src {
	case srcStatic:
		if static != nil {
			i := int(r.byte()) % len(table)
			*static = i
			return table[i].Name
		}
		if pairedStatic >= 0 {
			return table[pairedStatic].Value
		}
		return ""
	case srcRepeat:
		i := int(r.byte())
		if len(earlier) == 0 {
			return ""
		}
		return earlier[i%len(earlier)]
	case srcLiteral:
		n := int(r.byte())
		if n == longLength {
			n = int(r.uint16())
		}
		return r.bytes(min(n, MaxString))
	default:
		n := min(int(r.uint16()), MaxString)
		return strings.Repeat(string([]byte{r.byte()}), n)
	}
}

// Bytes encodes s in the format ParseScript reads, so that
// ParseScript(s.Bytes()) equals s. Each name and value is written in the
// fewest octets its sources allow: a static table reference, a repeat of an
// earlier field's, or a literal. It fails for a Capacity the header cannot
// select or a string longer than MaxString; a script past a bound (octets,
// list size, fields, blocks) comes back shorter from ParseScript.
func (s *Script) Bytes() ([]byte, error) {
	h := -1
	for i, c := range scriptCapacities {
		if c == s.Capacity {
			h = i
			break
		}
	}
	if h < 0 {
		return nil, fmt.Errorf("fuzz: capacity %d is not one of %v", s.Capacity, scriptCapacities)
	}
	if s.IndexAll {
		h |= headerIndexAll
	}
	if s.Huffman > encoder.HuffmanNever {
		return nil, fmt.Errorf("fuzz: unknown Huffman mode %d", s.Huffman)
	}
	h |= int(s.Huffman) << headerHuffShift
	out := []byte{byte(h)}
	var names, values []string
	for i, op := range s.Ops {
		switch op.Kind {
		case OpField:
			var err error
			if out, err = appendFieldOp(out, spec.StaticTable[:], op, names, values); err != nil {
				return nil, fmt.Errorf("fuzz: op %d: %v", i, err)
			}
			names = append(names, op.Name)
			values = append(values, op.Value)
		case OpTableSize:
			if op.Size > 0xffff {
				out = append(out, opTableSizeBase|tableSize32)
				out = binary.BigEndian.AppendUint32(out, op.Size)
			} else {
				out = append(out, opTableSizeBase)
				out = binary.BigEndian.AppendUint16(out, uint16(op.Size))
			}
		case OpEndBlock:
			out = append(out, opEndBlockBase)
		case OpReset:
			out = append(out, opResetBase)
		default:
			return nil, fmt.Errorf("fuzz: op %d: unknown kind %d", i, op.Kind)
		}
	}
	return out, nil
}

// appendFieldOp appends the field op that reads back as op in the
// shortest form its sources allow: an entry of table (the static table of
// the script's protocol), a repeat of one of the earlier names or values,
// or a literal. It fails for a string longer than MaxString.
func appendFieldOp(out []byte, table []spec.Field, op Op, names, values []string) ([]byte, error) {
	for _, str := range []string{op.Name, op.Value} {
		if len(str) > MaxString {
			return nil, fmt.Errorf("string of %d octets is longer than %d", len(str), MaxString)
		}
	}
	static := staticIndex(table, op.Name, op.Value)
	name, nameArgs := source(op.Name, names, static)
	value, valueArgs := byte(srcLiteral), appendLiteral(nil, op.Value)
	switch earlier := slices.Index(values, op.Value); {
	case static >= 0 && table[static].Value == op.Value, static < 0 && op.Value == "":
		value, valueArgs = srcStatic, nil
	case earlier >= 0 && earlier <= 0xff:
		value, valueArgs = srcRepeat, []byte{byte(earlier)}
	}
	b := byte(name<<fieldNameShift | value<<fieldValShift)
	if op.Sensitive {
		b |= fieldSensitive
	}
	return append(append(append(out, b), nameArgs...), valueArgs...), nil
}

// staticIndex returns the index in table of the first entry that is
// name: value, or else of the first entry named name, or -1.
func staticIndex(table []spec.Field, name, value string) int {
	named := -1
	for i, e := range table {
		if e.Name != name {
			continue
		}
		if e.Value == value {
			return i
		}
		if named < 0 {
			named = i
		}
	}
	return named
}

// source returns the shortest source Bytes can write a name as, and the
// octets that follow the op: the static table entry static (when not -1),
// an earlier field's name, or a literal.
func source(name string, earlier []string, static int) (byte, []byte) {
	if static >= 0 {
		return srcStatic, []byte{byte(static)}
	}
	if i := slices.Index(earlier, name); i >= 0 && i <= 0xff {
		return srcRepeat, []byte{byte(i)}
	}
	return srcLiteral, appendLiteral(nil, name)
}

// appendLiteral appends s as a literal source: its length, then its octets.
func appendLiteral(dst []byte, s string) []byte {
	if len(s) < longLength {
		dst = append(dst, byte(len(s)))
	} else {
		dst = append(dst, longLength)
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(s)))
	}
	return append(dst, s...)
}

// String prints the script one op a line, for failure messages.
func (s *Script) String() string {
	var b strings.Builder
	policy := "default"
	if s.IndexAll {
		policy = "index-all"
	}
	policy += ", Huffman " + [...]string{"when shorter", "when not longer", "never"}[s.Huffman]
	fmt.Fprintf(&b, "script: capacity %d, policy %s, %d ops\n", s.Capacity, policy, len(s.Ops))
	block, conn := 1, 1
	fmt.Fprintf(&b, "  connection %d, block %d:\n", conn, block)
	for _, op := range s.Ops {
		switch op.Kind {
		case OpField:
			fmt.Fprintf(&b, "    %s: %s", quoteShort(op.Name), quoteShort(op.Value))
			if op.Sensitive {
				b.WriteString(" (sensitive)")
			}
			b.WriteByte('\n')
		case OpTableSize:
			block++
			fmt.Fprintf(&b, "  SETTINGS_HEADER_TABLE_SIZE = %d; block %d:\n", op.Size, block)
		case OpEndBlock:
			block++
			fmt.Fprintf(&b, "  end of block; block %d:\n", block)
		case OpReset:
			conn++
			block = 1
			fmt.Fprintf(&b, "  reset; connection %d, block %d:\n", conn, block)
		}
	}
	return b.String()
}

// quoteShort quotes s, abbreviating long strings and runs of one octet.
func quoteShort(s string) string {
	const show = 40
	if len(s) > show && strings.Count(s, s[:1]) == len(s) {
		return fmt.Sprintf("%q x %d", s[:1], len(s))
	}
	if len(s) > show {
		return fmt.Sprintf("%q... (%d octets)", s[:show], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// errScript wraps a failure with the script that caused it.
func errScript(s *Script, err error) error {
	return fmt.Errorf("%w\n%s", err, s)
}

// slice returns the next n octets, fewer at the end of the input, as a
// slice of the input.
func (r *scriptReader) slice(n int) []byte {
	end := min(r.pos+n, len(r.data))
	b := r.data[r.pos:end:end]
	r.pos = end
	return b
}
