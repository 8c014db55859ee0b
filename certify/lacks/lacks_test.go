package lacks

import (
	"fmt"
	"github.com/hpackcert/hpackcert/internal/spec"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/vectors"
)

// The story format's names, as the engine's tests call them.
type (
	story = vectors.Story
	block = vectors.Case
)

// TestExpressedEachLack checks how every lack rewrites a story into what
// the encoder can express.
func TestExpressedEachLack(t *testing.T) {
	f := func(name, value string, sensitive bool) spec.Field {
		return spec.Field{Name: name, Value: value, Sensitive: sensitive}
	}
	src := func() []vectors.Story {
		return []vectors.Story{{Path: "s", Cases: []vectors.Case{
			{Headers: []spec.Field{f("x-a", "1", false), f(":path", "/", false), f("Authorization", "t", true)}},
			{TableSizes: []uint32{100, 4096}},
			{TableSizes: []uint32{0, 1024}, Headers: []spec.Field{f(":method", "GET", false), f("", "empty", false), f("x-b", "2", false), f(":scheme", "http", false)}},
		}}}
	}
	names := func(b block) string {
		var out []string
		for _, h := range b.Headers {
			out = append(out, h.Name)
		}
		return strings.Join(out, ",")
	}
	tests := []struct {
		lack  Lacks
		check func(t *testing.T, st story)
	}{
		{Lacks{NeverIndex: true}, func(t *testing.T, st story) {
			for _, b := range st.Cases {
				for _, h := range b.Headers {
					if h.Sensitive {
						t.Errorf("never-index: %s still sensitive", h.Name)
					}
				}
			}
		}},
		{Lacks{PseudoFirst: true}, func(t *testing.T, st story) {
			if got := names(st.Cases[0]); got != ":path,x-a,Authorization" {
				t.Errorf("pseudo-first: block 0 %s", got)
			}
			if got := names(st.Cases[2]); got != ":method,:scheme,,x-b" {
				t.Errorf("pseudo-first: block 2 %s", got)
			}
		}},
		{Lacks{OneSizeUpdate: true}, func(t *testing.T, st story) {
			if got := st.Cases[1].AckedSizes(); !slices.Equal(got, []uint32{4096}) {
				t.Errorf("one-size-update: block 1 acks %v; want [4096]", got)
			}
			if got := st.Cases[2].AckedSizes(); !slices.Equal(got, []uint32{1024}) {
				t.Errorf("one-size-update: block 2 acks %v; want [1024]", got)
			}
		}},
		{Lacks{EmptyBlock: true}, func(t *testing.T, st story) {
			if len(st.Cases) != 2 {
				t.Fatalf("empty-block: %d blocks; want 2", len(st.Cases))
			}
			if got := st.Cases[1].AckedSizes(); !slices.Equal(got, []uint32{100, 4096, 0, 1024}) {
				t.Errorf("empty-block: the next block acks %v; want the left-out block's settings first", got)
			}
		}},
		{Lacks{UppercaseNames: true}, func(t *testing.T, st story) {
			if got := names(st.Cases[0]); got != "x-a,:path,authorization" {
				t.Errorf("uppercase-names: block 0 %s", got)
			}
			if got := lowerName("X-\xc1\xd7\xde\xdf\xffZ"); got != "x-\xe1\xd7\xfe\xdf\xffz" {
				t.Errorf("uppercase-names: %q; want the ASCII and Latin-1 uppercase letters lowercased", got)
			}
		}},
		{Lacks{EmptyName: true}, func(t *testing.T, st story) {
			if got := names(st.Cases[2]); got != ":method,x-b,:scheme" {
				t.Errorf("empty-name: block 2 %s", got)
			}
		}},
		{Lacks{RequestHead: true}, func(t *testing.T, st story) {
			values := func(b block) string {
				var out []string
				for _, h := range b.Headers {
					out = append(out, h.Name+"="+h.Value)
				}
				return strings.Join(out, ",")
			}
			if got := values(st.Cases[0]); got != ":method=GET,:scheme=https,:authority=hpackcert.test,:path=/,x-a=1,Authorization=t" {
				t.Errorf("request-head: block 0 %s", got)
			}
			if got := values(st.Cases[1]); got != ":method=GET,:scheme=https,:authority=hpackcert.test,:path=/" || !slices.Equal(st.Cases[1].AckedSizes(), []uint32{100, 4096}) {
				t.Errorf("request-head: the empty block %s, acks %v; want the head alone, its settings kept", got, st.Cases[1].AckedSizes())
			}
			if got := values(st.Cases[2]); got != ":method=GET,:scheme=http,:authority=hpackcert.test,:path=/,=empty,x-b=2" {
				t.Errorf("request-head: block 2 %s; want its own :method and :scheme moved up", got)
			}
			if !st.Cases[0].Headers[5].Sensitive {
				t.Errorf("request-head: a field behind the head lost its mark")
			}
			head := []spec.Field{f(":method", "POST", false), f(":scheme", "http", false), f(":authority", "a", false), f(":path", "/x", false), f(":path", "/y", false), f("x", "1", false)}
			if got := (Lacks{}).withRequestHead(slices.Clone(head)); !slices.Equal(got, head) {
				t.Errorf("request-head: a block that starts with the head became %v", got)
			}
			secret := []spec.Field{f(":path", "/s", true), f("x", "1", false)}
			if got := (Lacks{}).withRequestHead(secret); len(got) != 6 || got[3] != requestHead[3] || got[4] != secret[0] {
				t.Errorf("request-head: a sensitive :path moved into the head: %v", got)
			}
		}},
		{Lacks{EmptyBlock: true, OneSizeUpdate: true}, func(t *testing.T, st story) {
			if got := st.Cases[1].AckedSizes(); !slices.Equal(got, []uint32{1024}) {
				t.Errorf("empty-block and one-size-update: acks %v; want [1024]", got)
			}
		}},
	}
	for _, tt := range tests {
		before := src()
		out := Expressed(src(), tt.lack)
		if len(out) != 1 {
			t.Fatalf("%s: %d stories", tt.lack, len(out))
		}
		tt.check(t, out[0])
		if before[0].Cases[0].Headers[2].Name != "Authorization" || !before[0].Cases[0].Headers[2].Sensitive {
			t.Errorf("%s: the source story changed", tt.lack)
		}
	}
	if out := Expressed([]vectors.Story{{Path: "e", Cases: []vectors.Case{{}}}}, Lacks{EmptyBlock: true}); len(out) != 0 {
		t.Errorf("a story of empty blocks only, without empty blocks: %d stories; want none", len(out))
	}
}

