package live

import (
	"reflect"
	"testing"

	"github.com/hpackcert/hpackcert/vectors"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		line     string
		args     []string
		headers  []vectors.Field
		requests int
		wantErr  bool
	}{
		{
			line:     `curl -s -H 'X-A: one two' --header "b: \"q\"" -Hc:3 --header=D: 4 {urls}`,
			args:     []string{"curl", "-s", "-H", "X-A: one two", "--header", `b: "q"`, "-Hc:3", "--header=D:", "4", "{urls}"},
			headers:  fields("x-a", "one two", "b", `"q"`, "c", "3", "d", ""),
			requests: 9,
		},
		{line: `client {url} next\ {url}`, args: []string{"client", "{url}", "next {url}"}, requests: 2},
		{line: "curl http://example", wantErr: true},
		{line: "curl 'open {urls}", wantErr: true},
		{line: "", wantErr: true},
	} {
		c, err := ParseCommand(tc.line)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseCommand(%q) error = %v; want error %v", tc.line, err, tc.wantErr)
			continue
		}
		if tc.wantErr {
			continue
		}
		if !reflect.DeepEqual(c.Args, tc.args) {
			t.Errorf("ParseCommand(%q).Args = %q; want %q", tc.line, c.Args, tc.args)
		}
		if !reflect.DeepEqual(c.Headers, tc.headers) {
			t.Errorf("ParseCommand(%q).Headers = %v; want %v", tc.line, c.Headers, tc.headers)
		}
		if n := c.Requests(9); n != tc.requests {
			t.Errorf("ParseCommand(%q).Requests(9) = %d; want %d", tc.line, n, tc.requests)
		}
	}
}

func TestExpand(t *testing.T) {
	c, err := ParseCommand("x --a={url} {urls} b{url}")
	if err != nil {
		t.Fatal(err)
	}
	got := c.Expand([]string{"u1", "u2"})
	want := []string{"x", "--a=u1", "u1", "u2", "bu2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Expand = %q; want %q", got, want)
	}
}

func TestWithHeaders(t *testing.T) {
	given := fields("x-q", `it's "quoted" $HOME`, "x-b", "2")
	for _, tc := range []struct {
		line  string
		takes bool
		args  []string
	}{
		{`curl -H 'x-own: 1' {headers} {urls}`, true,
			[]string{"curl", "-H", "x-own: 1", "-H", `x-q: it's "quoted" $HOME`, "-H", "x-b: 2", "{urls}"}},
		// Quoted, it is the same word; twice, both are replaced.
		{`curl "{headers}" {headers} {urls}`, true,
			[]string{"curl", "-H", `x-q: it's "quoted" $HOME`, "-H", "x-b: 2", "-H", `x-q: it's "quoted" $HOME`, "-H", "x-b: 2", "{urls}"}},
		// Inside another word it is no placeholder.
		{`curl -H{headers} {urls}`, false, []string{"curl", "-H{headers}", "{urls}"}},
	} {
		c, err := ParseCommand(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		if c.TakesHeaders() != tc.takes {
			t.Errorf("%q: TakesHeaders %v; want %v", tc.line, c.TakesHeaders(), tc.takes)
		}
		w := c.WithHeaders(given)
		if !reflect.DeepEqual(w.Args, tc.args) {
			t.Errorf("%q: WithHeaders args %q; want %q", tc.line, w.Args, tc.args)
		}
		if !reflect.DeepEqual(w.Headers, headerFields(tc.args)) || (tc.takes && len(w.Headers) < len(given)) {
			t.Errorf("%q: WithHeaders headers %v; want those of its words, the given ones among them", tc.line, w.Headers)
		}
		if reflect.DeepEqual(c.Args, w.Args) != !tc.takes {
			t.Errorf("%q: the command itself changed, or no copy was made", tc.line)
		}
	}
}
