package certify

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/wire"
)

func TestCheckMinimalIntegers(t *testing.T) {
	a127 := strings.Repeat("a", 127)
	testRule(t, minimalIntegers, []ruleCase{
		// 82: index 2, one octet.
		{"one-octet index", "an integer below its prefix's maximum takes one octet",
			[]block{{Headers: []Field{methodGET}, Wire: hexWire("82")}}, ""},
		// 3f 00: update to 31 = 2^5-1: the prefix is full, one zero
		// continuation octet.
		{"2^N-1 with one zero continuation", "a single zero continuation octet is how 2^N-1 is written",
			[]block{{Wire: hexWire("3f00")}}, ""},
		// 3f 80 00: 31 again, with a redundant zero continuation octet.
		{"2^N-1 with a redundant zero", "a second continuation octet adding zero wastes an octet",
			[]block{{Wire: hexWire("3f8000")}}, "offset 0: integer 31 ends in a redundant zero continuation octet"},
		// 3f e1 1f: update to 4096 in the fewest octets.
		{"two continuation octets", "4096 needs both continuation octets",
			[]block{{Wire: hexWire("3fe11f")}}, ""},
		// 3f e1 9f 00: 4096 with a redundant zero continuation octet.
		{"4096 with a redundant zero", "the last continuation octet of 4096 is 1f, not 00",
			[]block{{Wire: hexWire("3fe19f00")}}, "offset 0: integer 4096 ends in a redundant zero"},
		// 0f 00: literal without indexing, name index 15 (accept-charset)
		// with one zero continuation; 01 61: value "a".
		{"name index 2^4-1", "a name index of exactly 15 takes one zero continuation",
			[]block{{Headers: []Field{{Name: "accept-charset", Value: "a"}}, Wire: hexWire("0f00 0161")}}, ""},
		// 0f 80 00: name index 15 with a redundant zero; 01 61: "a".
		{"name index with a redundant zero", "name indices are integers too",
			[]block{{Headers: []Field{{Name: "accept-charset", Value: "a"}}, Wire: hexWire("0f8000 0161")}}, "offset 0: integer 15 ends in a redundant zero"},
		// 04: literal without indexing, name index 4 (:path); the value's
		// length 127 as 7f 00, then 127 octets "a".
		{"value length 2^7-1", "a string of exactly 127 octets has one zero continuation",
			[]block{{Headers: []Field{{Name: ":path", Value: a127}}, Wire: hexWire("04 7f00", hex.EncodeToString([]byte(a127)))}}, ""},
		// 04: :path; the value's length 127 as 7f 80 00, then 127 "a".
		{"value length with a redundant zero", "string lengths are integers too",
			[]block{{Headers: []Field{{Name: ":path", Value: a127}}, Wire: hexWire("04 7f8000", hex.EncodeToString([]byte(a127)))}}, "offset 1: integer 127 ends in a redundant zero"},
		// 00: literal without indexing, new name; the name's length 127 as
		// 7f 80 00, then 127 "a"; 01 61: value "a".
		{"name length with a redundant zero", "a name literal's length is checked as a value's is",
			[]block{{Headers: []Field{{Name: a127, Value: "a"}}, Wire: hexWire("00 7f8000", hex.EncodeToString([]byte(a127)), "0161")}}, "offset 1: integer 127 ends in a redundant zero"},
	})
}

