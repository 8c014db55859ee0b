package stdio_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/internal/stdioschema"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// stdioSchemas loads the schema's definitions or stops the test.
func stdioSchemas(t *testing.T) stdioschema.Defs {
	t.Helper()
	defs, err := stdioschema.Load()
	if err != nil {
		t.Fatal(err)
	}
	return defs
}

// TestStdioRequestsComplete runs every case against stdioenc, which
// answers with an error any request lacking a member the protocol
// defines or in the form hello did not negotiate, and logs every line.
// In both forms, no request may be refused, and every request and answer
// must match the JSON Schema; the binary form must carry the octets that
// UTF-8 cannot, and the UTF-8 form must never say binary.
func TestStdioRequestsComplete(t *testing.T) {
	dir := stdioBinaries(t)
	sch := stdioSchemas(t)
	for _, form := range []struct {
		name, flags string
		binary      bool
	}{
		{"binary", "", true},
		{"utf8", "-utf8-only", false},
	} {
		t.Run(form.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "stdio.log")
			target := execTarget(t, fmt.Sprintf("'%s' -validate -log '%s' %s", filepath.Join(dir, "stdioenc"), log, form.flags), 10*time.Second)
			rep, err := certify.Run([]certify.Target{target}, certifytest.Quick())
			if err != nil {
				t.Fatal(err)
			}
			enc := rep.Encoders[0]
			for _, c := range rep.Cases {
				if res := rep.Results[enc][c.ID]; strings.Contains(res.Detail, "encoder error") {
					t.Errorf("%s: %s %s: the encoder refused a request", c.ID, res.Grade, res.Detail)
				}
			}
			target.Close()
			data, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			checkStdioLog(t, sch, string(data), form.binary)
		})
	}
}

// checkStdioLog checks a log of requests ("> ") each followed by its
// answer ("< "), from a whole run in the given form.
func checkStdioLog(t *testing.T, sch stdioschema.Defs, log string, binary bool) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(log, "\n"), "\n")
	if len(lines)%2 != 0 {
		t.Fatalf("%d log lines; want a request and an answer each", len(lines))
	}
	count := map[string]int{}
	beyondUTF8 := 0 // fields whose octets are not valid UTF-8
	reported := 0
	for i := 0; i < len(lines); i += 2 {
		request, ok1 := strings.CutPrefix(lines[i], "> ")
		answer, ok2 := strings.CutPrefix(lines[i+1], "< ")
		if !ok1 || !ok2 {
			t.Fatalf("log lines %d and %d are not a request and its answer:\n%s\n%s", i+1, i+2, lines[i], lines[i+1])
		}
		req, err := hpackstdio.ParseRequest([]byte(request), true)
		if err != nil {
			t.Fatalf("log line %d: %v: %s", i+1, err, request)
		}
		count[req.Op]++
		def := "request"
		if req.Op == hpackstdio.OpEncode {
			def = "encodeRequest"
			if binary {
				def = "encodeBinaryRequest"
			}
			if req.Binary != binary {
				t.Errorf("log line %d: binary %t in a run where hello offered %t: %s", i+1, req.Binary, binary, request)
			}
			for _, f := range req.Fields {
				if !utf8.ValidString(f.Name) || !utf8.ValidString(f.Value) {
					beyondUTF8++
				}
			}
		}
		for _, d := range []string{def, "request", ""} {
			if err := sch.Validate(d, request); err != nil && reported < 10 {
				reported++
				t.Errorf("log line %d does not match %q: %v\n%s", i+1, d, err, request)
			}
		}
		for _, d := range []string{stdioschema.AnswerDef(req.Op), ""} {
			if err := sch.Validate(d, answer); err != nil && reported < 10 {
				reported++
				t.Errorf("log line %d does not match %q: %v\n%s", i+2, d, err, answer)
			}
		}
		if sch.Validate("errorAnswer", answer) == nil && reported < 10 {
			reported++
			t.Errorf("log line %d: the encoder refused the request %s: %s", i+2, request, answer)
		}
	}
	t.Logf("%d hello, %d new, %d encode requests; %d fields beyond UTF-8", count["hello"], count["new"], count["encode"], beyondUTF8)
	if count["hello"] < 2 || count["new"] < 10 || count["encode"] < 100 {
		t.Errorf("the log holds %d hello, %d new and %d encode requests; want a whole run, with a hello for every process", count["hello"], count["new"], count["encode"])
	}
	if binary && beyondUTF8 == 0 {
		t.Error("the binary form carried no octet that UTF-8 cannot: it was not used for what it is for")
	}
	if !binary && beyondUTF8 > 0 {
		t.Errorf("%d fields beyond UTF-8 in the UTF-8 form", beyondUTF8)
	}
}

