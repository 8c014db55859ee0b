package bench

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestBatchFields(t *testing.T) {
	b := Batch().Conns[0][0]
	if got := len(b); got != 4 {
		t.Fatalf("batch has %d fields; want 4", got)
	}
	if got := len(ChromeUserAgent); got != 110 {
		t.Errorf("len(ChromeUserAgent) = %d; want 110", got)
	}
}

func TestChurnFields(t *testing.T) {
	w := Churn()
	ids := map[string]bool{}
	tokens := map[string]bool{}
	for i, b := range w.Conns[0] {
		var id, token string
		for _, f := range b {
			switch f.Name {
			case "x-request-id":
				id = f.Value
			case "authorization":
				token = f.Value
			}
		}
		if len(id) != RequestIDLen {
			t.Fatalf("request %d: x-request-id %q is %d bytes; want %d", i, id, len(id), RequestIDLen)
		}
		if len(token) != BearerTokenLen {
			t.Fatalf("request %d: authorization is %d bytes; want %d", i, len(token), BearerTokenLen)
		}
		if ids[id] {
			t.Fatalf("request %d: x-request-id %q repeats", i, id)
		}
		ids[id] = true
		tokens[token] = true
	}
	if len(tokens) < 2 || len(tokens) > churnClients {
		t.Errorf("churn rotates %d bearer tokens; want 2 to %d", len(tokens), churnClients)
	}
	if w2 := Churn(); w2.Conns[0][100][8] != w.Conns[0][100][8] {
		t.Errorf("Churn is not deterministic: %q then %q", w.Conns[0][100][8].Value, w2.Conns[0][100][8].Value)
	}
}

func TestHuffmanInputs(t *testing.T) {
	text, random := HuffmanText(), HuffmanRandom()
	if len(text) != len(random) {
		t.Fatalf("%d text strings, %d random ones; want the same", len(text), len(random))
	}
	high := 0
	for i := range text {
		if len(text[i]) != len(random[i]) {
			t.Errorf("string %d: text %d bytes, random %d; want the same", i, len(text[i]), len(random[i]))
		}
		for j := 0; j < len(random[i]); j++ {
			if random[i][j] >= 0x80 {
				high++
			}
		}
	}
	// About half of uniformly random octets have the high bit set, and
	// those have 24- to 30-bit Huffman codes.
	if total := totalLen(random); high < total/4 {
		t.Errorf("%d of %d random octets are >= 0x80; want about half", high, total)
	}
}

func TestStories(t *testing.T) {
	w, err := Stories(testenv.TestCaseDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(w.Conns); got != 32 {
		t.Errorf("%d raw-data stories; want 32", got)
	}
	for c, conn := range w.Conns {
		if len(conn) == 0 {
			t.Errorf("%s: no blocks", w.ConnNames[c])
		}
	}
}

func TestStoriesMissingDir(t *testing.T) {
	if _, err := Stories(t.TempDir()); err == nil {
		t.Error("Stories of an empty directory: no error; want one")
	}
}

// TestHuffmanVariedInputs checks that the varied inputs of workload (d)
// are what their docs say: HuffmanVariants distinct variants, strings of
// HuffmanText's lengths, text redrawn within letter and digit classes.
func TestHuffmanVariedInputs(t *testing.T) {
	text := HuffmanText()
	for name, sets := range map[string][][]string{"text": HuffmanTextVaried(), "random": HuffmanRandomVaried()} {
		if len(sets) != HuffmanVariants {
			t.Fatalf("%s: %d variants; want %d", name, len(sets), HuffmanVariants)
		}
		seen := map[string]bool{}
		for k, set := range sets {
			if len(set) != len(text) {
				t.Fatalf("%s variant %d: %d strings; want %d", name, k, len(set), len(text))
			}
			for i, s := range set {
				if len(s) != len(text[i]) {
					t.Fatalf("%s variant %d string %d: %d bytes; want %d", name, k, i, len(s), len(text[i]))
				}
				if name == "text" {
					for j := range s {
						if class(s[j]) != class(text[i][j]) {
							t.Fatalf("text variant %d string %d byte %d: %q for %q; want the same class", k, i, j, s[j], text[i][j])
						}
					}
				}
			}
			seen[strings.Join(set, "\x00")] = true
		}
		if len(seen) != HuffmanVariants {
			t.Errorf("%s: %d distinct variants; want %d", name, len(seen), HuffmanVariants)
		}
	}
}

// class returns the class a varied text octet is redrawn in, or the octet
// itself for octets kept as they are.
func class(c byte) int {
	switch {
	case 'a' <= c && c <= 'z':
		return -1
	case 'A' <= c && c <= 'Z':
		return -2
	case '0' <= c && c <= '9':
		return -3
	}
	return int(c)
}
