package hpackstdio

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// scriptDecoderArgs returns the arguments of a helper that answers
// hello, new and decode as runScript says.
func scriptDecoderArgs(hello, new, decode string) []string {
	return []string{os.Args[0], "decscript", hello, new, decode}
}

// provokeDecoder starts a decoder helper that answers op as action says
// (see runScript) and the other requests well, and makes the requests
// hello, new, decode and decode until one fails. It returns the client,
// nil when StartDecoder failed, and the error.
func provokeDecoder(t *testing.T, op, action string, opts Options) (*DecoderClient, error) {
	t.Helper()
	answers := map[string]string{OpHello: `{"name":"x","decoder":true}`, OpNew: `{}`,
		OpDecode: `{"headers":[[":method","GET"]],"never_indexed":[false]}`}
	answers[op] = action
	timeout := opts.Timeout
	if op != OpHello || !strings.Contains(action, "hang") {
		opts = startOptions(opts)
	}
	d, err := StartDecoder(scriptDecoderArgs(answers[OpHello], answers[OpNew], answers[OpDecode]), opts)
	if err != nil {
		return nil, err
	}
	t.Cleanup(func() { d.Close() })
	d.timeout = timeout
	if err := d.New(); err != nil {
		return d, err
	}
	for range 2 {
		if _, err := d.Decode([]byte{0x82}, 4096, 65536); err != nil {
			return d, err
		}
	}
	return d, nil
}

