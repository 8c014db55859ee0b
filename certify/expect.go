package certify

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"github.com/hpackcert/hpackcert/certify/decoders"
	"github.com/hpackcert/hpackcert/certify/engine"
)

// Declaration says that a case, or every case under an id prefix, cannot
// be graded for a target (engine.Declaration).
type Declaration = engine.Declaration

func knownCase(id string) bool {
	for _, c := range allCases {
		if c.ID == id {
			return true
		}
	}
	for _, c := range decoders.DecoderCases() {
		if c.ID == id {
			return true
		}
	}
	return false
}

// checkPrefix returns why p names no case of the catalogue, or nil.
func checkPrefix(p string) error {
	if !strings.HasPrefix(p, "enc/") && !strings.HasPrefix(p, "dec/") {
		return fmt.Errorf("%q is not a case id or id prefix (enc/... or dec/...)", p)
	}
	for _, c := range allCases {
		if strings.HasPrefix(c.ID, p) {
			return nil
		}
	}
	for _, c := range decoders.DecoderCases() {
		if strings.HasPrefix(c.ID, p) {
			return nil
		}
	}
	return fmt.Errorf("no case id starts with %q (see hpackcert list)", p)
}

// runRules checks a run's expected failures and declarations against
// its targets, named names, and the catalogue, the same way on both
// sides (side, "encoder" or "decoder", words the errors), and returns
// the rules every result of the run is settled by.
func runRules(side string, names []string, strict bool, expectFail []string, decls []Declaration) (*engine.Rules, error) {
	expect, err := engine.NewExpectations(expectFail, side, names, knownCase)
	if err != nil {
		return nil, err
	}
	if err := engine.CheckDeclared(decls, side, names, checkPrefix); err != nil {
		return nil, err
	}
	return &engine.Rules{Strict: strict, Declared: decls, Expect: expect}, nil
}

// finishExpectations marks the targets declared to judge nothing that
// judged nothing, and lists the expectations no finding met.
func (r *Report) finishExpectations(expect *engine.Expectations) {
	for _, name := range r.Encoders {
		if r.NothingJudged(name) && expect.NothingJudged(name) {
			info := r.Targets[name]
			info.NothingJudgedExpected = true
			r.Targets[name] = info
		}
	}
	r.StaleExpectations = expect.Stale()
}

// declarationSyntax is the form of a declaration, for error messages.
const declarationSyntax = `"CASES: REASON" or "CASES for ENCODER: REASON"`

// ParseDeclaration parses one declaration of cases an encoder cannot be
// graded on, the value of hpackcert's --declare-unsupported:
//
//	CASES: REASON
//	CASES for ENCODER: REASON
//
// CASES is one or more case ids or id prefixes separated by commas, each
// naming at least one case of the catalogue; ENCODER is an encoder's name
// as its report gives it; REASON, required, says why. The reason starts
// after the first colon followed by a space, so an encoder name may hold
// "::" but not ": ". A leading "unsupported ", as in an expect file, is
// allowed. It returns one Declaration per id or prefix.
func ParseDeclaration(s string) ([]Declaration, error) {
	decls, err := parseDeclaration(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("declaration %q: %w", s, err)
	}
	return decls, nil
}

// parseDeclaration parses s, trimmed, with or without its "unsupported"
// keyword.
func parseDeclaration(s string) ([]Declaration, error) {
	if rest, ok := cutKeyword(s, "unsupported"); ok {
		s = rest
	}
	head, reason, ok := cutReason(s)
	if !ok {
		return nil, fmt.Errorf("no reason: want %s", declarationSyntax)
	}
	if reason == "" {
		return nil, fmt.Errorf("the reason after the colon is empty: say why the cases cannot be graded")
	}
	// The space added finds "for" that ends the head, its encoder lost.
	cases, encoder, named := strings.Cut(head+" ", " for ")
	if named {
		if encoder = strings.TrimSpace(encoder); encoder == "" {
			return nil, fmt.Errorf("no encoder name after \"for\"")
		}
	}
	var out []Declaration
	for _, p := range strings.Split(cases, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("an empty case id in %q: want case ids or prefixes separated by commas", strings.TrimSpace(cases))
		}
		if strings.ContainsFunc(p, unicode.IsSpace) {
			return nil, fmt.Errorf("%q: separate case ids with commas; an encoder is named after \"for\" (want %s)", p, declarationSyntax)
		}
		if err := checkPrefix(p); err != nil {
			return nil, err
		}
		out = append(out, Declaration{Case: p, Encoder: encoder, Reason: reason})
	}
	return out, nil
}

// cutKeyword returns s without its first word when that word is kw and
// more follows it.
func cutKeyword(s, kw string) (string, bool) {
	rest, ok := strings.CutPrefix(s, kw)
	if !ok || rest == "" || !unicode.IsSpace(rune(rest[0])) {
		return s, false
	}
	return strings.TrimSpace(rest), true
}

// cutReason splits s at its first colon that ends s or is followed by
// white space: the cases and encoder before it, the reason after it.
func cutReason(s string) (head, reason string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' && (i+1 == len(s) || unicode.IsSpace(rune(s[i+1]))) {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:]), true
		}
	}
	return s, "", false
}

// ReadExpectations reads an expect file, the file of hpackcert's
// --expect-fail. Each line is one of
//
//	CASE                                 an expected failure
//	ENCODER CASE                         an expected failure of one encoder
//	ENCODER breakdown                    an expected breakdown of one encoder
//	ENCODER nothing-judged               no case judged for one encoder
//	unsupported CASES: REASON            cases no encoder can be graded on
//	unsupported CASES for ENCODER: REASON
//
// with CASE a case id, and CASES and the rest of a declaration as
// ParseDeclaration takes them; blank lines and lines starting with # are
// ignored. It returns the expected failures, as Options.ExpectFail takes
// them, and the declarations, as Options.Declared takes them. An error
// names the file and line.
func ReadExpectations(path string) (failures []string, declared []Declaration, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return parseExpectations(f, path)
}

func parseExpectations(rd io.Reader, path string) (failures []string, declared []Declaration, err error) {
	sc := bufio.NewScanner(rd)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		// "unsupported enc/4.2/1" could also be read as an expected
		// failure of an encoder named "unsupported"; a declaration that
		// lost its reason is the likelier mistake, and is refused.
		if rest, ok := cutKeyword(text, "unsupported"); ok && strings.HasPrefix(rest, "enc/") {
			decls, err := parseDeclaration(rest)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: declaration: %w", path, line, err)
			}
			declared = append(declared, decls...)
			continue
		}
		id := text
		if i := strings.LastIndexByte(text, ' '); i >= 0 {
			id = text[i+1:]
		}
		if engine.TargetExpectation(id) && id != text {
			// "NAME breakdown": the target's breakdown is a known finding;
			// "NAME nothing-judged": the target is known to give nothing to
			// judge (a recording of header lists alone).
			failures = append(failures, text)
			continue
		}
		if !strings.HasPrefix(id, "enc/") && !strings.HasPrefix(id, "dec/") {
			return nil, nil, fmt.Errorf("%s:%d: %q is not a case id (enc/... or dec/...), nor a declaration (\"unsupported CASES: REASON\")", path, line, id)
		}
		if !knownCase(id) {
			return nil, nil, fmt.Errorf("%s:%d: no case %q (see hpackcert list)", path, line, id)
		}
		failures = append(failures, text)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return failures, declared, nil
}