func TestCheckHuffmanPadding(t *testing.T) {
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	testRule(t, huffmanPadding, []ruleCase{
		// 04: literal without indexing, name :path; 01 61: raw "a".
		{"raw string", "a raw string has no padding",
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, ""},
		// 04; 81 1f: Huffman "a", 00011 then 111.
		{"3 bits of ones", "padding with the high bits of EOS",
			[]block{{Headers: path("a"), Wire: hexWire("04 811f")}}, ""},
		// 04; 84 18c631ff: Huffman "aaaaa", 25 bits then 7 ones.
		{"7 bits of ones", "7 bits is the longest padding allowed",
			[]block{{Headers: path("aaaaa"), Wire: hexWire("04 8418c631ff")}}, ""},
		// 04; 81 f8: Huffman "&", 11111000, no padding.
		{"no padding", "a code ending on an octet boundary needs no padding",
			[]block{{Headers: path("&"), Wire: hexWire("04 81f8")}}, ""},
		// 04; 81 1e: "a" 00011, then 110: a zero bit in the padding.
		{"a zero bit", "padding that is not a prefix of EOS",
			[]block{{Headers: path("a"), Wire: hexWire("04 811e")}}, "offset 1: Huffman string of 1 octets: padding of 3 bits is not all ones"},
		// 04; 82 f8 ff: "&" then a whole octet of ones.
		{"8 bits of ones", "padding longer than 7 bits",
			[]block{{Headers: path("&"), Wire: hexWire("04 82f8ff")}}, "offset 1: Huffman string of 2 octets: 8 bits of padding (at most 7 allowed)"},
		// 04; 84 ffffffff: 32 ones hold the 30-bit EOS.
		{"EOS inside", "EOS may not be coded in the string",
			[]block{{Headers: path(""), Wire: hexWire("04 84ffffffff")}}, "EOS symbol inside the string"},
		// 00: literal without indexing, new name; 81 1e: the name "a" with a
		// zero bit in its padding; 01 61: raw value "a".
		{"a zero bit in a name", "name literals are padded as values are",
			[]block{{Headers: []Field{{Name: "a", Value: "a"}}, Wire: hexWire("00 811e 0161")}}, "offset 1: Huffman string of 1 octets: padding of 3 bits"},
		// 00; 01 61: raw name "a"; 81 1e: the value "a" at offset 3, a zero
		// bit in its padding.
		{"a zero bit in a value after a name", "the value's offset is reported",
			[]block{{Headers: []Field{{Name: "a", Value: "a"}}, Wire: hexWire("00 0161 811e")}}, "offset 3: Huffman string of 1 octets"},
	})
}

func TestCheckHuffmanShorter(t *testing.T) {
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	testRule(t, huffmanShorter, []ruleCase{
		// 04: literal without indexing, name :path; 01 21: raw "!".
		{"raw string", "a raw string is as long as it is",
			[]block{{Headers: path("!"), Wire: hexWire("04 0121")}}, ""},
		// 04; 84 18c631ff: "aaaaa" in 4 octets.
		{"shorter", "5 octets in 4 saves one",
			[]block{{Headers: path("aaaaa"), Wire: hexWire("04 8418c631ff")}}, ""},
		// 04; 81 f8: "&" in 1 octet.
		{"equal length", "1 octet in 1 octet wastes nothing",
			[]block{{Headers: path("&"), Wire: hexWire("04 81f8")}}, ""},
		// 04; 82 fe 3f: "!" in 2 octets, 1111111000 then 6 ones.
		{"one octet longer", "1 octet in 2 octets: raw was shorter",
			[]block{{Headers: path("!"), Wire: hexWire("04 82fe3f")}}, `offset 1: "!" Huffman-coded in 2 octets, longer than its 1 octets`},
		// 04; 82 fe 3e: "!" in 2 octets, a zero bit in the padding.
		{"longer with broken padding", "a string with a padding problem is enc/5.2/1's",
			[]block{{Headers: path("!"), Wire: hexWire("04 82fe3e")}}, ""},
		// 00: new name; 82 fe 3f: the name "!" in 2 octets; 01 61: "a".
		{"name one octet longer", "name literals count as values do",
			[]block{{Headers: []Field{{Name: "!", Value: "a"}}, Wire: hexWire("00 82fe3f 0161")}}, `offset 1: "!" Huffman-coded in 2 octets`},
	})
}

