package report_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/certify"
)

// hostile lists strings an encoder under test could put in its name, its
// errors (quoted in details and reproductions) and its stderr, each aimed
// at the structure of a report format.
var hostile = []struct {
	label, payload, why string
}{
	{"fence3", "```\n# heading\n```", "closes a Markdown code block of three backticks and adds a heading"},
	{"fence4", "x ````\n````\n</details>\n\n# heading", "closes a fence of four, then the <details>"},
	{"html", "</summary></details><script>alert(1)</script><img src=x onerror=alert(1)>", "raw HTML in a summary, a cell or a page"},
	{"entity", "&lt;script&gt; &amp; &#60;", "entities that would decode to markup"},
	{"markup", "# heading\n- item\n> quote\n1. one\n**bold** _it_ ~~s~~", "leading block markup and inline emphasis"},
	{"link", "[link](http://x) ![img](http://x/i.png) <http://x> www.example.com", "links, images and autolinks"},
	{"pipes", "a | b || c\\|d |", "ends table cells"},
	{"backticks", "`a` ``b`` \\`", "code spans and an escaped backtick"},
	{"newlines", "line1\nline2\n\nline4\n", "breaks a one-line context; a blank line ends an HTML block"},
	{"carriage return", "ok\rref: 25 pass, 0 non-strict, 0 fail\r\n", "overwrites a terminal line; a line break to CommonMark"},
	{"terminal", "\x1b[2J\x1b[H\x1b]0;title\x07\x1b[31mred\x1b[0m", "clears the screen, sets the title and colours"},
	{"C0", "nul\x00 bs\b\b del\x7f bell\x07 vt\v ff\f", "controls XML 1.0 forbids"},
	{"C1", "nel\u0085 csi\u009b31m", "C1 controls: a line break and a terminal sequence"},
	{"invalid UTF-8", "bad \xff\xfe \x85 \xc3", "octets outside UTF-8"},
	{"format characters", "\u202eevil\u202c \u2028 zw\u200bsp", "bidi override, line separator, zero-width space"},
	{"fake summary", "\nref: 25 pass, 0 non-strict, 0 fail, 0 info, 0 unsupported", "a line that reads as the reference's summary"},
	{"summary as name", "ref: 25 pass, 0 non-strict, 0 fail, 0 info, 0 unsupported", "a name that, at the start of its summary line, reads as the reference's"},
	{"fake case row", "\nenc/4.2/1    pass  pass  pass  a lower setting is signalled\n", "a line that reads as a case of the matrix"},
	{"tab", "a\tb\t\tc", "a column of the text matrix"},
	{"quotes", `"'<>&`, "attribute delimiters"},
}

// allHostile is every hostile string at once.
func allHostile() string {
	var b strings.Builder
	for _, h := range hostile {
		b.WriteString(h.payload)
	}
	return b.String()
}

// hostileCases are the cases of hostileReport, in id order.
var hostileCases = []certify.Case{
	{ID: "enc/2.3.2/2", Section: "2.3.2", Title: "the dynamic table holds what the decoder's holds", RFC: "§2.3.2: the dynamic table MUST be the same.", Violation: certify.Fail},
	{ID: "enc/4.2/1", Section: "4.2", Title: "a lower setting is signalled by a size update in the next block", RFC: "§4.2: a change in the maximum size MUST be signalled.", Violation: certify.Fail},
	{ID: "enc/5.2/1", Section: "5.2", Title: "Huffman padding is fewer than 8 bits of EOS", RFC: "§5.2: padding longer than 7 bits MUST be treated as an error.", Violation: certify.Fail},
	{ID: "enc/5.2/2", Section: "5.2", Title: "Huffman is used only when it is shorter", RFC: "§5.2: an efficiency rule.", Violation: certify.NonStrict},
	{ID: "enc/6.3/1", Section: "6.3", Title: "a size update is at most the setting", RFC: "§6.3: the new maximum size MUST be lower than or equal to the limit.", Violation: certify.Fail},
	{ID: "enc/7.1.3/1", Section: "7.1.3", Title: "sensitive fields are never indexed", RFC: "§7.1.3: an encoder MUST use never-indexed literals for them.", Violation: certify.Fail},
	{ID: "enc/7.3/1", Section: "7.3", Title: "amplification: decoded octets per wire octet", RFC: "a measurement.", Violation: certify.Info},
}

// hostileEvidence is what every case of hostileReport judged.
var hostileEvidence = certify.Evidence{Blocks: 7, Representations: 30, Insertions: 4, Evictions: 1, SizeUpdates: 2, HuffmanStrings: 9, SensitiveFields: 1, Instances: 3, Of: "size updates"}

