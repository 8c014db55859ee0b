package hpackstdio

import (
	"bytes"
	"strings"
	"testing"
)

// TestServeDecoder runs Server for the strict decoder on a script of
// requests and checks every answer: hello saying decoder and its lacks,
// fields with their flags and the table, the hex form, refusals and the
// dead context after one, the settings, and the requests of an encoder.
func TestServeDecoder(t *testing.T) {
	script := []struct {
		request, answer, reason string
	}{
		{`{"op":"hello"}`, `{"name":"strict","decoder":true,"lacks":["never-indexed"]}`, "hello says decoder, and the lacks"},
		{`{"op":"decode","wire":"82","table_size":4096,"max_header_list":0}`, `{"error":"a decode request before new"}`, "Complete: new first"},
		{`{"op":"new"}`, `{}`, "a fresh context"},
		{`{"op":"decode","wire":"8286","table_size":4096,"max_header_list":0}`, `{"headers":[[":method","GET"],[":scheme","http"]],"never_indexed":[false,false],"table":[]}`, "static fields"},
		{`{"op":"decode","wire":"4001610162","table_size":4096,"max_header_list":0}`, `{"headers":[["a","b"]],"never_indexed":[false],"table":[["a","b"]]}`, "an inserted field, in the table"},
		{`{"op":"decode","wire":"1001630164","table_size":4096,"max_header_list":0}`, `{"headers":[["c","d"]],"never_indexed":[true],"table":[["a","b"]]}`, "never indexed, not inserted"},
		{`{"op":"decode","wire":"0001ff0100","table_size":4096,"max_header_list":0}`, `{"headers":[["ff","00"]],"never_indexed":[false],"table":[["61","62"]],"hex":true}`, "an octet beyond UTF-8: all in hex"},
		{`{"op":"decode","wire":"","table_size":4096,"max_header_list":0}`, `{"headers":[],"never_indexed":[],"table":[["a","b"]]}`, "an empty block"},
		{`{"op":"decode","wire":"2082","table_size":0,"max_header_list":0}`, `{"headers":[[":method","GET"]],"never_indexed":[false],"table":[]}`, "a lowered setting, signalled"},
		{`{"op":"encode","table_sizes":[],"headers":[],"sensitive":[]}`, `{"error":"this program is a decoder: it answers decode requests, not encode"}`, "no encoding"},
		{`{"op":"decode","wire":"82","table_size":0,"max_header_list":0}`, `{"headers":[[":method","GET"]],"never_indexed":[false],"table":[]}`, "a repeated setting is no new one"},
		{`{"op":"decode","wire":"80","table_size":0,"max_header_list":0}`, `{"error":"`, "index 0 refused"},
		{`{"op":"decode","wire":"82","table_size":0,"max_header_list":0}`, `{"error":"the context is dead since the decoder refused a block; new opens the next"}`, "dead after a refusal"},
		{`{"op":"new"}`, `{}`, "a fresh context again"},
		{`{"op":"decode","wire":"4001610162","table_size":4096,"max_header_list":33}`, `{"error":"`, "a header list over the limit"},
		{`{"op":"new"}`, `{}`, "and again"},
		{`{"op":"decode","wire":"4001610162","table_size":4096,"max_header_list":34}`, `{"headers":[["a","b"]],"never_indexed":[false],"table":[["a","b"]]}`, "a header list at the limit"},
		{`{"op":"decode","wire":"8","table_size":4096,"max_header_list":0}`, `{"error":"\"wire\" is not hex: an odd number of digits, 1"}`, "a request that is not hex"},
		{`{"op":"decode","wire":"82","table_size":4096}`, `{"error":"the decode request has no \"max_header_list\""}`, "Complete: every member"},
		{`{"op":"decode","wire":"82","table_size":4096,"max_header_list":0,"hex":true}`, `{"error":"the decode request has members the protocol does not define: \"hex\""}`, "Complete: no other member"},
		{`{"op":"decode","wire":"82","table_size":-1,"max_header_list":0}`, `{"error":"\"table_size\" is -1, not an integer from 0 to 4294967295"}`, "a setting is 32 bits"},
	}
	requests := make([]string, len(script))
	for i, s := range script {
		requests[i] = s.request
	}
	var log bytes.Buffer
	s := &Server{Name: "strict", NewDecoder: newStrict, DecoderLacks: []string{"never-indexed"}, Complete: true, Log: &log}
	answers := serve(t, s, requests...)
	for i, sc := range script {
		if got := answers[i]; !(got == sc.answer || strings.HasSuffix(sc.answer, `"`) && strings.HasPrefix(got, sc.answer)) {
			t.Errorf("answer %d to %s:\n%s\nwant\n%s (%s)", i, sc.request, got, sc.answer, sc.reason)
		}
	}
	if n := strings.Count(log.String(), "\n"); n != 2*len(script) {
		t.Errorf("log of %d lines; want %d", n, 2*len(script))
	}
	// Without Complete, a decode before new opens a context, and missing
	// settings are those of a fresh one.
	loose := &Server{Name: "strict", NewDecoder: newStrict}
	got := serve(t, loose, `{"op":"decode","wire":"82"}`)
	if want := `{"headers":[[":method","GET"]],"never_indexed":[false],"table":[]}`; got[0] != want {
		t.Errorf("a loose decode request: %s; want %s", got[0], want)
	}
}

// TestServeEncoderRefusesDecode checks that an encoder program answers a
// decode request with an error saying what it is.
func TestServeEncoderRefusesDecode(t *testing.T) {
	got := serve(t, &Server{Name: "echo", NewEncoder: newEcho}, `{"op":"decode","wire":"82","table_size":4096,"max_header_list":0}`)
	if want := `{"error":"this program is an encoder: it answers encode requests, not decode"}`; got[0] != want {
		t.Errorf("answer %s; want %s", got[0], want)
	}
}

// TestServeDecoderBreakdown checks that a Go decoder's breakdown ends
// Serve with an error saying so, after the answers before it.
func TestServeDecoderBreakdown(t *testing.T) {
	var out bytes.Buffer
	s := &Server{Name: "panic", NewDecoder: func() Decoder { return panicDecoder{} }}
	in := `{"op":"hello"}` + "\n" + `{"op":"new"}` + "\n" + `{"op":"decode","wire":"82","table_size":4096,"max_header_list":0}` + "\n"
	err := s.Serve(strings.NewReader(in), &out)
	if err == nil || err.Error() != "hpackstdio: the decoder broke down: the decoder panicked: planted panic" {
		t.Errorf("Serve error %v; want the decoder's panic", err)
	}
	if want := `{"name":"panic","decoder":true}` + "\n{}\n"; out.String() != want {
		t.Errorf("answers %q; want %q", out.String(), want)
	}
	nilDecoder := &Server{Name: "nil", NewDecoder: func() Decoder { return nil }}
	if err := nilDecoder.Serve(strings.NewReader(`{"op":"new"}`+"\n"), new(bytes.Buffer)); err == nil || !strings.Contains(err.Error(), "returned nil") {
		t.Errorf("Serve with a constructor returning nil: error %v; want one saying so", err)
	}
}
