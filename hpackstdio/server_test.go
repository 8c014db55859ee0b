package hpackstdio

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// echoEncoder is an Encoder whose block spells out what it was given, so
// that a test can see every size, flag and octet that reached it: "s" and
// the size for each table size, then for each field "f", the sensitive
// flag, and the name and value with their lengths.
type echoEncoder struct {
	sizes []uint32
}

func (e *echoEncoder) SetMaxDynamicTableSize(n uint32) error {
	if n == 13 {
		return errors.New("13 is unlucky")
	}
	e.sizes = append(e.sizes, n)
	return nil
}

func (e *echoEncoder) EncodeBlock(dst []byte, fields []Field) ([]byte, error) {
	for _, n := range e.sizes {
		dst = fmt.Appendf(dst, "s%d;", n)
	}
	e.sizes = nil
	for _, f := range fields {
		if f.Name == "fail" {
			return dst, errors.New("asked to fail")
		}
		dst = fmt.Appendf(dst, "f%t%d:%s%d:%s;", f.Sensitive, len(f.Name), f.Name, len(f.Value), f.Value)
	}
	return dst, nil
}

func newEcho() Encoder { return new(echoEncoder) }

// echoWire returns what a fresh echoEncoder writes for sizes and fields.
func echoWire(sizes []uint32, fields ...Field) []byte {
	e := new(echoEncoder)
	for _, n := range sizes {
		e.SetMaxDynamicTableSize(n)
	}
	wire, _ := e.EncodeBlock(nil, fields)
	return wire
}

// echoAnswer returns the answer line of a fresh echoEncoder.
func echoAnswer(sizes []uint32, fields ...Field) string {
	return `{"wire":"` + hex.EncodeToString(echoWire(sizes, fields...)) + `"}`
}

// serve runs a Server on the request lines and returns its answer lines.
func serve(t *testing.T, s *Server, requests ...string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := s.Serve(strings.NewReader(strings.Join(requests, "\n")+"\n"), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	answers := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(answers) != len(requests) {
		t.Fatalf("Serve wrote %d answers to %d requests:\n%s", len(answers), len(requests), out.String())
	}
	return answers
}

func TestServe(t *testing.T) {
	tests := []struct {
		name     string
		binary   bool
		complete bool
		request  string
		want     string // the answer, or the start of an error answer
		reason   string
	}{
		{"hello", false, false, `{"op":"hello"}`, `{"name":"echo"}`,
			"a server that does not offer the binary form leaves binary out"},
		{"hello binary", true, false, `{"op":"hello"}`, `{"name":"echo","binary":true}`,
			"the offer of the binary form"},
		{"new", false, false, `{"op":"new"}`, `{}`, "new answers an empty object"},
		{"empty block", false, false, `{"op":"encode","table_sizes":[],"headers":[],"sensitive":[]}`, `{"wire":""}`,
			"an empty block is the empty string"},
		{"utf8 form", false, false, `{"op":"encode","table_sizes":[4096],"headers":[["a","é"],["b",""]],"sensitive":[true,false]}`,
			echoAnswer([]uint32{4096}, Field{Name: "a", Value: "é", Sensitive: true}, Field{Name: "b", Value: "", Sensitive: false}),
			"sizes, names, values and flags reach the encoder"},
		{"binary form", true, false, `{"op":"encode","binary":true,"table_sizes":[],"headers":[["ff00","c0c1"]],"sensitive":[false]}`,
			echoAnswer(nil, Field{Name: "\xff\x00", Value: "\xc0\xc1", Sensitive: false}),
			"hex names and values reach the encoder as octets, those UTF-8 never holds included"},
		{"binary form not offered", false, false, `{"op":"encode","binary":true,"table_sizes":[],"headers":[["61","62"]],"sensitive":[false]}`,
			echoAnswer(nil, Field{Name: "a", Value: "b", Sensitive: false}),
			"without Complete, both forms are accepted whatever hello offered"},
		{"utf8 form after offer", true, false, `{"op":"encode","headers":[["a","b"]]}`,
			echoAnswer(nil, Field{Name: "a", Value: "b", Sensitive: false}),
			"without Complete, the UTF-8 form is accepted from a client that ignored the offer, and absent members are empty"},
		{"encoder error", false, false, `{"op":"encode","table_sizes":[],"headers":[["fail",""]],"sensitive":[false]}`,
			`{"error":"asked to fail"}`, "the encoder's error is the answer"},
		{"size error", false, false, `{"op":"encode","table_sizes":[13],"headers":[],"sensitive":[]}`,
			`{"error":"table size 13: 13 is unlucky"}`, "an error of SetMaxDynamicTableSize names the size"},
		{"bad hex", true, false, `{"op":"encode","binary":true,"table_sizes":[],"headers":[["61","62"],["61","6"]],"sensitive":[false,false]}`,
			`{"error":"headers[1]: the value is not hex`, "a bad hex string is an error answer naming the header index"},
		{"no headers", false, false, `{"op":"encode","table_sizes":[],"sensitive":[]}`,
			`{"error":"the encode request has no \"headers\"`, "headers is always required"},
		{"unknown op", false, false, `{"op":"bye"}`, `{"error":"unknown op \"bye\""}`, "an unknown op is an error answer"},
		{"garbage", false, false, `garbage`, `{"error":"the request is not a JSON object"}`, "every line gets an answer"},
	}
	for _, tt := range tests {
		s := &Server{Name: "echo", NewEncoder: newEcho, Binary: tt.binary, Complete: tt.complete}
		got := serve(t, s, tt.request)[0]
		if !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s: %s answered %s; want %s (%s)", tt.name, tt.request, got, tt.want, tt.reason)
		}
	}
}

