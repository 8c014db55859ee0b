package shell

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []string
		why        string
	}{
		{"blanks", " a\tb \n c ", []string{"a", "b", "c"}, "space, tab and newline separate words; leading and trailing ones are dropped"},
		{"empty", "", nil, "no words"},
		{"single", `'a b' 'x\y' '"'`, []string{"a b", `x\y`, `"`}, "nothing is special inside single quotes"},
		{"double", `"a b" "q\"q" "\\" "\$x" "\x"`, []string{"a b", `q"q`, `\`, "$x", `\x`}, `in double quotes a backslash escapes only $ ` + "`" + ` " \ and newline`},
		{"backslash", `a\ b \'c \\`, []string{"a b", "'c", `\`}, "outside quotes a backslash keeps the next octet"},
		{"continuation", "a\\\nb", []string{"ab"}, "a backslash-newline pair is removed"},
		{"joined", `a'b'"c"d`, []string{"abcd"}, "quoted and unquoted parts of one word join"},
		{"empty word", `'' ""`, []string{"", ""}, "quotes make an empty word"},
		{"no expansion", "$HOME `id` * a|b;c", []string{"$HOME", "`id`", "*", "a|b;c"}, "no expansion and no operators: no shell runs"},
		{"placeholder", `client {url} next\ {url}`, []string{"client", "{url}", "next {url}"}, "braces are ordinary"},
	} {
		got, err := Split(tc.line)
		if err != nil {
			t.Errorf("%s: Split(%q) error %v; want %q (%s)", tc.name, tc.line, err, tc.want, tc.why)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: Split(%q) = %q; want %q (%s)", tc.name, tc.line, got, tc.want, tc.why)
		}
	}
}

func TestSplitErrors(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`a 'b`, "unterminated '"},
		{`a "b`, `unterminated "`},
		{`a "b\"`, `unterminated "`},
		{`a\`, "backslash at the end"},
	} {
		_, err := Split(tc.line)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Split(%q) error %v; want one containing %q", tc.line, err, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ word, want, why string }{
		{"abc-1_./:=,+@%", "abc-1_./:=,+@%", "plain octets need no quotes"},
		{"", "''", "an empty word must still be a word"},
		{"a b", "'a b'", "a blank"},
		{"it's", `'it'\''s'`, "a single quote is closed, escaped and reopened"},
		{"$x", "'$x'", "no expansion in the shell the user pastes into"},
		{"{url}", "'{url}'", "brace expansion in some shells"},
	} {
		if got := Quote(tc.word); got != tc.want {
			t.Errorf("Quote(%q) = %s; want %s (%s)", tc.word, got, tc.want, tc.why)
		}
	}
}

// TestQuoteRoundTrip checks that Split gives back the word Quote quoted,
// for every octet 1-255 alone, inside a word and next to a quote.
func TestQuoteRoundTrip(t *testing.T) {
	for c := 1; c < 256; c++ {
		for _, w := range []string{string([]byte{byte(c)}), "a" + string([]byte{byte(c)}) + "b", "'" + string([]byte{byte(c)}) + `"`} {
			got, err := Split(Quote(w))
			if err != nil || len(got) != 1 || got[0] != w {
				t.Errorf("Split(Quote(%q)) = %q, %v; want [%q]", w, got, err, w)
			}
		}
	}
	words := []string{"curl", "-H", "x: 'y'", "", `\`, "a\nb"}
	got, err := Split(Join(words))
	if err != nil || !reflect.DeepEqual(got, words) {
		t.Errorf("Split(Join(%q)) = %q, %v", words, got, err)
	}
}
