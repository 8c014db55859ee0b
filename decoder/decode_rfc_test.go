package decoder

import (
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/hpackcert/hpackcert/encoder"
	"strings"
	"testing"
)

// collect decodes block with d and returns its fields as "name: value",
// with " (sensitive)" after a "Never Indexed" one.
func collect(d *Decoder, block []byte) ([]string, error) {
	var out []string
	err := d.Decode(block, func(name, value []byte, sensitive bool) error {
		f := string(name) + ": " + string(value)
		if sensitive {
			f += " (sensitive)"
		}
		out = append(out, f)
		return nil
	})
	return out, err
}

// rfcCase is one sequence of RFC 7541 Appendix C: three blocks on one
// connection, the fields each decodes to, and the dynamic table after the
// last, newest first, with its size.
type rfcCase struct {
	name      string
	tableSize uint32
	blocks    [3]string
	fields    [3]string // "|"-separated
	table     string    // "|"-separated
	size      uint32
}

const (
	rfcReq1  = ":method: GET|:scheme: http|:path: /|:authority: www.example.com"
	rfcReq2  = rfcReq1 + "|cache-control: no-cache"
	rfcReq3  = ":method: GET|:scheme: https|:path: /index.html|:authority: www.example.com|custom-key: custom-value"
	rfcReqT  = "custom-key: custom-value|cache-control: no-cache|:authority: www.example.com"
	rfcResp1 = ":status: 302|cache-control: private|date: Mon, 21 Oct 2013 20:13:21 GMT|location: https://www.example.com"
	rfcResp2 = ":status: 307|cache-control: private|date: Mon, 21 Oct 2013 20:13:21 GMT|location: https://www.example.com"
	rfcResp3 = ":status: 200|cache-control: private|date: Mon, 21 Oct 2013 20:13:22 GMT|location: https://www.example.com|" +
		"content-encoding: gzip|set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"
	rfcRespT = "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1|content-encoding: gzip|" +
		"date: Mon, 21 Oct 2013 20:13:22 GMT"
)

var rfcCases = []rfcCase{
	{"C.3", 4096, [3]string{
		"828684410f7777772e6578616d706c652e636f6d",
		"828684be58086e6f2d6361636865",
		"828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565",
	}, [3]string{rfcReq1, rfcReq2, rfcReq3}, rfcReqT, 164},
	{"C.4", 4096, [3]string{
		"828684418cf1e3c2e5f23a6ba0ab90f4ff",
		"828684be5886a8eb10649cbf",
		"828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf",
	}, [3]string{rfcReq1, rfcReq2, rfcReq3}, rfcReqT, 164},
	{"C.5", 256, [3]string{
		"4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d54" +
			"6e1768747470733a2f2f7777772e6578616d706c652e636f6d",
		"4803333037c1c0bf",
		"88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d" +
			"4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b207665" +
			"7273696f6e3d31",
	}, [3]string{rfcResp1, rfcResp2, rfcResp3}, rfcRespT, 215},
	{"C.6", 256, [3]string{
		"488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8e9ae82ae43d3",
		"4883640effc1c0bf",
		"88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b3960" +
			"d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
	}, [3]string{rfcResp1, rfcResp2, rfcResp3}, rfcRespT, 215},
}

// TestRFCAppendixC decodes the examples of RFC 7541 Appendix C.3 to C.6 and
// checks the fields and the dynamic table the RFC gives.
func TestRFCAppendixC(t *testing.T) {
	for _, c := range rfcCases {
		t.Run(c.name, func(t *testing.T) {
			d := New(Config{TableSize: c.tableSize})
			for i, h := range c.blocks {
				block, err := hex.DecodeString(h)
				if err != nil {
					t.Fatal(err)
				}
				got, err := collect(d, block)
				if err != nil || strings.Join(got, "|") != c.fields[i] {
					t.Fatalf("block %d: %q, %v; want %q", i+1, got, err, c.fields[i])
				}
			}
			if got := strings.Join(tableFields(&d.table), "|"); got != c.table || d.table.size != c.size {
				t.Fatalf("table %q of size %d; want %q of size %d", got, d.table.size, c.table, c.size)
			}
		})
	}
}