// TestServeLacks checks the answer to hello of a Server that declares
// lacks, each on its own and all at once: its members, in the schema,
// and read back by parseAnswer as they were declared.
func TestServeLacks(t *testing.T) {
	sch := schemas(t)
	tests := []struct {
		lacks Lacks
		want  string
	}{
		{Lacks{}, `{"name":"echo"}`},
		{Lacks{Refuses: []OctetRange{{Lo: 0, Hi: 31}}}, `{"name":"echo","refuses":[[0,31]]}`},
		{everyLack, `{"name":"echo","lacks":["never-index","pseudo-first","one-size-update","empty-block","uppercase-names","empty-name","grouped-names","pseudo-order","token-names","request-head"],"refuses":[[0,8],[127,127],[255,255]]}`},
	}
	for _, name := range EncoderLackNames {
		tests = append(tests, struct {
			lacks Lacks
			want  string
		}{Lacks{Names: []string{name}}, `{"name":"echo","lacks":["` + name + `"]}`})
	}
	for _, tt := range tests {
		got := serve(t, &Server{Name: "echo", NewEncoder: newEcho, Lacks: tt.lacks}, `{"op":"hello"}`)[0]
		if got != tt.want {
			t.Errorf("Lacks %+v: hello answered %s; want %s", tt.lacks, got, tt.want)
		}
		if err := sch.Validate("helloAnswer", got); err != nil {
			t.Errorf("Lacks %+v: the answer %s does not match helloAnswer: %v", tt.lacks, got, err)
		}
		a, le := parseAnswer(OpHello, []byte(got), DefaultMaxWire)
		if le != nil || !reflect.DeepEqual(a.lacks, tt.lacks) {
			t.Errorf("Lacks %+v: the answer %s read back as %+v, %v", tt.lacks, got, a.lacks, le)
		}
	}
}

// TestServeComplete checks what Complete adds: the order of hello, new
// and encode, and the form hello negotiated.
func TestServeComplete(t *testing.T) {
	const (
		hello  = `{"op":"hello"}`
		newCtx = `{"op":"new"}`
		utf8   = `{"op":"encode","table_sizes":[],"headers":[["a","b"]],"sensitive":[false]}`
		binary = `{"op":"encode","binary":true,"table_sizes":[],"headers":[["61","62"]],"sensitive":[false]}`
	)
	tests := []struct {
		name     string
		binary   bool
		requests []string
		want     []string // the start of each answer
		reason   string
	}{
		{"utf8 session", false, []string{hello, newCtx, utf8, newCtx, utf8}, []string{`{"name"`, `{}`, `{"wire"`, `{}`, `{"wire"`},
			"the certifier's sequence, in the form hello negotiated"},
		{"binary session", true, []string{hello, newCtx, binary}, []string{`{"name"`, `{}`, `{"wire"`},
			"the certifier's sequence in the binary form"},
		{"before hello", false, []string{newCtx, hello}, []string{`{"error":"a new request before hello"`, `{"name"`},
			"every process hears hello first"},
		{"encode before new", false, []string{hello, utf8}, []string{`{"name"`, `{"error":"an encode request before new"`},
			"a context is opened before its first block"},
		{"binary not offered", false, []string{hello, newCtx, binary}, []string{`{"name"`, `{}`, `{"error":"\"binary\":true, but this encoder did not offer`},
			"the binary form is sent only to an encoder that offered it"},
		{"binary ignored", true, []string{hello, newCtx, utf8}, []string{`{"name"`, `{}`, `{"error":"no \"binary\":true, but this encoder offered`},
			"an encoder that offered the binary form gets every encode in it"},
		{"incomplete", false, []string{hello, newCtx, `{"op":"encode","headers":[]}`}, []string{`{"name"`, `{}`, `{"error":"the encode request has no \"table_sizes\"`},
			"every member the protocol defines is present"},
	}
	for _, tt := range tests {
		s := &Server{Name: "echo", NewEncoder: newEcho, Binary: tt.binary, Complete: true}
		got := serve(t, s, tt.requests...)
		for i, want := range tt.want {
			if !strings.HasPrefix(got[i], want) {
				t.Errorf("%s: answer %d to %s is %s; want %s... (%s)", tt.name, i, tt.requests[i], got[i], want, tt.reason)
			}
		}
	}
}