func TestCheckSensitiveNeverIndexed(t *testing.T) {
	sensitive := []Field{authSensitive}
	testRule(t, sensitiveNeverIndexed, []ruleCase{
		// 1f 08: never indexed, name authorization; 06 "secret".
		{"never indexed", "the representation §7.1.3 asks for",
			[]block{{Headers: sensitive, Wire: hexWire("1f08 06736563726574")}}, ""},
		// 0f 08: without indexing, name authorization; 06 "secret".
		{"without indexing", "an intermediary may re-encode it with indexing",
			[]block{{Headers: sensitive, Wire: hexWire("0f08 06736563726574")}}, `offset 0: sensitive field "authorization": "secret" sent as literal without indexing (§6.2.2)`},
		// 57: incremental indexing, name authorization; 06 "secret".
		{"incremental indexing", "the secret goes into the dynamic table",
			[]block{{Headers: sensitive, Wire: hexWire("57 06736563726574")}}, "sent as literal with incremental indexing (§6.2.1)"},
		// 82: ":method: GET", marked sensitive, sent indexed.
		{"indexed", "an indexed field is not a never-indexed literal",
			[]block{{Headers: []Field{{Name: ":method", Value: "GET", Sensitive: true}}, Wire: hexWire("82")}}, "sent as indexed (§6.1)"},
		// 57 06 "secret": the same field, not marked sensitive.
		{"not sensitive", "the rule is about fields marked sensitive only",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("57 06736563726574")}}, ""},
		// 3fe11f: update; 82; 57 06 "secret" at offset 4.
		{"second field after an update", "the update is skipped when fields are matched to representations",
			[]block{{Headers: []Field{methodGET, authSensitive}, Wire: hexWire("3fe11f 82 57 06736563726574")}}, `offset 4: sensitive field "authorization"`},
		// 3fe11f: update; 82; 1f08 06 "secret".
		{"second field never indexed after an update", "the sensitive field is the never-indexed one",
			[]block{{Headers: []Field{methodGET, authSensitive}, Wire: hexWire("3fe11f 82 1f08 06736563726574")}}, ""},
	})
}

func TestCheckIsCredential(t *testing.T) {
	tests := []struct {
		label  string
		reason string
		f      Field
		want   bool
	}{
		{"authorization", "RFC 9110 §11.6.2 credentials", Field{Name: "authorization", Value: "a long enough value to be no cookie"}, true},
		{"proxy-authorization", "RFC 9110 §11.7.2 credentials", Field{Name: "proxy-authorization", Value: "x"}, true},
		{"empty cookie", "an empty cookie is shorter than 20 octets", Field{Name: "cookie"}, true},
		{"cookie of 19 octets", "one octet under the threshold", Field{Name: "cookie", Value: strings.Repeat("c", 19)}, true},
		{"cookie of 20 octets", "at the threshold a cookie is long enough", Field{Name: "cookie", Value: strings.Repeat("c", 20)}, false},
		{"set-cookie", "a response's set-cookie is not the request's credential", Field{Name: "set-cookie", Value: "c"}, false},
		{"other name", "a name merely containing authorization is not one", Field{Name: "x-authorization", Value: "x"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			if got := isCredential(tt.f); got != tt.want {
				t.Errorf("isCredential(%q: %q) = %t; want %t: %s", tt.f.Name, tt.f.Value, got, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckCredentialsNotIndexed(t *testing.T) {
	cookie19, cookie20 := strings.Repeat("c", 19), strings.Repeat("c", 20)
	testRule(t, credentialsNotIndexed, []ruleCase{
		// 57: incremental indexing, name authorization; 06 "secret".
		{"authorization indexed", "authorization is a credential",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("57 06736563726574")}}, `offset 0: "authorization": "secret" added to the dynamic table (literal with incremental indexing (§6.2.1))`},
		// 0f 08: without indexing, name authorization; 06 "secret".
		{"authorization without indexing", "kept out of the table",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("0f08 06736563726574")}}, ""},
		// 1f 08: never indexed, name authorization; 06 "secret".
		{"authorization never indexed", "kept out of the table",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("1f08 06736563726574")}}, ""},
		// 71: incremental indexing, name index 49 (proxy-authorization).
		{"proxy-authorization indexed", "proxy-authorization is a credential",
			[]block{{Headers: []Field{{Name: "proxy-authorization", Value: "secret"}}, Wire: hexWire("71 06736563726574")}}, `"proxy-authorization": "secret" added to the dynamic table`},
		// 0f 22: without indexing, name index 15+34 = 49.
		{"proxy-authorization without indexing", "kept out of the table",
			[]block{{Headers: []Field{{Name: "proxy-authorization", Value: "secret"}}, Wire: hexWire("0f22 06736563726574")}}, ""},
		// 60: incremental indexing, name index 32 (cookie); 13 and 19 "c".
		{"cookie of 19 octets indexed", "a cookie under 20 octets is easily guessed",
			[]block{{Headers: []Field{{Name: "cookie", Value: cookie19}}, Wire: hexWire("60", rawLiteral(cookie19))}}, `"cookie": "ccccccccccccccccccc" added`},
		// 60; 14 and 20 "c".
		{"cookie of 20 octets indexed", "a cookie of 20 octets may be indexed",
			[]block{{Headers: []Field{{Name: "cookie", Value: cookie20}}, Wire: hexWire("60", rawLiteral(cookie20))}}, ""},
		// a0: indexed field 32, "cookie" with an empty value.
		{"empty cookie from the static table", "a field equal to a static entry adds nothing to the table",
			[]block{{Headers: []Field{{Name: "cookie"}}, Wire: hexWire("a0")}}, ""},
		// 77: incremental indexing, name index 55 (set-cookie); 01 "c".
		{"short set-cookie indexed", "set-cookie is no credential of the request",
			[]block{{Headers: []Field{{Name: "set-cookie", Value: "c"}}, Wire: hexWire("77 0163")}}, ""},
		// 3fe11f: update; 57 06 "secret" at offset 3.
		{"authorization after an update", "the update is skipped when fields are matched to representations",
			[]block{{Headers: []Field{authSecret}, Wire: hexWire("3fe11f 57 06736563726574")}}, `offset 3: "authorization"`},
	})
}

