package encoder

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// representation names the §6 representation a field was sent with, from
// its first byte.
func representation(first byte) string {
	switch {
	case first&0x80 != 0:
		return "indexed"
	case first&0xc0 == 0x40:
		return "incremental"
	case first&0xf0 == 0x00:
		return "without"
	case first&0xf0 == 0x10:
		return "never"
	}
	return fmt.Sprintf("other %#x", first)
}

// TestPolicy checks which representation each policy rule picks, that only
// "with Incremental Indexing" adds an entry, that the block decodes with
// x/net, and that names are still referenced by index.
func TestPolicy(t *testing.T) {
	large := strings.Repeat("v", 3*4096/4-32-len("x-large")+1) // entry just over 3/4 of 4096
	fits := large[1:]                                          // entry exactly 3/4
	giant := strings.Repeat("g", 4096)                         // entry over 4096
	tests := []struct {
		name, field, value string
		sensitive          bool
		policy             Policy
		maxSize            uint32 // acknowledged first when not 4096
		want               string // representation
		wantNameIndex      int    // for literals: index of the name, 0 for a literal name
	}{
		{name: "authorization is never indexed", field: "authorization", value: "Bearer abc", want: "never", wantNameIndex: 23},
		{name: "proxy-authorization is never indexed", field: "proxy-authorization", value: "Basic xyz", want: "never", wantNameIndex: 49},
		{name: "authorization of 20 bytes and more is never indexed", field: "authorization", value: "Bearer 0123456789abcdefghij", want: "never", wantNameIndex: 23},
		{name: "short cookie is never indexed", field: "cookie", value: strings.Repeat("c", 19), want: "never", wantNameIndex: 32},
		{name: "20-byte cookie is indexed", field: "cookie", value: strings.Repeat("c", 20), want: "incremental", wantNameIndex: 32},
		{name: "ShortCookieLen 30", field: "cookie", value: strings.Repeat("c", 29), policy: Policy{ShortCookieLen: 30}, want: "never", wantNameIndex: 32},
		{name: "ShortCookieLen negative turns the rule off", field: "cookie", value: "a=b", policy: Policy{ShortCookieLen: -1}, want: "incremental", wantNameIndex: 32},
		{name: "sensitive custom field", field: "x-secret", value: "s", sensitive: true, want: "never"},
		{name: "sensitive field the static table holds", field: ":method", value: "GET", sensitive: true, want: "never", wantNameIndex: 2},
		{name: "sensitive field equal to a later static entry names that entry", field: ":status", value: "500", sensitive: true, want: "never", wantNameIndex: 14},
		{name: "authorization equal to its static entry is referenced", field: "authorization", value: "", want: "indexed"},
		{name: "empty cookie equal to its static entry is referenced", field: "cookie", value: "", want: "indexed"},
		{name: "sensitive under IndexAll", field: "x-secret", value: "s", sensitive: true, policy: IndexAllPolicy(), want: "never"},
		{name: ":path with a query is not indexed", field: ":path", value: "/search?q=1", want: "without", wantNameIndex: 4},
		{name: ":path without a query is indexed", field: ":path", value: "/search", want: "incremental", wantNameIndex: 4},
		{name: ":path of 28 bytes is indexed", field: ":path", value: "/" + strings.Repeat("p", 27), want: "incremental", wantNameIndex: 4},
		{name: ":path over 28 bytes is not indexed", field: ":path", value: "/" + strings.Repeat("p", 28), want: "without", wantNameIndex: 4},
		{name: ":path / is static", field: ":path", value: "/", want: "indexed"},
		{name: "content-length", field: "content-length", value: "1234", want: "without", wantNameIndex: 28},
		{name: "etag", field: "etag", value: `"abc"`, want: "without", wantNameIndex: 34},
		{name: "if-modified-since", field: "if-modified-since", value: "Mon, 21 Oct 2013 20:13:21 GMT", want: "without", wantNameIndex: 40},
		{name: "if-none-match", field: "if-none-match", value: `"abc"`, want: "without", wantNameIndex: 41},
		{name: "last-modified", field: "last-modified", value: "Mon, 21 Oct 2013 20:13:21 GMT", want: "without", wantNameIndex: 44},
		{name: "location", field: "location", value: "https://example.com/", want: "without", wantNameIndex: 46},
		{name: "set-cookie", field: "set-cookie", value: "a=b; Path=/", want: "without", wantNameIndex: 55},
		{name: "age", field: "age", value: "10", want: "without", wantNameIndex: 21},
		{name: "IndexAll indexes authorization", field: "authorization", value: "Bearer abc", policy: IndexAllPolicy(), want: "incremental", wantNameIndex: 23},
		{name: "IndexAll indexes content-length", field: "content-length", value: "1234", policy: IndexAllPolicy(), want: "incremental", wantNameIndex: 28},
		{name: "ordinary field is indexed", field: "user-agent", value: "curl/8", want: "incremental", wantNameIndex: 58},
		{name: "new name is indexed", field: "x-request-kind", value: "a", want: "incremental"},
		{name: "entry over 3/4 of the table", field: "x-large", value: large, want: "without"},
		{name: "entry of exactly 3/4 of the table", field: "x-large", value: fits, want: "incremental"},
		{name: "LargeEntryPercent 100", field: "x-large", value: large, policy: Policy{LargeEntryPercent: 100}, want: "incremental"},
		{name: "IndexAll ignores the 3/4 rule", field: "x-large", value: large, policy: IndexAllPolicy(), want: "incremental"},
		{name: "giant field", field: "x-giant", value: giant, policy: IndexAllPolicy(), want: "without"},
		{name: "sensitive giant field", field: "x-giant", value: giant, sensitive: true, policy: IndexAllPolicy(), want: "never"},
		{name: "maximum size 0: literal", field: "x-a", value: "b", maxSize: 0, want: "without"},
		{name: "maximum size 0: static reference", field: ":method", value: "GET", maxSize: 0, want: "indexed"},
		{name: "maximum size 0: static name", field: "user-agent", value: "x", maxSize: 0, want: "without", wantNameIndex: 58},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := New(Config{Policy: tt.policy})
			p := newPeer()
			// A first block with one entry, to see that the field
			// under test leaves it alone or adds exactly one.
			block := enc.AppendFieldString(nil, "x-first", "1", false)
			if _, err := p.dec.DecodeFull(block); err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tt.name, "maximum size 0") {
				p.ack(enc, tt.maxSize)
			}
			before := enc.TableLen()
			block = enc.AppendFieldString(nil, tt.field, tt.value, tt.sensitive)
			got, err := p.dec.DecodeFull(block)
			if err != nil {
				t.Fatalf("decoding %x: %v", block, err)
			}
			if strings.HasPrefix(tt.name, "maximum size 0") {
				block = block[1:] // the size update to 0
			}
			if rep := representation(block[0]); rep != tt.want {
				t.Errorf("representation %s; want %s (block %x)", rep, tt.want, block)
			}
			want := hpack.HeaderField{Name: tt.field, Value: tt.value, Sensitive: tt.want == "never"}
			if len(got) != 1 || got[0] != want {
				t.Errorf("decoded %v; want %v", got, want)
			}
			wantLen := before
			if tt.want == "incremental" {
				wantLen++
			}
			if enc.TableLen() != wantLen {
				t.Errorf("TableLen() = %d; want %d", enc.TableLen(), wantLen)
			}
			checkTablesEqual(t, "after the field", enc, p)
			if tt.want == "without" || tt.want == "never" || tt.want == "incremental" {
				prefixBits := uint8(4)
				if tt.want == "incremental" {
					prefixBits = 6
				}
				if index := decodeIndex(block, prefixBits); index != tt.wantNameIndex {
					t.Errorf("name index %d; want %d", index, tt.wantNameIndex)
				}
			}
		})
	}
}

// decodeIndex reads the §5.1 integer with a prefixBits-bit prefix at the
// start of b.
func decodeIndex(b []byte, prefixBits uint8) int {
	limit := 1<<prefixBits - 1
	v := int(b[0]) & limit
	if v < limit {
		return v
	}
	for shift, i := 0, 1; ; shift, i = shift+7, i+1 {
		v += int(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v
		}
	}
}

// TestZeroPolicyIsDefaultPolicy checks that Config{} and an explicit
// DefaultPolicy encode the same.
func TestZeroPolicyIsDefaultPolicy(t *testing.T) {
	a, b := New(Config{}), New(Config{Policy: DefaultPolicy})
	var outA, outB []byte
	for _, s := range readRawStories(t)[:4] {
		for _, block := range s.blocks {
			for _, f := range block {
				outA = a.AppendFieldString(outA, f.Name, f.Value, false)
				outB = b.AppendFieldString(outB, f.Name, f.Value, false)
			}
		}
	}
	if !bytes.Equal(outA, outB) {
		t.Errorf("zero Policy and DefaultPolicy encode differently")
	}
	if a.config != b.config {
		t.Errorf("normalized configs differ: %+v and %+v", a.config, b.config)
	}
}