// TestLacksRefusedOctets checks that refused octets are stripped and that
// ParseLacks refuses what it does not know.
func TestLacksRefusedOctets(t *testing.T) {
	l, err := ParseLacks([]string{"never-index"}, [][2]int{{0, 0x1f}, {0x7f, 0xff}})
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Strip("a\x00b\x7fc\xffd\te"); got != "abcde" {
		t.Errorf("strip: %q; want %q", got, "abcde")
	}
	if !l.NeverIndex || l.String() != "never-index, refuses 0x00-0x1f, refuses 0x7f-0xff" {
		t.Errorf("lacks %q", l)
	}
	for _, bad := range []struct {
		names   []string
		refuses [][2]int
		want    string
	}{
		{[]string{"no-huffman"}, nil, `unknown lack "no-huffman"`},
		{nil, [][2]int{{3, 2}}, "refused octets [3, 2]"},
		{nil, [][2]int{{0, 256}}, "refused octets [0, 256]"},
	} {
		if _, err := ParseLacks(bad.names, bad.refuses); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseLacks(%q, %v) = %v; want an error with %q", bad.names, bad.refuses, err, bad.want)
		}
	}
}

// TestExpressedShapeLacks checks how grouped-names, pseudo-order and
// token-names rewrite a block, alone, and that the refused octets, which
// are stripped later, are judged as sent.
func TestExpressedShapeLacks(t *testing.T) {
	type want struct{ name, value string }
	f := func(name, value string) spec.Field { return spec.Field{Name: name, Value: value} }
	tests := []struct {
		what   string
		lack   Lacks
		fields []spec.Field
		want   []want
	}{
		{"grouped-names", Lacks{GroupedNames: true},
			[]spec.Field{f("c", "1"), f("a", "2"), f("c\x01", "3"), f(":path", "/"), f("a", "4"), f("c", "5")},
			[]want{{"c", "1"}, {"c", "5"}, {"a", "2"}, {"a", "4"}, {"c\x01", "3"}, {":path", "/"}}},
		{"grouped-names, names as sent", Lacks{GroupedNames: true, Refuses: []OctetRange{{1, 1}}},
			[]spec.Field{f("c", "1"), f("a", "2"), f("c\x01", "3"), f("a", "4")},
			[]want{{"c", "1"}, {"c\x01", "3"}, {"a", "2"}, {"a", "4"}}},
		{"pseudo-order", Lacks{PseudoOrder: true},
			[]spec.Field{f("x", "0"), f(":path", "/"), f(":method", "G T"), f(":method", "GET"), f(":foo", "bar"), f(":path", "/2"),
				{Name: ":authority", Value: "h", Sensitive: true}, f(":status", "099"), f(":scheme", "\xff"), f(":status", "204"), f(":Path", "/3")},
			[]want{{"x", "0"}, {":method", "GET"}, {"-method", "G T"}, {":path", "/"}, {"-foo", "bar"}, {"-path", "/2"},
				{"-authority", "h"}, {"-status", "099"}, {"-scheme", "\xff"}, {":status", "204"}, {"-Path", "/3"}}},
		{"pseudo-order, values as sent", Lacks{PseudoOrder: true, Refuses: []OctetRange{{1, 1}}},
			[]spec.Field{f(":status", "2\x0104"), f(":pa\x01th", "/"), f(":method", "GET")},
			[]want{{":method", "GET"}, {":pa\x01th", "/"}, {":status", "2\x0104"}}},
		{"pseudo-order after uppercase-names", Lacks{PseudoOrder: true, UppercaseNames: true},
			[]spec.Field{f(":Path", "/"), f(":METHOD", "GET")},
			[]want{{":method", "GET"}, {":path", "/"}}},
		{"token-names", Lacks{TokenNames: true, Refuses: []OctetRange{{1, 1}}},
			[]spec.Field{f("a b", "1"), f("x\xc0y", "2"), f("c\x01d", "3"), f(":path", "/"), f("", "4"), f("Ok-Name", "5"), f("a:b\"c", "6")},
			[]want{{"a-b", "1"}, {"x-y", "2"}, {"c\x01d", "3"}, {":path", "/"}, {"", "4"}, {"Ok-Name", "5"}, {"a-b-c", "6"}}},
		{"pseudo-order and token-names", Lacks{PseudoOrder: true, TokenNames: true},
			[]spec.Field{f(":a b", "1"), f(":status", "200")},
			[]want{{"-a-b", "1"}, {":status", "200"}}},
	}
	for _, tt := range tests {
		src := []vectors.Story{{Path: "s", Cases: []vectors.Case{{Headers: slices.Clone(tt.fields)}}}}
		out := Expressed(src, tt.lack)
		if len(out) != 1 || len(out[0].Cases) != 1 {
			t.Fatalf("%s: %d stories", tt.what, len(out))
		}
		var got []want
		for _, h := range out[0].Cases[0].Headers {
			got = append(got, want{h.Name, h.Value})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s:\n got %q\nwant %q", tt.what, got, tt.want)
		}
		for _, h := range out[0].Cases[0].Headers {
			if tt.lack.PseudoOrder && h.Sensitive != (h.Name == "-authority") {
				t.Errorf("%s: %s sensitive %v; a demoted field keeps its mark, no pseudo-header field has one", tt.what, h.Name, h.Sensitive)
			}
		}
	}
	// An empty name is empty as sent, too.
	out := Expressed([]vectors.Story{{Path: "e", Cases: []vectors.Case{{Headers: []spec.Field{f("\x01", "1"), f("a", "2")}}}}}, Lacks{EmptyName: true, Refuses: []OctetRange{{1, 1}}})
	if got := out[0].Cases[0].Headers; len(got) != 1 || got[0].Name != "a" {
		t.Errorf("empty-name with refused octets: %v; want the name of refused octets only left out", got)
	}
}