func TestCheckHuffmanMismatch(t *testing.T) {
	tests := []struct {
		label   string
		reason  string
		decoded wire.String // Text and PadErr as the walker decoded them
		sent    string
		want    string // a substring of the problem; "" when none
	}{
		{"equal", "the string decodes to what was sent",
			wire.String{Text: "abc"}, "abc", ""},
		{"empty", "nothing sent, nothing decoded",
			wire.String{}, "", ""},
		{"wrong code", "the second octet comes back as another",
			wire.String{Text: "axc"}, "abc", "octet 0x62 at position 1 decodes as 0x78: its code is wrong"},
		{"wrong first code", "the first octet comes back as another",
			wire.String{Text: "xbc"}, "abc", "octet 0x61 at position 0 decodes as 0x78"},
		{"early end", "decoding stopped after two octets with no problem",
			wire.String{Text: "ab"}, "abc", "octet 0x63 at position 2 does not decode (the string ends early)"},
		{"early end at a problem", "decoding stopped at an invalid code, which is named",
			wire.String{Text: "a", PadErr: "invalid code at octet 1"}, "abc", "octet 0x62 at position 1 does not decode (invalid code at octet 1)"},
		{"extra octets", "a code of the last octets decoded as more",
			wire.String{Text: "abcd"}, "abc", "decodes to 1 octets more than the 3 sent"},
		{"eight extra octets", "codes of the last octets may decode as a few more",
			wire.String{Text: "abc12345678"}, "abc", "decodes to 8 octets more than the 3 sent"},
		{"another value", "a value that goes on past what wrong final codes explain is another value (enc/3.2/1), not a wrong code",
			wire.String{Text: "abc, and a second value joined to it"}, "abc", ""},
		{"padding problem", "every octet came back but the padding is wrong",
			wire.String{Text: "abc", PadErr: "padding of 3 bits is not all ones (not a prefix of EOS)"}, "abc", "padding of 3 bits is not all ones"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			problem, bad := huffmanMismatch(&tt.decoded, tt.sent)
			if wantBad := tt.want != ""; bad != wantBad {
				t.Fatalf("got bad %t (%q); want %t: %s", bad, problem, wantBad, tt.reason)
			}
			if tt.want == "" && problem != "" || !strings.Contains(problem, tt.want) {
				t.Errorf("got problem %q; want one containing %q: %s", problem, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckHuffmanCodes(t *testing.T) {
	path := func(v string) []Field { return []Field{{Name: ":path", Value: v}} }
	tests := []struct {
		label  string
		reason string
		blocks []block
		grade  Grade
		want   string // a substring of the detail
	}{
		// 04: literal without indexing, name :path; 01 61: raw "a".
		{"no Huffman string", "an encoder that never codes Huffman tests no code",
			[]block{{Headers: path("a"), Wire: hexWire("04 0161")}}, Unsupported, "Huffman-coded no string"},
		// 04; 81 1f: Huffman "a".
		{"right code", "'a' decodes to what was sent",
			[]block{{Headers: path("a"), Wire: hexWire("04 811f")}}, Pass, "1 octet values were Huffman-coded (1 strings) and decode to what was sent"},
		// 04; 81 8f: Huffman "b", 100011 then 11, sent for "a".
		{"wrong code", "the code sent for 'a' is the code of 'b'",
			[]block{{Headers: path("a"), Wire: hexWire("04 818f")}}, Fail, `offset 1: the Huffman-coded value of field ":path": octet 0x61 at position 0 decodes as 0x62`},
		// 00: new name; 81 8f: Huffman "b" for the name "a"; 01 61: "a".
		{"wrong code in a name", "names are checked as values are",
			[]block{{Headers: []Field{{Name: "a", Value: "a"}}, Wire: hexWire("00 818f 0161")}}, Fail, `the Huffman-coded name of field "a": octet 0x61 at position 0`},
		// 04; 81 1e: Huffman "a" with a zero bit in its padding.
		{"padding problem", "every octet decoded, then the padding is wrong",
			[]block{{Headers: path("a"), Wire: hexWire("04 811e")}}, Fail, "padding of 3 bits is not all ones"},
		// 04; 05 61: a string of 5 octets with 1 left.
		{"block that does not walk", "a block the walker cannot split holds no string to judge: its divergence is filed under its owner",
			[]block{{Headers: path("a"), Wire: hexWire("04 0561")}}, Unsupported, "not exercised"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			tr := playRecorded("checks_test", []story{{Path: "hand-built", Cases: tt.blocks}}, nil, false)
			c := &caseRun{c: &Case{ID: "enc/5.2/4", Violation: Fail, rule: walked(huffmanCodeRule), instance: instHuffman}, ruleIndex: -1, recorded: true, transcripts: []*transcript{tr}}
			v := huffmanCodes(c)
			if v.grade != tt.grade || !strings.Contains(v.detail, tt.want) {
				t.Errorf("got %s (%q); want %s with %q: %s", v.grade, v.detail, tt.grade, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckOctetList(t *testing.T) {
	tests := []struct {
		label  string
		reason string
		octets []byte
		want   string
	}{
		{"none", "an empty list", nil, ""},
		{"one", "a single octet", []byte{0x00}, "0x00"},
		{"pair", "two consecutive octets are a range", []byte{0x00, 0x01}, "0x00-0x01"},
		{"gap", "octets one apart are not a range", []byte{0x00, 0x02}, "0x00, 0x02"},
		{"runs and singles", "ranges and single octets mixed, up to 0xff",
			[]byte{0x09, 0x0a, 0x0b, 0x7f, 0xfe, 0xff}, "0x09-0x0b, 0x7f, 0xfe-0xff"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			if got := octetList(tt.octets); got != tt.want {
				t.Errorf("octetList(% x) = %q; want %q: %s", tt.octets, got, tt.want, tt.reason)
			}
		})
	}
}

func TestCheckUntested(t *testing.T) {
	tests := []struct {
		label   string
		reason  string
		v       verdict
		dropped []byte
		grade   Grade
		want    string
	}{
		{"pass, all sent", "nothing was left out", verdict{grade: Pass, detail: "ok"}, nil, Pass, "ok"},
		{"pass, octets dropped", "a pass on part of the octets is not a pass",
			verdict{grade: Pass, detail: "ok"}, []byte{0x00, 0x01, 0x0a}, Unsupported, "ok; 3 octet values not tested, which hpack-stdio/1 without its binary form cannot carry (the encoder's hello did not offer \"binary\": true): 0x00-0x01, 0x0a"},
		{"fail, octets dropped", "a failure stands whatever was not sent",
			verdict{grade: Fail, detail: "bad"}, []byte{0x00}, Fail, "bad"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			got := untested(tt.v, tt.dropped)
			if got.grade != tt.grade || got.detail != tt.want {
				t.Errorf("got %s %q; want %s %q: %s", got.grade, got.detail, tt.grade, tt.want, tt.reason)
			}
		})
	}
}
