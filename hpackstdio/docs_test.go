package hpackstdio

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// docTable names a table of messages in docs/STDIO.md: the markers
// around it, and the starts of the messages it quotes, which the document
// may quote nowhere else but as templates, with N.
type docTable struct {
	start, end string
	messages   []string
}

// The tables of breakdown messages of encoders and of decoders.
var (
	encoderDocTable = docTable{"<!-- breakdowns:", "<!-- end of breakdowns -->",
		[]string{"encoder broke hpack-stdio at request ", "encoder answered request "}}
	decoderDocTable = docTable{"<!-- decoder breakdowns:", "<!-- end of decoder breakdowns -->",
		[]string{"decoder broke hpack-stdio at request ", "decoder answered request "}}
)

// docTables are the tables of messages in docs/STDIO.md, each checked by
// a test of its own.
var docTables = []docTable{encoderDocTable, decoderDocTable, qpackDocTable}

// docSituations are the descriptions the table of docs/STDIO.md uses for
// what an encoder does, other than "answers `LINE`", with the request
// whose answer provoke scripts and how.
var docSituations = map[string]struct{ op, action string }{
	"writes two lines, `{}` and `{}`":     {OpNew, "{}\n{}"},
	"exits with status 3":                 {OpNew, "exit"},
	"answers a block of 1,048,577 octets": {OpEncode, fmt.Sprintf("wire %d", DefaultMaxWire+1)},
	"answers a block of 2 MiB":            {OpEncode, fmt.Sprintf("wire %d", 2*DefaultMaxWire)},
	"does not answer":                     {OpEncode, "hang"},
	"answers a request of 1 MiB before reading it, then reads no more": {OpNew, "early"},
	"dies of SIGTERM": {OpEncode, "term"},
	"writes `{\"wire\":\"82` and dies of SIGSEGV":                                     {OpEncode, `segv {"wire":"82`},
	"writes `{\"wire\":\"82\"}` without its line feed and dies of SIGSEGV":            {OpEncode, `segv {"wire":"82"}`},
	"answers the first `encode`, then dies of SIGSEGV at the next":                    {OpEncode, `once {"wire":"82"}`},
	"writes `{\"wire\":\"82\"}` without its line feed and closes its standard output": {OpEncode, `close-stdout {"wire":"82"}`},
	"closes its standard output":                                                      {OpEncode, "close-stdout"},
	"closed its standard input after `new`":                                           {OpNew, "close-stdin"},
}

// docRow is one row of the table: the request N the message names, what
// the encoder does, and the message.
type docRow struct {
	line                   int
	request, does, message string
}

