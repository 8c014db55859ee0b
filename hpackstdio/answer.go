package hpackstdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"
)

// BreakdownError is the error of an encoder program that broke
// hpack-stdio/1: an answer that is not of the protocol (an empty line,
// not JSON, not a JSON object, not UTF-8, a member twice, of the wrong
// type, of the answer to another request or unknown, a member missing or
// two that exclude each other, a "wire" that is not hex or is over the
// per-block limit, a lack the protocol does not define or named twice, a
// refused range that is no range of octets, more than one line), an
// answer over its bound, no answer in time, an exit, a crash (a death by
// a signal, or an answer line cut short, quoted), a closed pipe. The
// Client has killed the program, and every later request fails. An error
// answer is not one: it is an *AnswerError.
type BreakdownError struct {
	// Decoder is set when the program was started as a decoder
	// (StartDecoder): the message then names it so.
	Decoder bool
	// Request counts the requests sent to the program since it started,
	// up to the one it broke: its hello is request 1.
	Request int
	// Op is the operation of that request.
	Op string
	// What says what was wrong, in words for a report.
	What string
	// Line is the start of the offending answer line as the program
	// wrote it, at most MaxQuotedLine octets of it, cut between runes; ""
	// when the breakdown is no line's fault (an exit, a timeout).
	Line string
	// LineLen is the length in octets of the whole offending line; 0
	// when there is none.
	LineLen int
	// Err is the error behind What, when there is one: a timeout, which
	// matches ErrTimeout, or a *WireLimitError.
	Err error
}

// MaxQuotedLine bounds how much of an offending answer line a
// BreakdownError keeps and quotes.
const MaxQuotedLine = 100

// Error returns "encoder broke hpack-stdio at request N: " ("decoder"
// for a decoder) and what was wrong, then the offending line, if any, quoted with every octet a
// terminal or a parser could act on escaped, and, when it was cut, "…"
// and its whole length.
func (e *BreakdownError) Error() string {
	msg := fmt.Sprintf("%s broke hpack-stdio at request %d: %s", roleName(e.Decoder), e.Request, e.What)
	if e.LineLen == 0 {
		return msg
	}
	return msg + ": " + quoteCut(e.Line, e.LineLen)
}

// Unwrap returns Err.
func (e *BreakdownError) Unwrap() error { return e.Err }

// roleName names the program in a message: "decoder" when decoder is
// set, else "encoder".
func roleName(decoder bool) string {
	if decoder {
		return roleDecoder
	}
	return roleEncoder
}

// quoteCut quotes s, the start of a text of total octets, as a Go string
// literal, which escapes quotes, backslashes, controls, invalid octets and
// every rune that is not graphic (bidirectional and other format
// characters among them); when s is only a start, "…" ends the quoted
// text and the whole length follows it.
func quoteCut(s string, total int) string {
	q := strconv.Quote(s)
	if total <= len(s) {
		return q
	}
	return fmt.Sprintf("%s…\" (%s octets)", q[:len(q)-1], groupDigits(total))
}

// cut returns the start of b, at most max octets of it, ending between
// two runes when b is UTF-8 there.
func cut(b []byte, max int) string {
	if len(b) <= max {
		return string(b)
	}
	n := max
	for i := 0; i < utf8.UTFMax-1 && n > 0 && !utf8.RuneStart(b[n]); i++ {
		n--
	}
	return string(b[:n])
}

// groupDigits writes n in decimal with a comma between groups of three
// digits, as the reports write counts.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// answer is an answer line, checked against the request it answers.
type answer struct {
	name         string
	binary       bool
	lacks        Lacks
	decoderLacks []string
	wire         []byte
	fields       []Field // the fields of a decode answer, Sensitive as never_indexed says
	table        []Field // the table of a decode answer, when hasTable
	hasTable     bool
	errorText    *string // set for an error answer
	code         string  // the "code" of a QPACK error answer
	unsupported  *string // set for {"unsupported": reason}
	// The members of a QPACK answer (qanswer.go).
	encoderStream []byte
	decoderStream []byte
	section       []byte
	blocked       bool
	unblocked     []QSection
}