// TestStdioRefAnswers sends hpackcert-stdio-ref, in both forms, requests
// good and bad, and checks every answer against the JSON Schema, and that
// the bad requests, and only those, got error answers.
func TestStdioRefAnswers(t *testing.T) {
	ref := filepath.Join(stdioBinaries(t), "hpackcert-stdio-ref")
	sch := stdioSchemas(t)
	script := []struct {
		request string
		fails   bool
	}{
		{`{"op":"hello"}`, false},
		{`{"op":"new"}`, false},
		{`{"op":"encode","table_sizes":[],"headers":[],"sensitive":[]}`, false},
		{`{"op":"encode","table_sizes":[0,4096],"headers":[[":method","GET"],["authorization","é"]],"sensitive":[false,true]}`, false},
		{`{"op":"encode","binary":true,"table_sizes":[],"headers":[["782d6f6374657473","c0c1f5ff00"]],"sensitive":[false]}`, false},
		{`{"op":"encode","binary":true,"table_sizes":[],"headers":[["78","ff"],["78","fg"]],"sensitive":[false,false]}`, true},
		{`{"op":"encode","table_sizes":[],"sensitive":[]}`, true},
		{`{"op":"encode","table_sizes":[],"headers":[["a","b"]],"sensitive":[]}`, true},
		{`{"op":"encode","table_sizes":["4096"],"headers":[],"sensitive":[]}`, true},
		{`{"op":"encode","table_sizes":[],"headers":{"a":"b"},"sensitive":[]}`, true},
		{`{"op":"goodbye"}`, true},
		{`[]`, true},
		{`{"op":"new"}`, false},
	}
	for _, form := range []struct {
		flags  []string
		binary bool
	}{{nil, true}, {[]string{"-utf8-only"}, false}} {
		var in strings.Builder
		for _, s := range script {
			in.WriteString(s.request + "\n")
		}
		cmd := exec.Command(ref, form.flags...)
		cmd.Stdin = strings.NewReader(in.String())
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hpackcert-stdio-ref %q: %v", form.flags, err)
		}
		answers := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(answers) != len(script) {
			t.Fatalf("hpackcert-stdio-ref %q: %d answers to %d requests:\n%s", form.flags, len(answers), len(script), out)
		}
		for i, s := range script {
			op := ""
			if req, err := hpackstdio.ParseRequest([]byte(s.request), false); err == nil {
				op = req.Op
			}
			for _, d := range []string{stdioschema.AnswerDef(op), ""} {
				if err := sch.Validate(d, answers[i]); err != nil {
					t.Errorf("%q: the answer %s to %s does not match %q: %v", form.flags, answers[i], s.request, d, err)
				}
			}
			if isError := sch.Validate("errorAnswer", answers[i]) == nil; isError != s.fails {
				t.Errorf("%q: the answer %s to %s: error answer %t; want %t", form.flags, answers[i], s.request, isError, s.fails)
			}
		}
		if got := strings.Contains(answers[0], `"binary":true`); got != form.binary {
			t.Errorf("%q: hello answered %s; want the binary form offered: %t", form.flags, answers[0], form.binary)
		}
	}
}

// TestServeOffersBinary checks Serve's answer to hello with and without
// the option that offers the binary form, and that it decodes hex.
func TestServeOffersBinary(t *testing.T) {
	in := `{"op":"hello"}` + "\n" + `{"op":"encode","binary":true,"table_sizes":[],"headers":[["78","ff"]],"sensitive":[false]}` + "\n"
	newRef := func() certify.Encoder { return certify.NewReference(encoder.Config{}) }
	tests := []struct {
		name  string
		opts  []stdio.ServeOption
		hello string
	}{
		{"default", nil, `{"name":"ref"}`},
		{"binary", []stdio.ServeOption{func(s *hpackstdio.Server) { s.Binary = true }}, `{"name":"ref","binary":true}`},
		{"lacks", []stdio.ServeOption{func(s *hpackstdio.Server) { s.Binary = true },
			stdio.DeclareLacks(certify.Lacks{NeverIndex: true, Refuses: []certify.OctetRange{{Lo: 0, Hi: 31}}})},
			`{"name":"ref","binary":true,"lacks":["never-index"],"refuses":[[0,31]]}`},
	}
	for _, tt := range tests {
		var out strings.Builder
		if err := stdio.Serve(strings.NewReader(in), &out, "ref", newRef, tt.opts...); err != nil {
			t.Fatal(err)
		}
		answers := strings.Split(out.String(), "\n")
		// 0x78 'x' and 0xff as a literal without indexing, new name, raw.
		if answers[0] != tt.hello || answers[1] != `{"wire":"40017801ff"}` {
			t.Errorf("%s: answers %q; want %s and the block of x: \\xff", tt.name, answers, tt.hello)
		}
	}
}