// docBreakdowns returns the rows of the table of breakdown messages tab
// in docs/STDIO.md, and fails the test unless the document quotes such
// messages nowhere else.
func docBreakdowns(t *testing.T, tab docTable) []docRow {
	t.Helper()
	root := testenv.ModuleRoot()
	if root == "" {
		t.Fatal("no module root above the working directory")
	}
	text, err := os.ReadFile(filepath.Join(root, "docs", "STDIO.md"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []docRow
	in := false
	other := "" // the end of the other table the line is in, if any
	for i, line := range strings.Split(string(text), "\n") {
		n := i + 1
		switch {
		case strings.HasPrefix(line, tab.start):
			in = true
			continue
		case line == tab.end:
			in = false
			continue
		case other != "":
			// Another table, checked by its own test, quotes its own.
			if line == other {
				other = ""
			}
			continue
		case !in && otherTableStart(tab, line) != "":
			other = otherTableStart(tab, line)
			continue
		case !in:
			// The template of the messages, with N, is the only one
			// allowed outside the table.
			for _, start := range tab.messages {
				for rest := line; strings.Contains(rest, start); {
					rest = rest[strings.Index(rest, start)+len(start):]
					if !strings.HasPrefix(rest, "N") {
						t.Errorf("STDIO.md:%d quotes a message outside the table the test checks: %s", n, line)
					}
				}
			}
			continue
		case !strings.HasPrefix(line, "| `"):
			continue // the head of the table
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 3 {
			t.Errorf("STDIO.md:%d: %d cells; want 3, the request, what the encoder does and the message: %s", n, len(cells), line)
			continue
		}
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		request, okRequest := codeSpan(cells[0])
		message, okMessage := codeSpan(cells[2])
		if !okRequest || !okMessage {
			t.Errorf("STDIO.md:%d: the request and the message must be code spans: %s", n, line)
			continue
		}
		rows = append(rows, docRow{n, request, cells[1], message})
	}
	if in {
		t.Errorf("STDIO.md: the table of breakdowns has no end, %q", tab.end)
	}
	if len(rows) == 0 {
		t.Fatalf("STDIO.md: no table of breakdowns between %q and %q", tab.start, tab.end)
	}
	return rows
}

// otherTableStart returns the end marker of the table of docTables
// other than tab that line starts, or "".
func otherTableStart(tab docTable, line string) string {
	for _, o := range docTables {
		if o.start != tab.start && strings.HasPrefix(line, o.start) {
			return o.end
		}
	}
	return ""
}

// codeSpan returns the text of s, a Markdown code span, and whether it
// is one.
func codeSpan(s string) (string, bool) {
	if len(s) < 2 || s[0] != '`' || s[len(s)-1] != '`' || strings.Contains(s[1:len(s)-1], "`") {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// TestDocBreakdowns makes each breakdown of the table of docs/STDIO.md
// happen and checks that the message the table quotes is the one the
// Client gives, whole: a message the tool does not print, or no longer,
// fails the test. The requests run with the default timeout, which the
// messages name.
func TestDocBreakdowns(t *testing.T) {
	checkDocTable(t, encoderDocTable, "encoder", docSituations, func(t *testing.T, op, action string) (bool, error) {
		c, err := provoke(t, op, action, DefaultTimeout)
		return c != nil, err
	})
}

// checkDocTable makes each breakdown of tab happen, a program of role
// answering as the row says ("answers `LINE`" or one of situations)
// through provoke, which reports whether the program started, and checks
// that the row quotes the client's message whole.
func checkDocTable(t *testing.T, tab docTable, role string, situations map[string]struct{ op, action string },
	provoke func(t *testing.T, op, action string) (bool, error)) {
	used := map[string]bool{}
	seen := map[string]int{}
	for _, row := range docBreakdowns(t, tab) {
		op, action := row.request, ""
		if line, ok := strings.CutPrefix(row.does, "answers "); ok && strings.HasPrefix(line, "`") {
			var isLine bool
			if action, isLine = codeSpan(line); !isLine {
				t.Errorf("STDIO.md:%d: %q is not one answer line in a code span", row.line, row.does)
				continue
			}
		} else if s, ok := situations[row.does]; ok {
			op, action = s.op, s.action
			used[row.does] = true
		} else {
			t.Errorf("STDIO.md:%d: the test cannot make the %s do %q; say it as \"answers `LINE`\" or as one of the descriptions the test knows", row.line, role, row.does)
			continue
		}
		if first, ok := seen[row.message]; ok {
			t.Errorf("STDIO.md:%d quotes the message of line %d again", row.line, first)
		}
		seen[row.message] = row.line
		t.Run(fmt.Sprintf("line %d", row.line), func(t *testing.T) {
			t.Parallel()
			started, err := provoke(t, op, action)
			if err == nil {
				t.Fatalf("STDIO.md:%d: the %s that %s to %s: no error; the table says %s", row.line, role, row.does, row.request, row.message)
			}
			got := err.Error()
			if !started { // the start failed, naming the program first
				got = strings.TrimPrefix(got, os.Args[0]+": ")
			}
			if got != row.message {
				t.Errorf("STDIO.md:%d: the %s that %s to %s:\nthe tool says %s\nthe table says %s", row.line, role, row.does, row.request, got, row.message)
			}
		})
	}
	for does := range situations {
		if !used[does] {
			t.Errorf("STDIO.md has no row for the %s that %s", role, does)
		}
	}
}

// decoderDocSituations are the descriptions the decoder table of
// docs/STDIO.md uses for what a decoder does, other than "answers `LINE`",
// with the request whose answer provokeDecoder scripts and how.
var decoderDocSituations = map[string]struct{ op, action string }{
	"answers a field of 16 MiB":                                       {OpDecode, fmt.Sprintf("headers %d", DefaultMaxAnswer)},
	"does not answer":                                                 {OpDecode, "hang"},
	"exits with status 3":                                             {OpDecode, "exit"},
	"writes `{\"headers\":[[\"a` and dies of SIGSEGV":                 {OpDecode, `segv {"headers":[["a`},
	"writes a whole answer without its line feed and dies of SIGSEGV": {OpDecode, `segv {"headers":[[":method","GET"]],"never_indexed":[false]}`},
}

// TestDocDecoderBreakdowns makes each breakdown of the decoder table of
// docs/STDIO.md happen and checks that the table quotes the client's
// message whole, with the default options.
func TestDocDecoderBreakdowns(t *testing.T) {
	checkDocTable(t, decoderDocTable, "decoder", decoderDocSituations, func(t *testing.T, op, action string) (bool, error) {
		d, err := provokeDecoder(t, op, action, Options{Timeout: DefaultTimeout})
		return d != nil, err
	})
}
