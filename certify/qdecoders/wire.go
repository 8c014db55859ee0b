package qdecoders

import (
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// octets is hand-built QPACK input: a field section or encoder-stream
// instructions, written one representation at a time, for the stories
// the reference encoder cannot tell (post-base references, blocked
// sections, Duplicate, invalid input). Integers and Huffman codes are the
// HPACK encoder's (RFC 9204 §4.1.1, §4.1.2).
type octets []byte

// prefix starts a field section with the Required Insert Count ric and
// Base base, encoded for a table of maxEntries entries (§4.5.1).
func prefix(ric, base, maxEntries uint64) octets {
	return qspec.AppendPrefix(nil, ric, base, maxEntries)
}

// rawPrefix starts a field section with the prefix as given, however
// invalid: the encoded count, the sign bit and the Delta Base.
func rawPrefix(encoded uint64, sign bool, delta uint64) octets {
	b := encoder.AppendInteger(nil, 0, 8, encoded)
	s := byte(0)
	if sign {
		s = 0x80
	}
	return encoder.AppendInteger(b, s, 7, delta)
}

func (o octets) int(pattern byte, bits uint8, v uint64) octets {
	return encoder.AppendInteger(o, pattern, bits, v)
}

// str appends a string literal whose H bit is above a bits-bit length
// prefix, Huffman coded when huff is set.
func (o octets) str(pattern byte, bits uint8, s string, huff bool) octets {
	if !huff {
		return append(o.int(pattern, bits, uint64(len(s))), s...)
	}
	o = o.int(pattern|1<<bits, bits, uint64(encoder.HuffmanLen([]byte(s))))
	return encoder.AppendHuffmanString(o, s)
}

// rawHuffman appends a Huffman-flagged string literal of code as given
// (bits-bit length prefix), for invalid codes.
func (o octets) rawHuffman(pattern byte, bits uint8, code []byte) octets {
	return append(o.int(pattern|1<<bits, bits, uint64(len(code))), code...)
}

func never(n bool, bit byte) byte {
	if n {
		return bit
	}
	return 0
}

// Field lines (§4.5.2-§4.5.6).

func (o octets) static(i uint64) octets   { return o.int(0xc0, 6, i) }
func (o octets) dynamic(r uint64) octets  { return o.int(0x80, 6, r) }
func (o octets) postBase(i uint64) octets { return o.int(0x10, 4, i) }

func (o octets) staticName(i uint64, value string, n bool) octets {
	return o.int(0x50|never(n, 0x20), 4, i).str(0, 7, value, false)
}

func (o octets) dynamicName(r uint64, value string, n bool) octets {
	return o.int(0x40|never(n, 0x20), 4, r).str(0, 7, value, false)
}

func (o octets) postBaseName(i uint64, value string, n bool) octets {
	return o.int(never(n, 0x08), 3, i).str(0, 7, value, false)
}

func (o octets) literal(name, value string, n, huff bool) octets {
	return o.str(0x20|never(n, 0x10), 3, name, huff).str(0, 7, value, huff)
}

// Encoder instructions (§4.3).

func setCapacity(c uint64) octets { return octets(nil).int(0x20, 5, c) }

func (o octets) insertStatic(i uint64, value string) octets {
	return o.int(0xc0, 6, i).str(0, 7, value, false)
}

func (o octets) insertDynamic(r uint64, value string) octets {
	return o.int(0x80, 6, r).str(0, 7, value, false)
}

func (o octets) insertLiteral(name, value string) octets {
	return o.str(0x40, 5, name, false).str(0, 7, value, false)
}

func (o octets) duplicate(r uint64) octets { return o.int(0, 5, r) }
