package qbroken

import (
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/wire"
)

// appendSection writes the field section of d (§4.5): its prefix, then its
// lines, and records it as outstanding when it references the dynamic
// table.
func (e *conn) appendSection(dst []byte, d *draft) []byte {
	var ric uint64
	for _, abs := range d.refs {
		ric = max(ric, abs+1)
	}
	if ric == 0 {
		dst = append(dst, 0, 0)
	} else {
		ric = e.requiredInsertCount(ric)
		e.sections = append(e.sections, outstanding{stream: d.stream, ric: ric, refs: d.refs})
		dst = e.appendPrefix(dst, ric, d)
	}
	base := int64(d.base)
	if e.bug == NegativeBase && ric > 0 && allPostBase(d) {
		base = -1
	}
	for _, l := range d.lines {
		if !l.static && l.form != literalName && e.bug == ReferenceAtRIC && l.index+1 == ric {
			l.index++
		}
		dst = e.appendLine(dst, l, base)
	}
	return dst
}

// requiredInsertCount returns the count the section declares, exact
// (§2.1.2) but for RICOneTooLarge.
func (e *conn) requiredInsertCount(exact uint64) uint64 {
	k := e.knownReceived
	if e.bug == RICOneTooLarge && exact+1 <= e.table.inserts() && (exact+1 <= k || exact > k) {
		return exact + 1
	}
	return exact
}

// allPostBase reports whether every dynamic reference of d is post-base.
func allPostBase(d *draft) bool {
	for _, abs := range d.refs {
		if abs < d.base {
			return false
		}
	}
	return true
}

// appendPrefix writes the field section prefix (§4.5.1) of a section
// whose Required Insert Count ric is not 0.
func (e *conn) appendPrefix(dst []byte, ric uint64, d *draft) []byte {
	encoded := ric%(2*(e.settings.MaxTableCapacity/32)) + 1
	if e.bug == RICNoModulo {
		encoded = ric + 1
	}
	dst = encoder.AppendInteger(dst, 0, 8, encoded)
	switch {
	case e.bug == NegativeBase && allPostBase(d):
		return encoder.AppendInteger(dst, 0x80, 7, ric) // Base -1
	case d.base < ric:
		return encoder.AppendInteger(dst, 0x80, 7, ric-d.base-1)
	}
	return encoder.AppendInteger(dst, 0, 7, d.base-ric)
}

// appendLine writes one field line (§4.5.2-§4.5.6) for a section of Base
// base: a dynamic index below it is relative, one at or above it
// post-base.
func (e *conn) appendLine(dst []byte, l line, base int64) []byte {
	var never byte
	postBase := !l.static && int64(l.index) >= base
	switch l.form {
	case indexed:
		switch {
		case l.static:
			return encoder.AppendInteger(dst, 0xc0, 6, e.staticIndex(l.index))
		case postBase:
			return encoder.AppendInteger(dst, 0x10, 4, uint64(int64(l.index)-base))
		}
		return encoder.AppendInteger(dst, 0x80, 6, uint64(base-1-int64(l.index)))
	case nameRef:
		switch {
		case l.static:
			if l.never {
				never = 0x20
			}
			dst = e.appendNameIndex(dst, 0x50|never, e.staticIndex(l.index))
		case postBase:
			if l.never {
				never = 0x08
			}
			dst = encoder.AppendInteger(dst, never, 3, uint64(int64(l.index)-base))
		default:
			if l.never {
				never = 0x20
			}
			dst = e.appendNameIndex(dst, 0x40|never, uint64(base-1-int64(l.index)))
		}
	default:
		if l.never {
			never = 0x10
		}
		dst = e.appendString(dst, 0x20|never, 3, l.name)
	}
	return e.appendString(dst, 0, 7, l.value)
}

// staticIndex returns the index written for static entry i.
func (e *conn) staticIndex(i uint64) uint64 {
	if e.bug == StaticIndexPastTable && i >= qspec.StaticTableLen-lastNames {
		return i + lastNames
	}
	return i
}

// lastNames is how many of the static table's last entries
// StaticIndexPastTable moves past it.
const lastNames = 4

// appendNameIndex writes the 4-bit-prefix name index of a Literal Field
// Line with Name Reference (§4.5.4) after the pattern bits.
func (e *conn) appendNameIndex(dst []byte, pattern byte, index uint64) []byte {
	if e.bug != IntegerTooLong || index < 0x0f {
		return encoder.AppendInteger(dst, pattern, 4, index)
	}
	// Eleven continuation octets, the last ten carrying nothing: the
	// value is the same, the integer 4+77 bits long.
	dst = append(dst, pattern|0x0f)
	rest := index - 0x0f
	octets := 0
	for ; rest >= 0x80; rest >>= 7 {
		dst = append(dst, byte(rest)|0x80)
		octets++
	}
	dst = append(dst, byte(rest)|0x80)
	for octets++; octets < 10; octets++ {
		dst = append(dst, 0x80)
	}
	return append(dst, 0)
}

// appendString writes a string literal (§4.1.2) whose length has an
// N-bit prefix, N = prefix, the H bit above it and pattern above that:
// Huffman-coded when that is strictly shorter.
func (e *conn) appendString(dst []byte, pattern byte, prefix uint8, s string) []byte {
	n := wire.HuffmanLen(s)
	if e.bug == NeverHuffman || n >= len(s) {
		dst = encoder.AppendInteger(dst, pattern, prefix, uint64(len(s)))
		return append(dst, s...)
	}
	dst = encoder.AppendInteger(dst, pattern|1<<prefix, prefix, uint64(n))
	dst = encoder.AppendHuffmanString(dst, s)
	if e.bug == HuffmanZeroPadding {
		bits := 0
		for i := 0; i < len(s); i++ {
			bits += int(spec.HuffmanCodeLens[s[i]])
		}
		if pad := -bits & 7; pad > 0 {
			dst[len(dst)-1] &^= byte(1<<pad - 1)
		}
	}
	return dst
}

// appendSetCapacity writes a Set Dynamic Table Capacity (§4.3.1).
func appendSetCapacity(dst []byte, capacity uint64) []byte {
	return encoder.AppendInteger(dst, 0x20, 5, capacity)
}

// appendDuplicate writes a Duplicate of the entry of relative index rel
// (§4.3.4).
func appendDuplicate(dst []byte, rel uint64) []byte {
	return encoder.AppendInteger(dst, 0, 5, rel)
}

// appendInsert writes the insertion of name and value (§4.3.2, §4.3.3):
// with a static name reference when the static table has the name, else a
// dynamic one when the table has it (an encoder-stream reference needs no
// acknowledgment, §2.1.1), else with the name itself.
func (e *conn) appendInsert(dst []byte, name, value string) []byte {
	if i, ok := staticName[name]; ok {
		dst = encoder.AppendInteger(dst, 0xc0, 6, e.staticIndex(i))
	} else if abs, ok := e.table.find(name, "", true); ok {
		dst = encoder.AppendInteger(dst, 0x80, 6, e.table.inserts()-1-abs)
	} else {
		dst = e.appendString(dst, 0x40, 5, name)
	}
	return e.appendString(dst, 0, 7, value)
}
