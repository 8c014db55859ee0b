package hpackstdio

import (
	"encoding/json"
	"fmt"
	"strings"
)

// qpackOps are the requests of the QPACK mode, both sides'.
var qpackOps = []string{OpHello, OpNew, OpEncode, OpDecoderStream, OpEncoderStream, OpDecode, OpCancel}

// qEncoderWords is the vocabulary of a QPACK encoder's answers: hello is
// answered {"name":...,"qpack":true,"binary":true}, new {}, encode
// {"section":...,"encoder_stream":...} and decoder_stream
// {"encoder_stream":...}; any of them {"error":...,"code":...}.
var qEncoderWords = vocabulary{
	memberOf:   map[string]string{"name": OpHello, "qpack": OpHello, "binary": OpHello, "section": OpEncode},
	shared:     map[string][]string{"encoder_stream": {OpEncode, OpDecoderStream}, "code": qpackOps},
	memberKind: map[string]byte{"qpack": 't', "binary": 't'},
	exclusive: [][2]string{{"name", "error"}, {"qpack", "error"}, {"binary", "error"},
		{"section", "error"}, {"encoder_stream", "error"}},
	foreign: map[string]string{"decoder_stream": "a QPACK decoder's answers", "unblocked": "a QPACK decoder's answer to encoder_stream",
		"headers": "a QPACK decoder's answer to decode", "blocked": "a QPACK decoder's answer to decode", "wire": "an HPACK encoder's answer to encode"},
}

// qDecoderWords is the vocabulary of a QPACK decoder's answers: hello and
// new as an encoder's, encoder_stream {"decoder_stream":...,
// "unblocked":[...]}, decode {"headers":[...],"sensitive":[...],
// "decoder_stream":...} or {"blocked":true,"decoder_stream":...}, cancel
// {"decoder_stream":...}; any of them {"error":...,"code":...}.
var qDecoderWords = vocabulary{
	memberOf: map[string]string{"name": OpHello, "qpack": OpHello, "binary": OpHello, "unblocked": OpEncoderStream,
		"headers": OpDecode, "sensitive": OpDecode, "blocked": OpDecode},
	shared:     map[string][]string{"decoder_stream": {OpEncoderStream, OpDecode, OpCancel}, "code": qpackOps},
	memberKind: map[string]byte{"qpack": 't', "binary": 't', "unblocked": '[', "headers": '[', "sensitive": '[', "blocked": 't'},
	exclusive: [][2]string{{"name", "error"}, {"qpack", "error"}, {"binary", "error"}, {"unblocked", "error"},
		{"headers", "error"}, {"sensitive", "error"}, {"blocked", "error"}, {"decoder_stream", "error"},
		{"headers", "blocked"}, {"sensitive", "blocked"}},
	foreign: map[string]string{"section": "a QPACK encoder's answer to encode", "encoder_stream": "a QPACK encoder's answers",
		"never_indexed": "an HPACK decoder's answer to decode", "wire": "an HPACK encoder's answer to encode"},
}

// refuseQPACK returns the error of an HPACK client's hello answer that
// says "qpack":true, or nil.
func refuseQPACK(members members) *lineError {
	if jsonKind(members["qpack"]) == 't' {
		return &lineError{what: `the answer to hello says "qpack":true: the program speaks QPACK, not HPACK`}
	}
	return nil
}

// qAnswerRules are what parsing a QPACK answer needs beyond its line: the
// vocabulary of the side, whether names and values are hex (the hello
// offered the binary form) and the bound of the octets of one member.
type qAnswerRules struct {
	words   vocabulary
	binary  bool
	maxWire int
}