// TestExpressedH2 checks that with the lacks h2 (Rust) declares, every
// block of every scenario is one h2 can take: its pseudo-header fields
// first, h2's six, each once, in its order, none sensitive, with values
// it parses; then lowercase token names, each name's fields together.
// No story loses a block, and, since no field is left out, the fields'
// entry sizes stay those of the story.
func TestExpressedH2(t *testing.T) {
	l, err := ParseLacks([]string{"pseudo-first", "uppercase-names", "empty-name", "grouped-names", "pseudo-order", "token-names"},
		[][2]int{{0, 8}, {10, 31}, {127, 127}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(l.Names(), ","); got != "pseudo-first,uppercase-names,empty-name,grouped-names,pseudo-order,token-names" {
		t.Errorf("Names: %s", got)
	}
	raw, err := vectors.RawData()
	if err != nil {
		t.Fatal(err)
	}
	traffic := make([]vectors.Story, len(raw))
	for i, st := range raw {
		traffic[i] = *st
	}
	all := map[string][]vectors.Story{"traffic": CloneStories(traffic)}
	for _, sc := range []string{vectors.ScenarioEmptyBlock, vectors.ScenarioAdversarial, vectors.ScenarioEntrySize, vectors.ScenarioSizes, vectors.ScenarioEvictResize, vectors.ScenarioEvictInsert, vectors.ScenarioGiant, vectors.ScenarioOctets, vectors.ScenarioHuffmanOctets, vectors.ScenarioSpec, vectors.ScenarioSensitive, vectors.ScenarioCredentials} {
		all[sc], _ = vectors.Scenario(sc, 1, 16, false)
	}
	h2Rank := func(name string) int { return slices.Index(pseudoNames, name) }
	for sc, stories := range all {
		src := CloneStories(stories)
		out := Expressed(stories, l)
		if len(out) != len(src) {
			t.Errorf("%s: %d stories of %d", sc, len(out), len(src))
			continue
		}
		for si, st := range out {
			if len(st.Cases) != len(src[si].Cases) {
				t.Errorf("%s %s: %d blocks of %d", sc, st.Path, len(st.Cases), len(src[si].Cases))
				continue
			}
			for bi, b := range st.Cases {
				where := fmt.Sprintf("%s %s block %d", sc, st.Path, bi)
				size, srcSize := 0, 0
				for _, h := range src[si].Cases[bi].Headers {
					if l.Strip(h.Name) != "" {
						srcSize += len(h.Name) + len(h.Value)
					}
				}
				lastRank, regular := -1, false
				seen := map[string]bool{}
				prev := ""
				for fi, h := range b.Headers {
					size += len(h.Name) + len(h.Value)
					name, value := l.Strip(h.Name), l.Strip(h.Value)
					if strings.HasPrefix(name, ":") {
						r := h2Rank(name)
						switch {
						case regular:
							t.Errorf("%s field %d: %s after a regular field", where, fi, name)
						case r <= lastRank:
							t.Errorf("%s field %d: %s not in h2's order, or not one of its six", where, fi, name)
						case h.Sensitive || !pseudoValue(r, value):
							t.Errorf("%s field %d: %s sensitive or of a value h2 refuses: %q", where, fi, name, value)
						}
						lastRank = r
						continue
					}
					regular = true
					if name == "" || l.tokenName(name) != name || lowerName(name) != name {
						t.Errorf("%s field %d: name %q is no lowercase token", where, fi, name)
					}
					if name != prev && seen[name] {
						t.Errorf("%s field %d: %s again after %s", where, fi, name, prev)
					}
					seen[name], prev = true, name
				}
				if size != srcSize {
					t.Errorf("%s: fields of %d octets; the story's are %d", where, size, srcSize)
				}
			}
		}
	}
}