// TestDecoderBreakdowns drives decoder programs that break the decoder
// side of the protocol in every way its answers can be broken, and
// checks the whole error, that it names the request, and that the
// program was stopped; and the answer that is no breakdown, the
// decoder's refusal of a block.
func TestDecoderBreakdowns(t *testing.T) {
	const (
		request1 = "decoder broke hpack-stdio at request 1: "
		request2 = "decoder broke hpack-stdio at request 2: "
		request3 = "decoder broke hpack-stdio at request 3: "
		request4 = "decoder broke hpack-stdio at request 4: "
	)
	tests := []struct {
		op, action string
		want       string // the whole error
		request    int    // the request the error names
		breakdown  bool   // false for an *AnswerError
		reason     string
	}{
		// The answer to hello.
		{OpHello, `{"name":"x"}`, request1 + `the answer to hello does not say "decoder":true: the program is an encoder, started as a decoder: "{\"name\":\"x\"}"`, 1, true, "an encoder's hello"},
		{OpHello, `{"name":"x","decoder":false}`, request1 + `the answer to hello does not say "decoder":true: the program is an encoder, started as a decoder: "{\"name\":\"x\",\"decoder\":false}"`, 1, true, "decoder false is no decoder"},
		{OpHello, `{"name":"x","decoder":"yes"}`, request1 + `the "decoder" of the answer to hello is a string, not a boolean: "{\"name\":\"x\",\"decoder\":\"yes\"}"`, 1, true, "decoder is a boolean"},
		{OpHello, `{"decoder":true}`, request1 + `the answer to hello has no "name": "{\"decoder\":true}"`, 1, true, "a name is required"},
		{OpHello, `{"name":"x","decoder":true,"lacks":["table"]}`, request1 + `the "lacks" of the answer to hello has "table" at index 0: unknown decoder lack "table" (known: never-indexed, max-header-list): "{\"name\":\"x\",\"decoder\":true,\"lacks\":[\"table\"]}"`, 1, true, "the table is optional, no lack"},
		{OpHello, `{"name":"x","decoder":true,"lacks":["never-index"]}`, request1 + `the "lacks" of the answer to hello has "never-index" at index 0: unknown decoder lack "never-index" (known: never-indexed, max-header-list): "{\"name\":\"x\",\"decoder\":true,\"lacks\":[\"never-index\"]}"`, 1, true, "an encoder's lack"},
		{OpHello, `{"name":"x","decoder":true,"lacks":["never-indexed","never-indexed"]}`, request1 + `the "lacks" of the answer to hello has "never-indexed" twice: "{\"name\":\"x\",\"decoder\":true,\"lacks\":[\"never-indexed\",\"never-indexed\"]}"`, 1, true, "each lack once"},
		{OpHello, `{"name":"x","decoder":true,"lacks":[1]}`, request1 + `the "lacks" of the answer to hello has a number at index 0, not a string: "{\"name\":\"x\",\"decoder\":true,\"lacks\":[1]}"`, 1, true, "a lack is named"},
		{OpHello, `{"name":"x","decoder":true,"error":"no"}`, request1 + `the answer to hello has both "name" and "error": "{\"name\":\"x\",\"decoder\":true,\"error\":\"no\"}"`, 1, true, "an error answer has error alone"},
		// The answer to new.
		{OpNew, `{"headers":[]}`, request2 + `the answer to new has "headers", a member of the answer to decode: "{\"headers\":[]}"`, 2, true, "new is answered {}"},
		// The answer to decode: members of other answers, unknown, missing,
		// or that exclude each other.
		{OpDecode, `{}`, request3 + `the answer to decode has neither "headers" nor "error": "{}"`, 3, true, "an answer to new"},
		{OpDecode, `{"name":"x"}`, request3 + `the answer to decode has "name", a member of the answer to hello: "{\"name\":\"x\"}"`, 3, true, "an answer to hello"},
		{OpDecode, `{"wire":"82"}`, request3 + `the answer to decode has "wire", a member of an encoder's answer to encode: "{\"wire\":\"82\"}"`, 3, true, "an encoder's answer"},
		{OpDecode, `{"headers":[],"never_indexed":[],"sensitive":[]}`, request3 + `the answer to decode has "sensitive", a member hpack-stdio/1 does not define: "{\"headers\":[],\"never_indexed\":[],\"sensitive\":[]}"`, 3, true, "the request's name for never_indexed"},
		{OpDecode, `{"headers":[],"never_indexed":[],"error":"x"}`, request3 + `the answer to decode has both "headers" and "error": "{\"headers\":[],\"never_indexed\":[],\"error\":\"x\"}"`, 3, true, "fields or a refusal, not both"},
		{OpDecode, `{"headers":[["a","b"]]}`, request3 + `the answer to decode has no "never_indexed" (one flag a header), and the decoder did not declare the lack "never-indexed": "{\"headers\":[[\"a\",\"b\"]]}"`, 3, true, "never_indexed is required"},
		{OpDecode, `{"headers":[],"never_indexed":[],"never_indexed":[]}`, request3 + `the answer to decode has "never_indexed" twice: "{\"headers\":[],\"never_indexed\":[],\"never_indexed\":[]}"`, 3, true, "a member twice"},
		// Members of the wrong type or shape.
		{OpDecode, `{"headers":null,"never_indexed":[]}`, request3 + `the "headers" of the answer to decode is null, not an array: "{\"headers\":null,\"never_indexed\":[]}"`, 3, true, "null is no list"},
		{OpDecode, `{"headers":[["a","b"]],"never_indexed":[]}`, request3 + `the answer to decode has 0 "never_indexed" flags for 1 headers: "{\"headers\":[[\"a\",\"b\"]],\"never_indexed\":[]}"`, 3, true, "one flag a header"},
		{OpDecode, `{"headers":[["a","b"]],"never_indexed":[1]}`, request3 + `the "never_indexed" of the answer to decode has a number at index 0, not a boolean: "{\"headers\":[[\"a\",\"b\"]],\"never_indexed\":[1]}"`, 3, true, "flags are booleans"},
		{OpDecode, `{"headers":["ab"],"never_indexed":[false]}`, request3 + `the "headers" of the answer to decode has a string at index 0, not a [name, value] pair: "{\"headers\":[\"ab\"],\"never_indexed\":[false]}"`, 3, true, "a field is a pair"},
		{OpDecode, `{"headers":[["a"]],"never_indexed":[false]}`, request3 + `the "headers" of the answer to decode has an array of 1 values at index 0, not a [name, value] pair: "{\"headers\":[[\"a\"]],\"never_indexed\":[false]}"`, 3, true, "a pair has two strings"},
		{OpDecode, `{"headers":[["a",1]],"never_indexed":[false]}`, request3 + `the "headers" of the answer to decode has a number as the value at index 0, not a string: "{\"headers\":[[\"a\",1]],\"never_indexed\":[false]}"`, 3, true, "values are strings"},
		{OpDecode, `{"headers":[],"never_indexed":[],"table":{}}`, request3 + `the "table" of the answer to decode is an object, not an array: "{\"headers\":[],\"never_indexed\":[],\"table\":{}}"`, 3, true, "the table is a list"},
		{OpDecode, `{"headers":[],"never_indexed":[],"table":[[null,"b"]]}`, request3 + `the "table" of the answer to decode has null as the name at index 0, not a string: "{\"headers\":[],\"never_indexed\":[],\"table\":[[null,\"b\"]]}"`, 3, true, "table entries are pairs of strings"},
		{OpDecode, `{"headers":[],"never_indexed":[],"hex":"yes"}`, request3 + `the "hex" of the answer to decode is a string, not a boolean: "{\"headers\":[],\"never_indexed\":[],\"hex\":\"yes\"}"`, 3, true, "hex is a boolean"},
		{OpDecode, `{"headers":[["616","62"]],"never_indexed":[false],"hex":true}`, request3 + `the "headers" of the answer to decode has a name at index 0 that is not hex (an odd number of digits, 3), in an answer that says "hex":true: "{\"headers\":[[\"616\",\"62\"]],\"never_indexed\":[false],\"hex\":true}"`, 3, true, "two digits an octet"},
		{OpDecode, `{"headers":[],"never_indexed":[],"table":[["61","g0"]],"hex":true}`, request3 + `the "table" of the answer to decode has a value at index 0 that is not hex (a non-hex digit at offset 0), in an answer that says "hex":true: "{\"headers\":[],\"never_indexed\":[],\"table\":[[\"61\",\"g0\"]],\"hex\":true}"`, 3, true, "the table in hex too"},
		{OpDecode, `{"headers":[[":method","GET"]],"never_indexed":[false]} {}`, request3 + `the answer to decode is not JSON (at octet 57): "{\"headers\":[[\":method\",\"GET\"]],\"never_indexed\":[false]} {}"`, 3, true, "two values on a line"},
		{OpDecode, "{\"headers\":[[\"a\",\"\xff\"]],\"never_indexed\":[false]}", request3 + `the answer to decode is not UTF-8 (octet 0xff at offset 18): "{\"headers\":[[\"a\",\"\xff\"]],\"never_indexed\":[false]}"`, 3, true, "raw octets are not JSON: the hex form carries them"},
		{OpDecode, `{"error":""}`, request3 + `the answer to decode has an empty "error": an error answer says what went wrong: "{\"error\":\"\"}"`, 3, true, "a refusal says why"},
		// A program that stops talking, or writes too much.
		{OpDecode, "hang", request3 + `no answer to decode within 300ms`, 3, true, "a timeout, naming it"},
		{OpDecode, "exit", request3 + `the decoder exited (exit status 3) without answering decode`, 3, true, "an exit, naming the decoder"},
		{OpDecode, "headers 70000", request3 + `an answer to decode of more than 65,536 octets, the bound of a decode answer: the decoder expanded the block beyond any header list the certifier accepts`, 3, true, "an answer over its bound, an *OversizeAnswerError"},
		{OpDecode, "close-stdout", request3 + `the decoder closed its standard output without answering decode`, 3, true, "stdout closed, the process alive"},
		{OpDecode, "term", request3 + `the decoder was killed by signal SIGTERM without answering decode`, 3, true, "killed by a signal"},
		// An answer counts only when it is whole: a line cut short, or
		// one the program died of a signal after, is the crash.
		{OpDecode, `segv {"headers":[["a`, request3 + `the decoder was killed by signal SIGSEGV in the middle of its answer to decode, a partial answer: "{\"headers\":[[\"a"`, 3, true, "a crash in the middle of a line, never taken for JSON"},
		{OpDecode, `segv {"headers":[["a","b"]],"never_indexed":[false]}`, request3 + `the decoder was killed by signal SIGSEGV in the middle of its answer to decode, a partial answer: "{\"headers\":[[\"a\",\"b\"]],\"never_indexed\":[false]}"`, 3, true, "a whole answer without its line feed, then a crash"},
		{OpDecode, `once {"headers":[["a","b"]],"never_indexed":[false]}`, request4 + `the decoder was killed by signal SIGSEGV without answering decode`, 4, true, "a whole line counts; the crash at the next request"},
		{OpDecode, `close-stdout {"headers":[["a","b"]],"never_indexed":[false]}`, request3 + `the decoder closed its standard output in the middle of its answer to decode, a partial answer: "{\"headers\":[[\"a\",\"b\"]],\"never_indexed\":[false]}"`, 3, true, "a line without its end, the program alive"},
		// "early" answers new, then writes an encoder's answer as the
		// decode request comes: taken as the answer to decode, refused.
		{OpNew, "early", request3 + `the answer to decode has "wire", a member of an encoder's answer to encode: "{\"wire\":\"82\"}"`, 3, true, "an answer to a request never sent"},
		{OpNew, "{}\n{}", request2 + `the decoder wrote more than one line in answer to new, the next: "{}"`, 2, true, "a second line"},
		// The decoder refusing the block: no breakdown.
		{OpDecode, `{"error":"index 0 at offset 0"}`, `decoder answered request 3 (decode) with an error: index 0 at offset 0`, 3, false, "a decoding error"},
	}
	for _, tt := range tests {
		t.Run(tt.op+" "+tt.reason, func(t *testing.T) {
			t.Parallel()
			timeout := caseTimeout(tt.action)
			d, err := provokeDecoder(t, tt.op, tt.action, Options{Timeout: timeout, MaxAnswer: 64 << 10})
			if err == nil {
				t.Fatalf("no error; want %q (%s)", tt.want, tt.reason)
			}
			got := err.Error()
			if d == nil { // StartDecoder failed
				got = strings.TrimPrefix(got, os.Args[0]+": ")
			}
			if got != tt.want {
				t.Errorf("error\n%s\nwant\n%s\n(%s)", got, tt.want, tt.reason)
			}
			var be *BreakdownError
			var ae *AnswerError
			switch {
			case tt.breakdown && (!errors.As(err, &be) || be.Request != tt.request || !be.Decoder):
				t.Errorf("error %#v; want a decoder's *BreakdownError of request %d", err, tt.request)
			case !tt.breakdown && (!errors.As(err, &ae) || ae.Request != tt.request || !ae.Decoder || errors.As(err, &be)):
				t.Errorf("error %#v; want a decoder's *AnswerError of request %d", err, tt.request)
			}
			var oversize *OversizeAnswerError
			if isOversize := errors.As(err, &oversize); isOversize != strings.HasPrefix(tt.action, "headers ") {
				t.Errorf("error %v: an *OversizeAnswerError %t; want it only for an answer over its bound", err, isOversize)
			}
			if d == nil {
				return
			}
			if stopped := d.Err() != nil; stopped != tt.breakdown {
				t.Errorf("stopped = %t after %q; want %t", stopped, err, tt.breakdown)
			}
			if tt.breakdown {
				checkReaped(t, d.proc)
			}
		})
	}
}

// TestDecoderAnswerBound checks the bound of a decode answer at its
// edge: a line of MaxAnswer octets is read, one more is refused.
func TestDecoderAnswerBound(t *testing.T) {
	const limit = 4096
	// The line around the value: {"headers":[["x","..."]],"never_indexed":[false]}
	frame := len(`{"headers":[["x",""]],"never_indexed":[false]}`)
	for _, tt := range []struct {
		value    int
		oversize bool
	}{{limit - frame, false}, {limit - frame + 1, true}} {
		_, err := provokeDecoder(t, OpDecode, fmt.Sprintf("headers %d", tt.value), Options{Timeout: slowTimeout, MaxAnswer: limit})
		var oversize *OversizeAnswerError
		if got := errors.As(err, &oversize); got != tt.oversize || (!got && err != nil) {
			t.Errorf("an answer line of %d octets, bound %d: error %v; want an *OversizeAnswerError %t", frame+tt.value, limit, err, tt.oversize)
		}
		if tt.oversize && oversize.Limit != limit {
			t.Errorf("Limit = %d; want %d", oversize.Limit, limit)
		}
	}
}