// parseQAnswer decodes and checks line, the answer of a QPACK program to
// op (readMembers, then the members each answer needs).
func parseQAnswer(op string, line []byte, r qAnswerRules) (answer, *lineError) {
	var a answer
	fail := func(format string, args ...any) (answer, *lineError) {
		return a, answerError(op, format, args...)
	}
	members, le := readMembers(op, line, r.words)
	if le != nil {
		return a, le
	}
	code, hasCode := members.str("code")
	if text, ok := members.str("error"); ok {
		if hasCode {
			if *code == "" || strings.Trim(*code, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" {
				return fail(`has the "code" %s, not an error code such as QPACK_DECOMPRESSION_FAILED (capital letters, digits and "_")`, quoteName(*code))
			}
			a.code = *code
		}
		a.errorText = text
		return a, nil
	}
	if hasCode {
		return fail(`has a "code" without an "error"`)
	}
	for _, name := range []string{"section", "encoder_stream", "decoder_stream"} {
		s, ok := members.str(name)
		if !ok {
			continue
		}
		if len(*s) > 2*r.maxWire {
			wle := &WireLimitError{Wire: (len(*s) + 1) / 2, Limit: r.maxWire}
			return a, &lineError{what: fmt.Sprintf("the %q of the answer to %s is over its bound: %v", name, op, wle), err: wle}
		}
		octets, err := decodeHex(*s)
		if err != nil {
			return fail(`has a %q that is not hex (%v)`, name, err)
		}
		switch name {
		case "section":
			a.section = octets
		case "encoder_stream":
			a.encoderStream = octets
		default:
			a.decoderStream = octets
		}
	}
	switch op {
	case OpHello:
		name, le := helloName(members)
		switch {
		case le != nil:
			return a, le
		case jsonKind(members["qpack"]) != 't':
			return a, &lineError{what: qpackHelloError}
		}
		a.name = name
		a.binary = jsonKind(members["binary"]) == 't'
	case OpEncode:
		if _, ok := members["section"]; !ok {
			return fail(`has no "section" (nor "error")`)
		}
	case OpDecode:
		if raw, ok := members["blocked"]; ok {
			if jsonKind(raw) != 't' {
				return fail(`has "blocked":false: a decoded section is answered with "headers", a blocked one with "blocked":true`)
			}
			a.blocked = true
			return a, nil
		}
		var f QSection
		if f, le = parseQFields(op, members, r.binary); le != nil {
			return a, le
		}
		a.fields = f.Fields
	case OpEncoderStream:
		if a.unblocked, le = parseUnblocked(members["unblocked"], r.binary); le != nil {
			return a, le
		}
	}
	return a, nil
}

// parseQFields reads the "headers" and "sensitive" of an answer to op,
// or of one of its unblocked sections.
func parseQFields(op string, m members, binary bool) (QSection, *lineError) {
	for _, name := range []string{"headers", "sensitive"} {
		raw, ok := m[name]
		if !ok {
			return QSection{}, answerError(op, `has no %q`, name)
		}
		if kind := jsonKind(raw); kind != '[' {
			return QSection{}, &lineError{what: fmt.Sprintf("the %q of the answer to %s is %s, not an array", name, op, valueKind(kind, false))}
		}
	}
	fields, le := parsePairs(m["headers"], op, "headers", binary)
	if le == nil {
		le = parseFlags(m["sensitive"], op, "sensitive", fields)
	}
	return QSection{Fields: fields}, le
}

// parseUnblocked reads the "unblocked" of an answer to encoder_stream,
// JSON array or nil: one {"stream":N,"headers":[...],"sensitive":[...]}
// a section the new inserts unblocked.
func parseUnblocked(raw json.RawMessage, binary bool) ([]QSection, *lineError) {
	var items []json.RawMessage
	json.Unmarshal(raw, &items) // an array or nothing, as checked before
	out := make([]QSection, 0, len(items))
	for i, item := range items {
		op := fmt.Sprintf("encoder_stream (unblocked section %d)", i)
		var m members
		if jsonKind(item) != '{' || json.Unmarshal(item, &m) != nil {
			return nil, &lineError{what: fmt.Sprintf(`the "unblocked" of the answer to encoder_stream has %s at index %d, not an object`, valueKind(jsonKind(item), false), i)}
		}
		for name := range m {
			if name != "stream" && name != "headers" && name != "sensitive" {
				return nil, answerError(op, "has %s, which an unblocked section does not have (stream, headers, sensitive)", quoteName(name))
			}
		}
		rawStream, ok := m["stream"]
		if !ok {
			return nil, answerError(op, `has no "stream"`)
		}
		stream, err := parseVarint(rawStream, "stream")
		if err != nil {
			return nil, &lineError{what: fmt.Sprintf("the answer to %s: %v", op, err)}
		}
		s, le := parseQFields(op, m, binary)
		if le != nil {
			return nil, le
		}
		s.Stream = stream
		out = append(out, s)
	}
	return out, nil
}