// lineError is what is wrong with an answer line; the Client makes it a
// *BreakdownError quoting the line.
type lineError struct {
	what string
	err  error // a *WireLimitError, or nil
}

// vocabulary is the members the answers of one role may have.
type vocabulary struct {
	// memberOf names the answer that defines each member; "error"
	// answers any request.
	memberOf map[string]string
	// shared lists the answers of a member several answers define.
	shared map[string][]string
	// memberKind is the first octet (jsonKind) of each member's type, a
	// string unless said here; a boolean is 't' or 'f'.
	memberKind map[string]byte
	// exclusive lists the members no answer may hold two of.
	exclusive [][2]string
	// foreign names the answer of the other role that defines a member,
	// for a message that says so.
	foreign map[string]string
}

// encoderWords is the vocabulary of an encoder's answers.
var encoderWords = vocabulary{
	memberOf: map[string]string{"name": OpHello, "binary": OpHello, "lacks": OpHello, "refuses": OpHello, "decoder": OpHello,
		"qpack": OpHello, "wire": OpEncode, "unsupported": OpEncode},
	memberKind: map[string]byte{"binary": 't', "lacks": '[', "refuses": '[', "decoder": 't', "qpack": 't'},
	exclusive: [][2]string{{"name", "error"}, {"binary", "error"}, {"lacks", "error"}, {"refuses", "error"},
		{"decoder", "error"}, {"qpack", "error"}, {"wire", "error"}, {"unsupported", "error"}, {"wire", "unsupported"}},
}

// members is an answer's members, checked against a vocabulary.
type members map[string]json.RawMessage

// str returns the string member name, which readMembers checked is a
// string, and whether it is there.
func (m members) str(name string) (*string, bool) {
	raw, ok := m[name]
	if !ok {
		return nil, false
	}
	var s string
	json.Unmarshal(raw, &s) // a string, as checked before
	return &s, true
}

// answerError returns what is wrong with an answer to op.
func answerError(op, format string, args ...any) *lineError {
	return &lineError{what: fmt.Sprintf("the answer to %s ", op) + fmt.Sprintf(format, args...)}
}

// readMembers decodes and checks line, the answer to op, against the
// vocabulary: one JSON object in UTF-8, with each member once, of its
// type, among those of the answer to op. An answer to hello may have
// members the vocabulary does not know, the offers of extensions this
// client does not know; the other answers may not, since only an
// extension the request used could add one.
func readMembers(op string, line []byte, words vocabulary) (members, *lineError) {
	fail := func(format string, args ...any) (members, *lineError) {
		return nil, answerError(op, format, args...)
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return fail("is an empty line")
	}
	if !json.Valid(line) {
		var raw json.RawMessage
		var syntax *json.SyntaxError
		// The one syntax error that is about no octet in particular.
		if errors.As(json.Unmarshal(line, &raw), &syntax) && syntax.Error() != "unexpected end of JSON input" {
			return fail("is not JSON (at octet %d)", syntax.Offset)
		}
		return fail("is not JSON (it ends in the middle of a value)")
	}
	if kind := jsonKind(line); kind != '{' {
		return fail("is %s, not a JSON object", valueKind(kind, true))
	}
	if !utf8.Valid(line) {
		at := invalidUTF8(string(line))
		return fail("is not UTF-8 (octet 0x%02x at offset %d)", line[at], at)
	}
	got := members{}
	dec := json.NewDecoder(bytes.NewReader(line))
	if _, err := dec.Token(); err != nil { // the '{' json.Valid saw
		return fail("is not JSON")
	}
	for dec.More() {
		tok, err := dec.Token()
		var raw json.RawMessage
		if err == nil {
			err = dec.Decode(&raw)
		}
		name, ok := tok.(string)
		if err != nil || !ok {
			return fail("is not JSON")
		}
		if _, twice := got[name]; twice {
			return fail("has %s twice", quoteName(name))
		}
		owner, known := words.memberOf[name]
		if ops, ok := words.shared[name]; ok {
			owner, known = ops[0], true
			if slices.Contains(ops, op) {
				owner = op
			}
		}
		switch {
		case name == "error" || (known && owner == op):
		case known:
			return fail("has %s, a member of the answer to %s", quoteName(name), owner)
		case op == OpHello:
			continue
		case words.foreign[name] != "":
			return fail("has %s, a member of %s", quoteName(name), words.foreign[name])
		default:
			return fail("has %s, a member hpack-stdio/1 does not define", quoteName(name))
		}
		want, ok := words.memberKind[name]
		if !ok {
			want = '"'
		}
		if kind := jsonKind(raw); kind != want && !(want == 't' && kind == 'f') {
			return nil, &lineError{what: fmt.Sprintf("the %q of the answer to %s is %s, not %s", name, op, valueKind(kind, false), valueKind(want, false))}
		}
		got[name] = raw
	}
	for _, pair := range words.exclusive {
		if _, ok := got[pair[0]]; ok {
			if _, ok := got[pair[1]]; ok {
				return fail("has both %q and %q", pair[0], pair[1])
			}
		}
	}
	if text, ok := got.str("error"); ok && *text == "" {
		return fail(`has an empty "error": an error answer says what went wrong`)
	}
	return got, nil
}

