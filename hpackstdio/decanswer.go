package hpackstdio

import (
	"encoding/json"
	"fmt"
	"slices"
)

// decoderWords is the vocabulary of a decoder's answers: hello is
// answered {"name":...,"decoder":true,"lacks":[...]}, new {}, and decode
// {"headers":[...],"never_indexed":[...],"table":[...],"hex":true} or
// {"error":...}.
var decoderWords = vocabulary{
	memberOf: map[string]string{"name": OpHello, "decoder": OpHello, "lacks": OpHello, "qpack": OpHello,
		"headers": OpDecode, "never_indexed": OpDecode, "table": OpDecode, "hex": OpDecode},
	memberKind: map[string]byte{"decoder": 't', "lacks": '[', "qpack": 't', "headers": '[', "never_indexed": '[', "table": '[', "hex": 't'},
	exclusive: [][2]string{{"name", "error"}, {"decoder", "error"}, {"lacks", "error"}, {"qpack", "error"},
		{"headers", "error"}, {"never_indexed", "error"}, {"table", "error"}, {"hex", "error"}},
	foreign: map[string]string{"wire": "an encoder's answer to encode", "unsupported": "an encoder's answer to encode"},
}

// parseDecoderAnswer decodes and checks line, the answer of a decoder to
// op, as the protocol defines it (readMembers, decoderWords). lacks is
// what the decoder declared in its answer to hello: a decoder that lacks
// "never-indexed" may leave never_indexed out of its decode answers.
func parseDecoderAnswer(op string, line []byte, lacks []string) (answer, *lineError) {
	var a answer
	fail := func(format string, args ...any) (answer, *lineError) {
		return a, answerError(op, format, args...)
	}
	members, le := readMembers(op, line, decoderWords)
	if le != nil {
		return a, le
	}
	if text, ok := members.str("error"); ok {
		a.errorText = text
		return a, nil
	}
	switch op {
	case OpHello:
		name, le := helloName(members)
		switch {
		case le != nil:
			return a, le
		case jsonKind(members["decoder"]) != 't':
			if le := refuseQPACK(members); le != nil {
				return a, le
			}
			return fail(`does not say "decoder":true: the program is an encoder, started as a decoder`)
		}
		if le := refuseQPACK(members); le != nil {
			return a, le
		}
		a.name = name
		if a.decoderLacks, le = parseDecoderLacks(members["lacks"]); le != nil {
			return a, le
		}
	case OpDecode:
		raw, ok := members["headers"]
		if !ok {
			return fail(`has neither "headers" nor "error"`)
		}
		hexForm := jsonKind(members["hex"]) == 't'
		if a.fields, le = parsePairs(raw, OpDecode, "headers", hexForm); le != nil {
			return a, le
		}
		if raw, ok := members["table"]; ok {
			if a.table, le = parsePairs(raw, OpDecode, "table", hexForm); le != nil {
				return a, le
			}
			a.hasTable = true
		}
		raw, ok = members["never_indexed"]
		if !ok {
			if !slices.Contains(lacks, "never-indexed") {
				return fail(`has no "never_indexed" (one flag a header), and the decoder did not declare the lack "never-indexed"`)
			}
			return a, nil
		}
		if le := parseFlags(raw, OpDecode, "never_indexed", a.fields); le != nil {
			return a, le
		}
	}
	return a, nil
}

// parseFlags reads the list raw, the member what of an answer to op: one
// boolean a field of fields, which sets its Sensitive.
func parseFlags(raw json.RawMessage, op, what string, fields []Field) *lineError {
	var flags []json.RawMessage
	json.Unmarshal(raw, &flags) // an array, as checked before
	if len(flags) != len(fields) {
		return answerError(op, `has %d %q flags for %d headers`, len(flags), what, len(fields))
	}
	for i, flag := range flags {
		switch jsonKind(flag) {
		case 't':
			fields[i].Sensitive = true
		case 'f':
		default:
			return &lineError{what: fmt.Sprintf(`the %q of the answer to %s has %s at index %d, not a boolean`, what, op, valueKind(jsonKind(flag), false), i)}
		}
	}
	return nil
}

// parsePairs reads the list raw, the member what of an answer to op: one
// [name, value] pair of strings a field, each the hex of its octets when
// hexForm is set.
func parsePairs(raw json.RawMessage, op, what string, hexForm bool) ([]Field, *lineError) {
	fail := func(format string, args ...any) ([]Field, *lineError) {
		return nil, &lineError{what: fmt.Sprintf("the %q of the answer to %s ", what, op) + fmt.Sprintf(format, args...)}
	}
	var list []json.RawMessage
	json.Unmarshal(raw, &list) // an array, as checked before
	fields := make([]Field, len(list))
	for i, item := range list {
		var pair []json.RawMessage
		if kind := jsonKind(item); kind != '[' {
			return fail("has %s at index %d, not a [name, value] pair", valueKind(kind, false), i)
		}
		json.Unmarshal(item, &pair)
		if len(pair) != 2 {
			return fail("has an array of %d values at index %d, not a [name, value] pair", len(pair), i)
		}
		var nv [2]string
		for j, part := range [2]string{"name", "value"} {
			if kind := jsonKind(pair[j]); kind != '"' {
				return fail("has %s as the %s at index %d, not a string", valueKind(kind, false), part, i)
			}
			json.Unmarshal(pair[j], &nv[j])
			if !hexForm {
				continue
			}
			octets, err := decodeHex(nv[j])
			if err != nil {
				return fail(`has a %s at index %d that is not hex (%v), in an answer that says "hex":true`, part, i, err)
			}
			nv[j] = string(octets)
		}
		fields[i] = Field{Name: nv[0], Value: nv[1]}
	}
	return fields, nil
}
