package report_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
)

// TestWriteHTMLHostile parses the HTML report with x/net/html and checks
// that it holds only the template's elements (no <script>, no <img>) and
// attributes, that its Content Security Policy allows its style sheet by
// digest and nothing else, that ids are unique and every link's target
// exists, that the summary has a row per encoder and the matrix a row per
// case with a cell per encoder, and that the page is graphic UTF-8.
func TestWriteHTMLHostile(t *testing.T) {
	own := []string{"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "p", "table", "tbody", "tr", "th", "td", "a", "code", "span", "br", "i", "section", "pre", "details", "summary", "ul", "li"}
	forEachHostile(t, func(t *testing.T, payload string, rep *certify.Report) {
		var buf bytes.Buffer
		if err := report.WriteHTML(&buf, rep); err != nil {
			t.Fatal(err)
		}
		if bad, ok := badRune(buf.String(), "\n\t"); ok {
			t.Errorf("HTML report holds %s", bad)
		}
		doc := parseHTML(t, buf.Bytes())
		ids := map[string]int{}
		var links []string
		for _, n := range elements(doc, nil) {
			if !slices.Contains(own, n.Data) {
				t.Errorf("element <%s> is not the template's", n.Data)
			}
			for _, a := range n.Attr {
				switch {
				case a.Key == "id":
					ids[a.Val]++
				case a.Key == "href" && n.Data == "a":
					links = append(links, a.Val)
				case a.Key == "class" || a.Key == "lang" || a.Key == "charset":
				case a.Key == "title" && n.Data == "td", a.Key == "colspan" && n.Data == "td" && a.Val == "10":
				case (a.Key == "http-equiv" || a.Key == "content") && n.Data == "meta":
				default:
					t.Errorf("attribute %s=%q on <%s> is not the template's", a.Key, a.Val, n.Data)
				}
			}
		}
		var style, policy string
		for _, n := range elements(doc, func(n *html.Node) bool { return n.Data == "style" }) {
			style += textOf(n)
		}
		for _, n := range elements(doc, func(n *html.Node) bool { return n.Data == "meta" && attr(n, "http-equiv") == "Content-Security-Policy" }) {
			policy = attr(n, "content")
		}
		digest := sha256.Sum256([]byte(style))
		if want := "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(digest[:]) + "'"; policy != want {
			t.Errorf("Content-Security-Policy %q; want %q", policy, want)
		}
		for id, n := range ids {
			if n != 1 {
				t.Errorf("id %q used %d times", id, n)
			}
		}
		// A link per cell, and one to the first failure.
		if want := len(rep.Cases) * len(rep.Encoders); len(links) != want+1 || len(ids) != want {
			t.Errorf("%d links, %d ids; want %d links and %d ids", len(links), len(ids), want+1, want)
		}
		for _, l := range links {
			if id, ok := strings.CutPrefix(l, "#"); !ok || ids[id] != 1 {
				t.Errorf("link %q has no target", l)
			}
		}
		if h1 := elements(doc, func(n *html.Node) bool { return n.Data == "h1" }); len(h1) != 1 || textOf(h1[0]) != "hpackcert: FAIL" {
			t.Errorf("the page's headings %v; want one, hpackcert: FAIL", h1)
		}
		tables := map[string][][]*html.Node{}
		for _, table := range elements(doc, func(n *html.Node) bool { return n.Data == "table" }) {
			for _, tr := range elements(table, func(n *html.Node) bool { return n.Data == "tr" }) {
				tables[attr(table, "class")] = append(tables[attr(table, "class")], elements(tr, func(n *html.Node) bool { return n.Data == "td" || n.Data == "th" }))
			}
		}
		// A row per encoder, and the hostile one's breakdown under it,
		// then its reproduction.
		if got := tables["summary"]; len(got) != 3+len(rep.Encoders) || len(got[2][0].Attr) != 0 || !strings.Contains(textOf(got[2][0]), "reports itself as hello ") ||
			len(got[3]) != 1 || !strings.Contains(textOf(got[3][0]), ": breakdown: encoder broke hpack-stdio at request 7: ") ||
			len(got[4]) != 1 || !strings.Contains(textOf(got[4][0]), "its reproduction") {
			t.Errorf("summary table: %d rows, the hostile encoder's first cell %q; want %d rows, the name it reported, its breakdown and its reproduction", len(got), textOf(got[2][0]), 3+len(rep.Encoders))
		}
		matrix := tables[""] // the one table without a class
		if len(matrix) != 1+len(rep.Cases) {
			t.Errorf("matrix: %d rows; want %d", len(matrix), 1+len(rep.Cases))
		}
		for i, row := range matrix {
			if len(row) != 2+len(rep.Encoders) {
				t.Errorf("matrix row %d: %d cells; want %d", i, len(row), 2+len(rep.Encoders))
			}
		}
		if t.Failed() {
			t.Logf("HTML report:\n%s", buf.Bytes())
		}
	})
}

// parseHTML parses a page as a browser would.
func parseHTML(t *testing.T, page []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatalf("HTML report does not parse: %v", err)
	}
	return doc
}

// elements returns the elements under n, in document order, that keep
// accepts (all of them when keep is nil).
func elements(n *html.Node, keep func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && (keep == nil || keep(d)) {
			out = append(out, d)
		}
	}
	return out
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// within reports whether n has an ancestor element named tag.
func within(n *html.Node, tag string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.Data == tag {
			return true
		}
	}
	return false
}

// textOf returns the text under n.
func textOf(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
