package certify

import (
	"encoding/hex"
	"strings"
	"testing"
)

func TestWalkBlock(t *testing.T) {
	tests := []struct {
		label   string
		hex     string
		kinds   []repKind
		problem string // what the §5.1/§5.2 rules find, "" for none
		err     string // walker error, "" for none
	}{
		{"RFC C.4.1 request with Huffman", "828684418cf1e3c2e5f23a6ba0ab90f4ff",
			[]repKind{repIndexed, repIndexed, repIndexed, repIncremental}, "", ""},
		{"size update 31 in one continuation octet", "3f00", []repKind{repSizeUpdate}, "", ""},
		{"size update 31 with a redundant continuation", "3f8000", []repKind{repSizeUpdate}, "redundant zero continuation", ""},
		{"size update 4096", "3fe11f", []repKind{repSizeUpdate}, "", ""},
		{"never indexed literal name", "1001610162", []repKind{repNeverIndexed}, "", ""},
		{"without indexing, indexed name", "0f0203616263", []repKind{repWithoutIndexing}, "", ""},
		{"Huffman 'a' padded with ones", "40016181" + "1f", []repKind{repIncremental}, "", ""},
		{"Huffman 'a' padded with zeros", "4001618118", []repKind{repIncremental}, "not all ones", ""},
		{"Huffman padding of 11 bits", "40016182" + "1fff", []repKind{repIncremental}, "11 bits of padding", ""},
		{"EOS inside a Huffman string", "4001618" + "4ffffffff", []repKind{repIncremental}, "EOS symbol", ""},
		{"string past the end", "40016185616263", nil, "", "runs past the end"},
		{"integer past the end", "7fff", nil, "", "integer runs past the end"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			block, err := hex.DecodeString(tt.hex)
			if err != nil {
				t.Fatal(err)
			}
			reps, err := walkBlock(block)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("walkBlock error %v; want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("walkBlock: %v", err)
			}
			var kinds []repKind
			for _, r := range reps {
				kinds = append(kinds, r.kind)
			}
			if len(kinds) != len(tt.kinds) {
				t.Fatalf("got kinds %v; want %v", kinds, tt.kinds)
			}
			for i := range kinds {
				if kinds[i] != tt.kinds[i] {
					t.Fatalf("got kinds %v; want %v", kinds, tt.kinds)
				}
			}
			b := &playedBlock{reps: reps}
			var problems []string
			for _, rule := range []func(*playedBlock) (string, bool){minimalIntegers, huffmanPadding} {
				if p, bad := rule(b); bad {
					problems = append(problems, p)
				}
			}
			got := strings.Join(problems, "; ")
			if (tt.problem == "") != (got == "") || !strings.Contains(got, tt.problem) {
				t.Errorf("problems %q; want %q", got, tt.problem)
			}
		})
	}
}

func TestHuffmanDecodeRFC(t *testing.T) {
	// RFC 7541 C.4.1: "www.example.com" Huffman-coded.
	raw, _ := hex.DecodeString("f1e3c2e5f23a6ba0ab90f4ff")
	text, problem := huffmanDecode(raw)
	if text != "www.example.com" || problem != "" {
		t.Errorf("huffmanDecode = %q, %q; want %q, no problem", text, problem, "www.example.com")
	}
	if got := huffmanLen("www.example.com"); got != len(raw) {
		t.Errorf("huffmanLen = %d; want %d", got, len(raw))
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"enc", []string{"enc"}},
		{"  enc  -a  b ", []string{"enc", "-a", "b"}},
		{`enc "two words" 'single "q"' x""y`, []string{"enc", "two words", `single "q"`, "xy"}},
		{`enc ""`, []string{"enc", ""}},
	}
	for _, tt := range tests {
		got, err := splitCommand(tt.in)
		if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("splitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseExpectFail(t *testing.T) {
	in := "# known\nenc/4.2/3\n\nmy encoder 1.0 enc/7.1.3/2\n"
	got, err := parseExpectFail(strings.NewReader(in), "known.txt")
	if err != nil || strings.Join(got, "|") != "enc/4.2/3|my encoder 1.0 enc/7.1.3/2" {
		t.Errorf("parseExpectFail = %q, %v", got, err)
	}
	_, err = parseExpectFail(strings.NewReader("enc/1.1/1\nnot-a-case\n"), "bad.txt")
	if err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
		t.Errorf("parseExpectFail of a bad line: error %v; want one naming bad.txt:2", err)
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{limit: 8}
	b.Write([]byte("0123456789"))
	b.Write([]byte("ab"))
	if got, want := b.String(), "[4 earlier octets dropped]\n456789ab"; got != want {
		t.Errorf("tail = %q; want %q", got, want)
	}
}