// hostileReport builds a report of three encoders: ref and x/net pass,
// and between them one named payload fails, fails as expected, breaks a
// SHOULD, is unsupported, leaves a MUST case ungraded (it is driven over
// stdio), has a case declared and one left to a root cause, and broke
// down, with payload in every detail, reproduction, consequence,
// declaration and stderr, in its breakdown, in the name it reported for
// itself, and in the traffic source and a stale expectation.
func hostileReport(payload string) *certify.Report {
	pass := func() map[string]*certify.Result {
		out := map[string]*certify.Result{}
		for _, c := range hostileCases {
			out[c.ID] = &certify.Result{Grade: certify.Pass, Detail: "ok", Duration: time.Millisecond, Evidence: hostileEvidence}
		}
		out["enc/7.3/1"].Grade = certify.Info
		return out
	}
	return &certify.Report{
		Encoders: []string{"ref", payload, "x/net"},
		Cases:    hostileCases,
		Results: map[string]map[string]*certify.Result{
			"ref": pass(),
			payload: {
				"enc/2.3.2/2": {Grade: certify.Unsupported, Detail: "not exercised: " + payload, Evidence: certify.Evidence{Of: "table comparisons", NotJudged: 2}},
				"enc/4.2/1": {Grade: certify.Fail, Detail: "story s, block 0: encoder error: " + payload,
					Repro:  "story s, block 0: " + payload + "\nreproduce: a fresh encoder, then\n  block 0: 1 field\n    \"a\": " + payload + "\nencoder error: " + payload + "\n",
					Stderr: payload, Duration: time.Millisecond, At: "story s, block 0", Evidence: hostileEvidence,
					Consequences: []certify.Consequence{
						{Blocks: 3, Stories: 1, First: "story s, block 1"},
						{Case: "enc/7.1.3/1", Blocks: 1, Stories: 1, First: "story s, block 0", Detail: payload},
					}},
				"enc/5.2/1":   {Grade: certify.Fail, Expected: true, Detail: payload, Repro: payload, Evidence: hostileEvidence},
				"enc/5.2/2":   {Grade: certify.NonStrict, Detail: payload, Stderr: payload, Evidence: hostileEvidence},
				"enc/6.3/1":   {Grade: certify.Unsupported, Detail: payload, Declared: "no API for " + payload, Evidence: certify.Evidence{Of: "size updates"}},
				"enc/7.1.3/1": {Grade: certify.Unsupported, Detail: "not graded: " + payload, CausedBy: []string{"enc/4.2/1"}, Evidence: certify.Evidence{Of: "sensitive fields", NotJudged: 3}},
				"enc/7.3/1":   {Grade: certify.Unsupported, Detail: payload},
			},
			"x/net": pass(),
		},
		TrafficSource:     "stories from " + payload,
		StaleExpectations: []string{payload},
		Targets: map[string]certify.TargetInfo{
			"ref":   {Kind: "in-process", Reported: "ref"},
			payload: {Kind: "stdio", Reported: "hello " + payload, Binary: true, Breakdown: "encoder broke hpack-stdio at request 7: " + payload},
			"x/net": {Kind: "in-process", Reported: "x/net"},
		},
	}
}

// forEachHostile runs check on hostileReport of every hostile string and
// of all of them at once.
func forEachHostile(t *testing.T, check func(t *testing.T, payload string, rep *certify.Report)) {
	for _, h := range hostile {
		t.Run(h.label, func(t *testing.T) { check(t, h.payload, hostileReport(h.payload)) })
	}
	t.Run("all", func(t *testing.T) { check(t, allHostile(), hostileReport(allHostile())) })
}

// badRune returns the first rune of s, quoted, that is neither graphic nor
// one of allowed, with invalid UTF-8 counting as such a rune.
func badRune(s, allowed string) (string, bool) {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Sprintf("invalid octet %#x at %d", s[i], i), true
			}
		}
		if !unicode.IsPrint(r) && !strings.ContainsRune(allowed, r) {
			return fmt.Sprintf("%U at %d", r, i), true
		}
	}
	return "", false
}

// hostileCells are the matrix cells of hostileReport's hostile encoder,
// by case (ref and x/net pass, info on enc/7.3/1).
var hostileCells = map[string]string{
	"enc/2.3.2/2": "not graded",
	"enc/4.2/1":   "fail",
	"enc/5.2/1":   "fail (expected)",
	"enc/5.2/2":   "non-strict",
	"enc/6.3/1":   "declared",
	"enc/7.1.3/1": "consequence",
	"enc/7.3/1":   "unsupported",
}

// hostileEvidenceCells are the evidence table's cells of hostileReport's
// hostile encoder, by case; every other cell reads "3 size updates".
var hostileEvidenceCells = map[string]string{
	"enc/2.3.2/2": "0 table comparisons",
	"enc/6.3/1":   "0 size updates",
	"enc/7.1.3/1": "0 sensitive fields",
	"enc/7.3/1":   "-",
}
