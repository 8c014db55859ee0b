package live

import (
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/vectors"
)

// sentBlock is a request as the certifier's decoder decodes it.
var sentBlock = []certify.Field{
	{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"}, {Name: ":path", Value: "/"}, {Name: ":authority", Value: "localhost"},
	{Name: "x-b", Value: " two "}, {Name: "cookie", Value: "a=1"}, {Name: "x-a", Value: "1"}, {Name: "cookie", Value: "b=2", Sensitive: true},
}

// relayedView is a proxy's over HTTP/1.1 that sets host and adds via.
var relayedView = DecoderView{OverHTTP1: true, Pseudo: []string{":method", ":path"}, JoinCookies: true, Lower: true,
	Transform: Transform{Drop: []string{"connection"}, Add: []string{"user-agent"}, Replace: []string{"host", "via"}}}

func TestDecoderViewCompare(t *testing.T) {
	relayed := func(fields ...string) []vectors.Field {
		var out []vectors.Field
		for i := 0; i+1 < len(fields); i += 2 {
			out = append(out, vectors.Field{Name: fields[i], Value: fields[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		name  string
		view  DecoderView
		shown []vectors.Field
		// what is in the difference reported, "" for none.
		what string
	}{
		{"as relayed", relayedView, relayed(":method", "GET", ":path", "/", "Host", "origin", "Connection", "close", "X-B", "two", "cookie", "a=1; b=2", "x-a", "1", "via", "1.1 p", "user-agent", "p"), ""},
		{"a value altered", relayedView, relayed(":method", "GET", ":path", "/", "host", "o", "x-b", "two", "cookie", "a=1; b=2", "x-a", "2"), `"x-a": "2" where "x-a": "1"`},
		{"a field left out", relayedView, relayed(":method", "GET", ":path", "/", "x-b", "two", "cookie", "a=1; b=2"), `"x-a": "1" is missing`},
		{"order across names", relayedView, relayed(":method", "GET", ":path", "/", "x-a", "1", "x-b", "two", "cookie", "a=1; b=2"), `"x-a": "1" where "x-b": "two"`},
		{"order by name declared", func() DecoderView { v := relayedView; v.ByName = true; return v }(), relayed(":method", "GET", ":path", "/", "cookie", "a=1; b=2", "x-a", "1", "x-b", "two"), ""},
		{"a field added undeclared", relayedView, relayed(":method", "GET", ":path", "/", "x-b", "two", "cookie", "a=1; b=2", "x-a", "1", "x-c", "3"), `"x-c": "3" is extra`},
		{"a declared addition excuses no field left out", func() DecoderView { v := relayedView; v.Transform.Add = []string{"x-a"}; return v }(), relayed(":method", "GET", ":path", "/", "x-b", "two", "cookie", "a=1; b=2"), `"x-a": "1" is missing`},
		{"an echo keeps every pseudo-header", DecoderView{}, relayed(":method", "GET", ":scheme", "http", ":path", "/", ":authority", "localhost", "x-b", " two ", "cookie", "a=1", "x-a", "1", "cookie", "b=2"), ""},
		{"an echo trims nothing", DecoderView{}, relayed(":method", "GET", ":scheme", "http", ":path", "/", ":authority", "localhost", "x-b", "two", "cookie", "a=1", "x-a", "1", "cookie", "b=2"), `"x-b": "two" where "x-b": " two "`},
	} {
		fields, what := c.view.Compare(sentBlock, c.shown)
		switch {
		case c.what == "" && what != "":
			t.Errorf("%s: %s; want no difference", c.name, what)
		case c.what == "" && len(fields) != len(sentBlock):
			t.Errorf("%s: fields %v; want the block's", c.name, fields)
		case c.what != "" && !strings.Contains(what, c.what):
			t.Errorf("%s: %q; want it to say %s", c.name, what, c.what)
		case c.what == "":
			for i := range fields {
				if fields[i] != sentBlock[i] {
					t.Errorf("%s: field %d is %v; want %v", c.name, i, fields[i], sentBlock[i])
				}
			}
		}
	}
}

// TestDecoderViewDifferenceReachesTheCase checks that a view that differs
// hands the engine fields that differ from the block's, so that the dec/
// case comparing them fails.
func TestDecoderViewDifferenceReachesTheCase(t *testing.T) {
	shown := []vectors.Field{{Name: ":method", Value: "GET"}, {Name: ":path", Value: "/"}, {Name: "x-b", Value: "two"}, {Name: "cookie", Value: "a=1; b=2"}, {Name: "x-a", Value: "9"}}
	fields, what := relayedView.Compare(sentBlock, shown)
	if what == "" {
		t.Fatal("no difference found")
	}
	if fields[6].Value != "9" || fields[6].Name != "x-a" {
		t.Errorf("field 6 = %v; want x-a: 9, as the target showed it", fields[6])
	}
}