// TestDecodeErrors checks each error Decode reports and its offset.
func TestDecodeErrors(t *testing.T) {
	long := "7f" + strings.Repeat("61", 200) // a 127+ octet name literal cut short
	for _, c := range []struct {
		name, hex string
		rule      string
		off       int
	}{
		{"index 0", "8280", RuleIndexZero, 1},
		{"index past the static table", "82be", RuleIndexRange, 1},
		{"literal name index past the table", "82" + "7e0161", RuleIndexRange, 1},
		{"size update after a field", "8220", RuleSizeUpdatePlace, 1},
		{"size update above the setting", "3fe21f", RuleSizeUpdateLimit, 0},
		{"string cut", "400361", RuleStringTruncated, 1},
		{"name literal truncated", "40" + long, RuleStringTruncated, 1},
		{"no value", "400161", RuleStringTruncated, 3},
		{"Huffman padding of zeros", "820081" + "00", RuleHuffmanPadOnes, 3},
		{"Huffman EOS", "82000161" + "84ffffffff", RuleHuffmanEOS, 5},
		{"integer overflow", "ff80808080ff0f", RuleIntegerOverflow, 5},
		{"integer truncated", "82ff", RuleIntegerTruncated, 2},
	} {
		block, err := hex.DecodeString(c.hex)
		if err != nil {
			t.Fatal(err)
		}
		_, err = collect(New(Config{}), block)
		e, ok := err.(*Error)
		if !ok || e.Rule != c.rule || e.Offset != c.off {
			t.Errorf("%s: %s gave %v; want %q at %d", c.name, c.hex, err, c.rule, c.off)
		}
	}
}

// TestDecodeStringLimit checks MaxStringLength on raw and Huffman strings.
func TestDecodeStringLimit(t *testing.T) {
	d := New(Config{MaxStringLength: 4})
	if got, err := collect(d, []byte("\x00\x04abcd\x00")); err != nil || fmt.Sprint(got) != "[abcd: ]" {
		t.Fatalf("4 octets: %q, %v", got, err)
	}
	_, err := collect(d, []byte("\x00\x05abcde\x00"))
	if e, ok := err.(*Error); !ok || e.Rule != RuleStringTooLong || e.Offset != 1 {
		t.Fatalf("5 raw octets: %v", err)
	}
	// Five Huffman octets of '0' (5 bits each) decode to eight octets.
	_, err = collect(New(Config{MaxStringLength: 6}), []byte("\x00\x85\x00\x00\x00\x00\x00\x00"))
	if e, ok := err.(*Error); !ok || e.Rule != RuleStringTooLong || e.Offset != 1 {
		t.Fatalf("Huffman string of 8 octets: %v", err)
	}
}

// TestDecodeHuffmanLimit checks the bound on Huffman strings at and
// around the limit, for strings of every length up to a few refills, of
// 5-bit and of 8-bit symbols: a decoding of the limit's length passes, one
// octet more is refused, and the Scratch (the limit plus huffSlack) never
// grows, however far 8/5 of the wire length would reach.
func TestDecodeHuffmanLimit(t *testing.T) {
	for _, sym := range []string{"0", "&"} { // codes of 5 and 8 bits
		for limit := 1; limit < 70; limit++ {
			d := New(Config{MaxStringLength: limit})
			for _, n := range []int{limit, limit + 1, limit + 40} {
				value := encoder.AppendHuffmanString(nil, strings.Repeat(sym, n))
				block := append([]byte{0x00, 0x00}, encoder.AppendInteger(nil, 0x80, 7, uint64(len(value)))...)
				block = append(block, value...)
				got, err := collect(d, block)
				if n == limit && err != nil {
					t.Fatalf("%q x %d, limit %d: %v", sym, n, limit, err)
				}
				if n == limit && (len(got) != 1 || len(got[0]) != n+2) {
					t.Fatalf("%q x %d, limit %d: decoded %q", sym, n, limit, got)
				}
				if e, ok := err.(*Error); n > limit && (!ok || e.Rule != RuleStringTooLong || e.Offset != 2) {
					t.Fatalf("%q x %d, limit %d: %v; want %q at offset 2", sym, n, limit, err, RuleStringTooLong)
				}
				if raceEnabled {
					continue
				}
				nop := func(_, _ []byte, _ bool) error { return nil }
				if allocs := testing.AllocsPerRun(allocRuns, func() { _ = d.Decode(block, nop) }); allocs != 0 {
					t.Fatalf("%q x %d, limit %d: %v allocations: the room of the limit plus huffSlack was not enough", sym, n, limit, allocs)
				}
			}
		}
	}
}

// TestKeep checks that a kept error survives the decoder's next error,
// which overwrites the decoder's own, and that other errors pass as they
// are.
func TestKeep(t *testing.T) {
	d := New(Config{})
	kept := Keep(d.Decode([]byte{0x80}, nil)) // index 0
	_ = d.Decode([]byte{0x00, 0x85}, nil)     // a string past the block
	if e, ok := kept.(*Error); !ok || e.Rule != RuleIndexZero || e.Offset != 0 {
		t.Fatalf("kept error %v; want %q at offset 0", kept, RuleIndexZero)
	}
	other := errors.New("emit's own")
	if Keep(other) != other || Keep(nil) != nil {
		t.Fatal("Keep changed an error that is not the decoder's")
	}
}