// TestServeNewContext checks that new gives the encoder a fresh context.
func TestServeNewContext(t *testing.T) {
	contexts := 0
	s := &Server{Name: "counter", NewEncoder: func() Encoder { contexts++; return newEcho() }}
	serve(t, s, `{"op":"encode","headers":[]}`, `{"op":"encode","headers":[]}`, `{"op":"new"}`, `{"op":"new"}`)
	if contexts != 3 {
		t.Errorf("%d contexts opened; want 3: one for encode before any new, one per new", contexts)
	}
}

func TestServeLog(t *testing.T) {
	var log bytes.Buffer
	s := &Server{Name: "echo", NewEncoder: newEcho, Log: &log}
	serve(t, s, `{"op":"hello"}`, `nonsense`)
	want := "> {\"op\":\"hello\"}\n< {\"name\":\"echo\"}\n> nonsense\n< {\"error\":\"the request is not a JSON object\"}\n"
	if log.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
	}
}

func TestServeMisconfigured(t *testing.T) {
	tests := []struct {
		name string
		s    *Server
		want string
	}{
		{"no name", &Server{NewEncoder: newEcho}, "Name is empty"},
		{"no encoder", &Server{Name: "x"}, "exactly one of NewEncoder and NewDecoder"},
		{"encoder and decoder", &Server{Name: "x", NewEncoder: newEcho, NewDecoder: newStrict}, "exactly one of NewEncoder and NewDecoder"},
		{"unknown lack", &Server{Name: "x", NewEncoder: newEcho, Lacks: Lacks{Names: []string{"never-indexed"}}}, `the encoder lacks name "never-indexed", not a lack hpack-stdio/1 defines`},
		{"lack twice", &Server{Name: "x", NewEncoder: newEcho, Lacks: Lacks{Names: []string{"empty-block", "empty-block"}}}, `the encoder lacks name "empty-block" twice`},
		{"no range", &Server{Name: "x", NewEncoder: newEcho, Lacks: Lacks{Refuses: []OctetRange{{Lo: 9, Hi: 8}}}}, "refuses the octets [9, 8], not a range"},
		{"unknown decoder lack", &Server{Name: "x", NewDecoder: newStrict, DecoderLacks: []string{"never-index"}}, `the decoder lacks name "never-index", not a lack hpack-stdio/1 defines`},
		{"encoder lacks of a decoder", &Server{Name: "x", NewDecoder: newStrict, Lacks: everyLack}, "a decoder Server declares encoder lacks"},
		{"decoder lacks of an encoder", &Server{Name: "x", NewEncoder: newEcho, DecoderLacks: DecoderLackNames}, "an encoder Server declares decoder lacks"},
	}
	for _, tt := range tests {
		err := tt.s.Serve(strings.NewReader(""), new(bytes.Buffer))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Serve error %v; want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestServeLongLine checks that a request line over MaxLine ends Serve
// with an error rather than growing its buffer without bound.
func TestServeLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes MaxLine octets; skipped in -short mode")
	}
	line := `{"op":"encode","headers":[["a","` + strings.Repeat("x", MaxLine) + `"]]}`
	s := &Server{Name: "echo", NewEncoder: newEcho}
	err := s.Serve(strings.NewReader(line+"\n"), new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "reading requests") {
		t.Errorf("Serve of a %d-octet line: error %v; want one about reading requests", len(line), err)
	}
}

// TestServeAnswersAreJSON checks that an error answer stays one valid
// JSON line whatever the error text holds.
func TestServeAnswersAreJSON(t *testing.T) {
	s := &Server{Name: "echo", NewEncoder: newEcho}
	got := serve(t, s, "{\"op\":\"bye\\n\\u2028<&>\"}")[0]
	var a struct{ Error string }
	want := fmt.Sprintf("unknown op %q", "bye\n\u2028<&>")
	if err := json.Unmarshal([]byte(got), &a); err != nil || a.Error != want {
		t.Errorf("answer %s: %v, error %q; want one line of valid JSON with the error %q", got, err, a.Error, want)
	}
}
