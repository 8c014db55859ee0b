package vectors

import (
	"encoding/hex"
	"strings"
)

// IntegerExample is one example of RFC 7541 C.1: Value represented with an
// N-bit prefix (§5.1), N being PrefixBits.
type IntegerExample struct {
	Section    string // "C.1.1"
	Value      uint64
	PrefixBits uint8
	// Wire is the representation with the bits above the prefix, which
	// belong to the enclosing representation, set to zero.
	Wire []byte
}

// FieldExample is one example of RFC 7541 C.2: a header field representation
// decoded by a decoder whose dynamic table starts empty with the default
// size of 4096.
type FieldExample struct {
	Section        string // "C.2.1"
	Representation string // the RFC's name of the representation, e.g. "Literal Header Field with Indexing"
	Wire           []byte
	Field          Field
	// NeverIndexed reports a "Literal Header Field Never Indexed"
	// representation (§6.2.3); an encoder produces it for a field it is
	// told is sensitive.
	NeverIndexed bool
	Table        []Field // dynamic table after decoding, newest first
	TableSize    uint32  // its size (§4.1)
}

// Sequence is one of the header block sequences of RFC 7541 C.3 to C.6,
// decoded in order by one decoder.
type Sequence struct {
	Section string // "C.3"
	Name    string // the RFC's title, e.g. "Request Examples without Huffman Coding"
	// Huffman reports whether the string literals are Huffman coded (§5.2).
	Huffman bool
	// TableSize is the maximum dynamic table size both sides start with:
	// 4096, or 256 in C.5 and C.6. It is in force from the first block; no
	// dynamic table size update appears on the wire.
	TableSize uint32
	Steps     []Step
}

// Step is one header block of a Sequence.
type Step struct {
	Section   string // "C.3.1"
	Wire      []byte
	Headers   []Field // the decoded header list, in order
	Table     []Field // dynamic table after decoding, newest first
	TableSize uint32  // its size (§4.1)
}

// IntegerExamples returns the integer representation examples of RFC 7541
// C.1. Each call returns new slices the caller may modify.
func IntegerExamples() []IntegerExample {
	return []IntegerExample{
		{Section: "C.1.1", Value: 10, PrefixBits: 5, Wire: rfcHex("0a")},
		{Section: "C.1.2", Value: 1337, PrefixBits: 5, Wire: rfcHex("1f 9a 0a")},
		{Section: "C.1.3", Value: 42, PrefixBits: 8, Wire: rfcHex("2a")},
	}
}

// FieldExamples returns the header field representation examples of
// RFC 7541 C.2, each independent of the others. Each call returns new
// slices the caller may modify.
func FieldExamples() []FieldExample {
	return []FieldExample{
		{
			Section:        "C.2.1",
			Representation: "Literal Header Field with Indexing",
			Wire:           rfcHex("400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572"),
			Field:          Field{Name: "custom-key", Value: "custom-header"},
			Table:          []Field{{Name: "custom-key", Value: "custom-header"}},
			TableSize:      55,
		},
		{
			Section:        "C.2.2",
			Representation: "Literal Header Field without Indexing",
			Wire:           rfcHex("040c 2f73 616d 706c 652f 7061 7468"),
			Field:          Field{Name: ":path", Value: "/sample/path"},
		},
		{
			Section:        "C.2.3",
			Representation: "Literal Header Field Never Indexed",
			Wire:           rfcHex("1008 7061 7373 776f 7264 0673 6563 7265 74"),
			Field:          Field{Name: "password", Value: "secret"},
			NeverIndexed:   true,
		},
		{
			Section:        "C.2.4",
			Representation: "Indexed Header Field",
			Wire:           rfcHex("82"),
			Field:          Field{Name: ":method", Value: "GET"},
		},
	}
}

