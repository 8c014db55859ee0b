package main

import (
	"bytes"
	"encoding/hex"
)

// story is a sequence of header blocks sent on one connection, with the
// verdict the strict decoder gives each: the last block of an invalid
// story is a decoding error, every other block valid.
type story struct {
	// id names the story in the table's columns, after the dec/ case the
	// invalid block belongs to.
	id string
	// what says in a few words what the story sends.
	what   string
	blocks [][]byte
	// invalid is set when the last block is a decoding error.
	invalid bool
}

// request returns the start of every crafted request: :method GET (2),
// :scheme http (6) or https (7, over TLS, which some targets insist on),
// :path / (4), :authority www.example.com (literal with incremental
// indexing, name index 1), as in RFC 7541 C.3.1.
func request(tlsOn bool) []byte {
	r := mustHex("828684410f7777772e6578616d706c652e636f6d")
	if tlsOn {
		r[1] = 0x87
	}
	return r
}

// bombEntry is a field of 4,000 octets of value, inserted into the
// dynamic table: 4,038 octets of entry, 4 KB.
var bombEntry = append(append([]byte{0x40, 0x06}, "x-bomb"...), append([]byte{0x7f, 0xa1, 0x1e}, bytes.Repeat([]byte{'b'}, 4000)...)...)

// bombRefs is how many times the bomb story references the entry: a
// header list of 40 MB from a block of 10 KB.
const bombRefs = 10000

// stories returns the crafted stories, in the order of the table's
// columns, their requests over TLS or not (request).
func stories(tlsOn bool) []story {
	request := request(tlsOn)
	return []story{
		{id: "C.3", what: "RFC 7541 C.3: three requests sharing the dynamic table (:scheme as in the RFC)", blocks: [][]byte{
			mustHex("828684410f7777772e6578616d706c652e636f6d"),
			mustHex("828684be58086e6f2d6361636865"),
			mustHex("828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565"),
		}},
		{id: "malformed", what: "RFC 7541 C.5.1, a response's fields as a request: valid HPACK, a malformed request (a stream error, RFC 9113 §8.1.1)", blocks: [][]byte{
			mustHex("4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e1768747470733a2f2f7777772e6578616d706c652e636f6d"),
		}},
		{id: "6.1/1", what: "index 0", blocks: [][]byte{{0x80}}, invalid: true},
		{id: "2.3.3/2", what: "index 63 with one dynamic entry", blocks: [][]byte{cat(request, []byte{0xbf})}, invalid: true},
		{id: "6.3/1", what: "size update to 4097 above SETTINGS_HEADER_TABLE_SIZE 4096", blocks: [][]byte{cat([]byte{0x3f, 0xe2, 0x1f}, request)}, invalid: true},
		{id: "4.2/1", what: "size update to 0 after the fields", blocks: [][]byte{cat(request, []byte{0x20})}, invalid: true},
		{id: "5.1/2", what: "index of 2^32+127 (integer above 2^32-1)", blocks: [][]byte{cat(request, mustHex("ff8080808010"))}, invalid: true},
		{id: "5.1/3", what: "block ending inside an integer", blocks: [][]byte{cat(request, []byte{0xff, 0x80})}, invalid: true},
		{id: "5.2/3", what: "Huffman padding of 11 bits", blocks: [][]byte{cat(request, mustHex("400178821fff"))}, invalid: true},
		{id: "5.2/4", what: "Huffman padding of zeros", blocks: [][]byte{cat(request, mustHex("4001788118"))}, invalid: true},
		{id: "5.2/5", what: "EOS inside a Huffman string", blocks: [][]byte{cat(request, mustHex("40017884ffffffff"))}, invalid: true},
		{id: "5.2/6", what: "string length past the end of the block", blocks: [][]byte{cat(request, mustHex("4001780a616263"))}, invalid: true},
		{id: "7.3/1", what: "bomb: a 4 KB entry referenced 10,000 times (40 MB list)", blocks: [][]byte{cat(request, bombEntry, bytes.Repeat([]byte{0xbe}, bombRefs))}, invalid: true},
	}
}

// cat joins parts into a new slice.
func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// mustHex decodes a hex constant of this file.
func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic("decsurvey: bad hex constant " + s)
	}
	return b
}
