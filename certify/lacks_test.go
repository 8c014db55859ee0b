package certify

import (
	"slices"
	"strings"
	"testing"
)

// TestExpressedEachLack checks how every lack rewrites a story into what
// the encoder can express.
func TestExpressedEachLack(t *testing.T) {
	f := func(name, value string, sensitive bool) Field {
		return Field{Name: name, Value: value, Sensitive: sensitive}
	}
	src := func() []story {
		return []story{{Path: "s", Cases: []block{
			{Headers: []Field{f("x-a", "1", false), f(":path", "/", false), f("Authorization", "t", true)}},
			{TableSizes: []uint32{100, 4096}},
			{TableSizes: []uint32{0, 1024}, Headers: []Field{f(":method", "GET", false), f("", "empty", false), f("x-b", "2", false), f(":scheme", "http", false)}},
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
		{Lacks{EmptyBlock: true, OneSizeUpdate: true}, func(t *testing.T, st story) {
			if got := st.Cases[1].AckedSizes(); !slices.Equal(got, []uint32{1024}) {
				t.Errorf("empty-block and one-size-update: acks %v; want [1024]", got)
			}
		}},
	}
	for _, tt := range tests {
		before := src()
		out := expressed(src(), tt.lack)
		if len(out) != 1 {
			t.Fatalf("%s: %d stories", tt.lack, len(out))
		}
		tt.check(t, out[0])
		if before[0].Cases[0].Headers[2].Name != "Authorization" || !before[0].Cases[0].Headers[2].Sensitive {
			t.Errorf("%s: the source story changed", tt.lack)
		}
	}
	if out := expressed([]story{{Path: "e", Cases: []block{{}}}}, Lacks{EmptyBlock: true}); len(out) != 0 {
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
	if got := l.strip("a\x00b\x7fc\xffd\te"); got != "abcde" {
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