// RFCAppendixC returns the header block sequences of RFC 7541 C.3, C.4, C.5
// and C.6, in that order. Each call returns new slices the caller may
// modify.
func RFCAppendixC() []Sequence {
	authority := Field{Name: ":authority", Value: "www.example.com"}
	noCache := Field{Name: "cache-control", Value: "no-cache"}
	customKey := Field{Name: "custom-key", Value: "custom-value"}
	request1 := []Field{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"}, {Name: ":path", Value: "/"}, authority}
	request2 := []Field{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"}, {Name: ":path", Value: "/"}, authority, noCache}
	request3 := []Field{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "https"}, {Name: ":path", Value: "/index.html"}, authority, customKey}
	requestTables := [][]Field{
		{authority},
		{noCache, authority},
		{customKey, noCache, authority},
	}
	requests := func(section, name string, huffman bool, wires [3]string) Sequence {
		return Sequence{
			Section: section, Name: name, Huffman: huffman, TableSize: 4096,
			Steps: []Step{
				{Section: section + ".1", Wire: rfcHex(wires[0]), Headers: clone(request1), Table: clone(requestTables[0]), TableSize: 57},
				{Section: section + ".2", Wire: rfcHex(wires[1]), Headers: clone(request2), Table: clone(requestTables[1]), TableSize: 110},
				{Section: section + ".3", Wire: rfcHex(wires[2]), Headers: clone(request3), Table: clone(requestTables[2]), TableSize: 164},
			},
		}
	}

	private := Field{Name: "cache-control", Value: "private"}
	date21 := Field{Name: "date", Value: "Mon, 21 Oct 2013 20:13:21 GMT"}
	date22 := Field{Name: "date", Value: "Mon, 21 Oct 2013 20:13:22 GMT"}
	location := Field{Name: "location", Value: "https://www.example.com"}
	gzip := Field{Name: "content-encoding", Value: "gzip"}
	setCookie := Field{Name: "set-cookie", Value: "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"}
	response1 := []Field{{Name: ":status", Value: "302"}, private, date21, location}
	response2 := []Field{{Name: ":status", Value: "307"}, private, date21, location}
	response3 := []Field{{Name: ":status", Value: "200"}, private, date22, location, gzip, setCookie}
	responseTables := [][]Field{
		{location, date21, private, {Name: ":status", Value: "302"}},
		{{Name: ":status", Value: "307"}, location, date21, private},
		{setCookie, gzip, date22},
	}
	responses := func(section, name string, huffman bool, wires [3]string) Sequence {
		return Sequence{
			Section: section, Name: name, Huffman: huffman, TableSize: 256,
			Steps: []Step{
				{Section: section + ".1", Wire: rfcHex(wires[0]), Headers: clone(response1), Table: clone(responseTables[0]), TableSize: 222},
				{Section: section + ".2", Wire: rfcHex(wires[1]), Headers: clone(response2), Table: clone(responseTables[1]), TableSize: 222},
				{Section: section + ".3", Wire: rfcHex(wires[2]), Headers: clone(response3), Table: clone(responseTables[2]), TableSize: 215},
			},
		}
	}

	return []Sequence{
		requests("C.3", "Request Examples without Huffman Coding", false, [3]string{
			"8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
			"8286 84be 5808 6e6f 2d63 6163 6865",
			"8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
		}),
		requests("C.4", "Request Examples with Huffman Coding", true, [3]string{
			"8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff",
			"8286 84be 5886 a8eb 1064 9cbf",
			"8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf",
		}),
		responses("C.5", "Response Examples without Huffman Coding", false, [3]string{
			"4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133" +
				"2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70" +
				"6c65 2e63 6f6d",
			"4803 3330 37c1 c0bf",
			"88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d" +
				"54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049" +
				"5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e" +
				"3d31",
		}),
		responses("C.6", "Response Examples with Huffman Coding", true, [3]string{
			"4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6" +
				"2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3",
			"4883 640e ffc1 c0bf",
			"88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab" +
				"77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f" +
				"9587 3160 65c0 03ed 4ee5 b106 3d50 07",
		}),
	}
}

// rfcHex decodes a hex dump written as in the RFC, in groups separated by
// spaces. The dumps are constants of this file, so a malformed one is a
// programming error the tests catch.
func rfcHex(dump string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(dump, " ", ""))
	if err != nil {
		panic("vectors: malformed RFC hex dump: " + err.Error())
	}
	return b
}

func clone(fields []Field) []Field {
	return append([]Field(nil), fields...)
}