// parseAnswer decodes and checks line, the answer of an encoder to op,
// as the protocol defines it (readMembers). maxWire bounds the block of
// an answer to encode.
func parseAnswer(op string, line []byte, maxWire int) (answer, *lineError) {
	var a answer
	fail := func(format string, args ...any) (answer, *lineError) {
		return a, answerError(op, format, args...)
	}
	members, le := readMembers(op, line, encoderWords)
	if le != nil {
		return a, le
	}
	str := members.str
	if text, ok := str("error"); ok {
		a.errorText = text
		return a, nil
	}
	switch op {
	case OpHello:
		name, le := helloName(members)
		if le != nil {
			return a, le
		}
		if jsonKind(members["decoder"]) == 't' {
			return fail(`says "decoder":true: the program is a decoder, started as an encoder`)
		}
		if le := refuseQPACK(members); le != nil {
			return a, le
		}
		a.name = name
		a.binary = jsonKind(members["binary"]) == 't'
		lacks, what := parseLacks(members["lacks"], members["refuses"])
		if what != "" {
			return a, &lineError{what: what}
		}
		a.lacks = lacks
	case OpEncode:
		if reason, ok := str("unsupported"); ok {
			if *reason == "" {
				return fail(`has an empty "unsupported": it says why the encoder cannot express the block`)
			}
			a.unsupported = reason
			return a, nil
		}
		wire, ok := str("wire")
		if !ok { // then it has no member at all: any other is refused above
			return fail(`is {}, the answer to new: it has none of "wire", "unsupported" and "error"`)
		}
		if len(*wire) > 2*maxWire {
			wle := &WireLimitError{Wire: (len(*wire) + 1) / 2, Limit: maxWire}
			return a, &lineError{what: wle.Error(), err: wle}
		}
		octets, err := decodeHex(*wire)
		if err != nil {
			return fail(`has a "wire" that is not hex (%v)`, err)
		}
		a.wire = octets
	}
	return a, nil
}

// helloName returns the "name" of an answer to hello, or what is wrong
// with it: none, or empty.
func helloName(m members) (string, *lineError) {
	name, ok := m.str("name")
	switch {
	case !ok:
		return "", answerError(OpHello, `has no "name"`)
	case *name == "":
		return "", answerError(OpHello, `has an empty "name"`)
	}
	return *name, nil
}

// quoteName quotes a member name for a message, cut if it is long.
func quoteName(name string) string {
	return quoteCut(cut([]byte(name), 40), len(name))
}

// valueKind names the type of a JSON value by its first octet (jsonKind),
// with "JSON" in it when json is set.
func valueKind(kind byte, json bool) string {
	j := ""
	if json {
		j = "JSON "
	}
	article := func(word string) string {
		if j == "" && (word == "object" || word == "array") {
			return "an " + word
		}
		return "a " + j + word
	}
	switch kind {
	case '{':
		return article("object")
	case '[':
		return article("array")
	case '"':
		return article("string")
	case 't', 'f':
		return article("boolean")
	case 'n':
		return j + "null"
	}
	return article("number")
}

func isHexDigit(r rune) bool {
	return '0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F'
}
