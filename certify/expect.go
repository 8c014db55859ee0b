package certify

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
)

// Declaration says that a case, or every case under an id prefix, cannot
// be graded for an encoder, and why: the line "unsupported PREFIX: REASON"
// (every encoder) or "unsupported PREFIX for ENCODER: REASON" of an
// expect file, or hpackcert's --declare-unsupported flag.
type Declaration struct {
	// Case is a case id or an id prefix ("enc/7.1.3/").
	Case string
	// Encoder names one encoder of the run; "" is every encoder.
	Encoder string
	// Reason says why the case cannot be graded; never empty.
	Reason string
}

// covers reports whether d declares case id for encoder enc.
func (d Declaration) covers(enc, id string) bool {
	return strings.HasPrefix(id, d.Case) && (d.Encoder == "" || d.Encoder == enc)
}

func knownCase(id string) bool {
	for _, c := range allCases {
		if c.ID == id {
			return true
		}
	}
	return false
}

// checkExpectFail checks that every expected failure names a case of the
// catalogue and, when it names an encoder, one of the run's.
func checkExpectFail(entries []string, targets []Target) error {
	var names []string
	for _, t := range targets {
		names = append(names, t.Name())
	}
	for _, e := range entries {
		id, encoder := e, ""
		if i := strings.LastIndexByte(e, ' '); i >= 0 {
			id, encoder = e[i+1:], e[:i]
		}
		if !knownCase(id) {
			return fmt.Errorf("certify: expected failure %q: no case %q (see hpackcert list)", e, id)
		}
		if encoder != "" && !contains(names, encoder) {
			return fmt.Errorf("certify: expected failure %q: no encoder %q in this run (have %q)", e, encoder, names)
		}
	}
	return nil
}

// ReadExpectFail reads a list of expected failures: one case id per line,
// or an encoder name, a space and a case id; blank lines and lines
// starting with # are ignored.
func ReadExpectFail(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("certify: expected failures: %w", err)
	}
	defer f.Close()
	return parseExpectFail(f, path)
}

func parseExpectFail(rd io.Reader, path string) ([]string, error) {
	var out []string
	sc := bufio.NewScanner(rd)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		id := text
		if i := strings.LastIndexByte(text, ' '); i >= 0 {
			id = text[i+1:]
		}
		if !strings.HasPrefix(id, "enc/") {
			return nil, fmt.Errorf("certify: %s:%d: %q is not a case id (enc/...)", path, line, id)
		}
		if !knownCase(id) {
			return nil, fmt.Errorf("certify: %s:%d: no case %q (see hpackcert list)", path, line, id)
		}
		out = append(out, text)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("certify: %s: %w", path, err)
	}
	return out, nil
}
