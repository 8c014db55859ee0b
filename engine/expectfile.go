package engine

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode"
)

// Catalogue is what the engine asks of the cases of a codec's sides, to
// check what a user names: a declaration's cases, an expected failure's.
type Catalogue struct {
	// Prefixes are the id prefixes of the sides: "enc/", "dec/".
	Prefixes []string
	// IDs are the ids of every case of every side.
	IDs []string
}

// Known reports whether id is a case of the catalogue.
func (c *Catalogue) Known(id string) bool { return slices.Contains(c.IDs, id) }

// CheckPrefix returns why p names no case of the catalogue, or nil.
func (c *Catalogue) CheckPrefix(p string) error {
	if !c.looksLikeID(p) {
		return fmt.Errorf("%q is not a case id or id prefix (%s)", p, c.idForms())
	}
	if !slices.ContainsFunc(c.IDs, func(id string) bool { return strings.HasPrefix(id, p) }) {
		return fmt.Errorf("no case id starts with %q (see hpackcert list)", p)
	}
	return nil
}

// looksLikeID reports whether s starts as a case id of some side does.
func (c *Catalogue) looksLikeID(s string) bool {
	return slices.ContainsFunc(c.Prefixes, func(p string) bool { return strings.HasPrefix(s, p) })
}

// idForms says what a case id looks like: "enc/... or dec/...".
func (c *Catalogue) idForms() string {
	forms := make([]string, len(c.Prefixes))
	for i, p := range c.Prefixes {
		forms[i] = p + "..."
	}
	return strings.Join(forms, " or ")
}

// Rules checks a run's expected failures and declarations against its
// targets, named names, and the catalogue, the same way on every side
// (side, "encoder" or "decoder", words the errors), and returns the rules
// every result of the run is settled by.
func (c *Catalogue) Rules(side string, names []string, strict bool, expectFail []string, decls []Declaration) (*Rules, error) {
	expect, err := NewExpectations(expectFail, side, names, c.Known)
	if err != nil {
		return nil, err
	}
	if err := CheckDeclared(decls, side, names, c.CheckPrefix); err != nil {
		return nil, err
	}
	return &Rules{Strict: strict, Declared: decls, Expect: expect}, nil
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
func (c *Catalogue) ParseDeclaration(s string) ([]Declaration, error) {
	decls, err := c.parseDeclaration(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("declaration %q: %w", s, err)
	}
	return decls, nil
}

// parseDeclaration parses s, trimmed, with or without its "unsupported"
// keyword.
func (c *Catalogue) parseDeclaration(s string) ([]Declaration, error) {
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
		if err := c.CheckPrefix(p); err != nil {
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
func (c *Catalogue) ReadExpectations(path string) (failures []string, declared []Declaration, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return c.ParseExpectations(f, path)
}

// ParseExpectations reads an expect file from rd, named path in errors
// (ReadExpectations).
func (c *Catalogue) ParseExpectations(rd io.Reader, path string) (failures []string, declared []Declaration, err error) {
	sc := bufio.NewScanner(rd)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		// "unsupported enc/4.2/1" could also be read as an expected
		// failure of a target named "unsupported"; a declaration that
		// lost its reason is the likelier mistake, and is refused. On
		// every side alike.
		if rest, ok := cutKeyword(text, "unsupported"); ok && c.looksLikeID(rest) {
			decls, err := c.parseDeclaration(rest)
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
		if TargetExpectation(id) && id != text {
			// "NAME breakdown": the target's breakdown is a known finding;
			// "NAME nothing-judged": the target is known to give nothing to
			// judge (a recording of header lists alone).
			failures = append(failures, text)
			continue
		}
		if !c.looksLikeID(id) {
			return nil, nil, fmt.Errorf("%s:%d: %q is not a case id (%s), nor a declaration (\"unsupported CASES: REASON\")", path, line, id, c.idForms())
		}
		if !c.Known(id) {
			return nil, nil, fmt.Errorf("%s:%d: no case %q (see hpackcert list)", path, line, id)
		}
		failures = append(failures, text)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return failures, declared, nil
}
