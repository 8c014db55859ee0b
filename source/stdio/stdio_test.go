package stdio_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/internal/stdioschema"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/stdio"
	"github.com/hpackcert/hpackcert/source/stdio/hpackstdio"
)

// stdioBinaries builds certify/testdata/stdioenc and cmd/hpackcert-stdio-ref once
// per test binary and returns the directory holding them.
func stdioBinaries(t *testing.T) string {
	t.Helper()
	return testenv.BuildCommands(t, "certify/testdata/stdioenc", "cmd/hpackcert-stdio-ref")
}

func TestMain(m *testing.M) {
	if os.Getenv(decoderHelperEnv) == "1" {
		os.Exit(runDecoderHelper(os.Args[1:]))
	}
	// The decoder helpers are this binary, started by the tests with the
	// variable inherited.
	os.Setenv(decoderHelperEnv, "1")
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

func execTarget(t *testing.T, command string, timeout time.Duration) certify.Target {
	t.Helper()
	target, err := stdio.Exec(command, timeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	return target
}

// TestStdioReference certifies the reference encoder over hpack-stdio/1:
// it must pass everything strictly, as it does in process.
func TestStdioReference(t *testing.T) {
	dir := stdioBinaries(t)
	target := execTarget(t, filepath.Join(dir, "hpackcert-stdio-ref"), 10*time.Second)
	opts := certifytest.Quick()
	opts.Strict = true
	rep, err := certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	enc := rep.Encoders[0]
	if !strings.HasPrefix(enc, "hpackcert-stdio-ref") {
		t.Errorf("encoder name %q; want the answer to hello", enc)
	}
	if bad := certifytest.GradesWithout(rep, enc); len(bad) > 0 {
		t.Errorf("stdio reference with Strict:\n%s", strings.Join(bad, "\n"))
	}
	if got := rep.Results[enc]["enc/7.3/2"].Grade; got != certify.Unsupported {
		t.Errorf("enc/7.3/2 over stdio graded %s; want unsupported", got)
	}
}

// TestPlantedBugsStdio runs the table of planted bugs over hpack-stdio:
// stdioenc -bug B, which shows no table, fails exactly the cases the bug
// fails in process (certifytest.PlantedBugs).
func TestPlantedBugsStdio(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	var targets []certify.Target
	for _, p := range certifytest.PlantedBugs {
		targets = append(targets, execTarget(t, enc+" -bug "+p.Bug.String(), 10*time.Second))
	}
	rep, err := certify.Run(targets, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range certifytest.PlantedBugs {
		certifytest.CheckPlanted(t, rep, rep.Encoders[i], p)
		// Allocations are a Go encoder's in this process: not applicable
		// over stdio, shown n/a, not a lack.
		if res := rep.Results[rep.Encoders[i]]["enc/7.3/2"]; res.Grade != certify.Unsupported || !res.NotApplicable {
			t.Errorf("%s: enc/7.3/2 %v, not applicable %v; want unsupported and not applicable", rep.Encoders[i], res.Grade, res.NotApplicable)
		}
	}
}

// TestStdioMisbehaving drives encoders that hang, crash, flood stderr,
// print garbage or lie, and checks that each gets its verdict, a hang
// the timeout's, and that the run goes on: an encoder that breaks the protocol,
// hangs or crashes is one failure, the target's breakdown, with the
// encoder's stderr and a reproduction, and fails no case.
func TestStdioMisbehaving(t *testing.T) {
	dir := stdioBinaries(t)
	enc := filepath.Join(dir, "stdioenc")
	const timeout = time.Second
	tests := []struct {
		name   string
		args   string
		cases  []string
		id     string // "" for a breakdown
		grade  certify.Grade
		detail string // in the detail, or in the breakdown
		stderr string // in the captured stderr, when set
	}{
		{"hang", "-hang-after 3", []string{"enc/4.1/", "enc/5.2/3"}, "", certify.Fail, "within 1s", "stdioenc: hanging"},
		{"crash", "-crash-after 2", []string{"enc/4.4/1"}, "", certify.Fail, "exit status 3", "simulated crash"},
		{"garbage", "-garbage", []string{"enc/4.3/1"}, "", certify.Fail, `encoder broke hpack-stdio at request 3: the answer to encode is not JSON (at octet 2): "this is not JSON"`, ""},
		{"lie", "-lie", []string{"enc/3.2/1"}, "enc/3.2/1", certify.Fail, "decoded other fields", ""},
		{"noisy", "-noisy", []string{"enc/4.1/1"}, "enc/4.1/1", certify.Pass, "", ""},
		{"overhead-31 without a table to read", "-bug overhead-31", []string{"enc/4.1/1"}, "enc/4.1/1", certify.Fail, "oracle strict", ""},
		{"index-not-inserted without a table to read", "-bug index-not-inserted", []string{"enc/3.2/1"}, "enc/3.2/1", certify.Fail, "", ""},
		{"zero padding", "-bug huffman-zero-padding", []string{"enc/5.2/1"}, "enc/5.2/1", certify.Fail, "not a prefix of EOS", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := execTarget(t, enc+" "+tt.args, timeout)
			opts := certifytest.Quick()
			opts.Cases = tt.cases
			rep, err := certify.Run([]certify.Target{target}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.id == "" {
				info := rep.Targets[rep.Encoders[0]]
				if !strings.Contains(info.Breakdown, tt.detail) || strings.Count(info.Breakdown, "encoder broke") > 1 {
					t.Errorf("breakdown %q; want one, containing %q", info.Breakdown, tt.detail)
				}
				if !strings.Contains(info.BreakdownStderr, tt.stderr) {
					t.Errorf("breakdown stderr %q; want it to contain %q", info.BreakdownStderr, tt.stderr)
				}
				if info.BreakdownRepro == "" {
					t.Error("breakdown without a reproduction")
				}
				if !rep.Failed() {
					t.Error("Failed() = false after a breakdown")
				}
				for _, c := range rep.Cases {
					if res := rep.Results[rep.Encoders[0]][c.ID]; res.Grade == certify.Fail {
						t.Errorf("%s: fail %q; want the breakdown to be the one failure", c.ID, res.Detail)
					}
				}
				return
			}
			res := rep.Results[rep.Encoders[0]][tt.id]
			if res.Grade != tt.grade || !strings.Contains(res.Detail, tt.detail) {
				t.Errorf("%s: %s %q; want %s containing %q", tt.id, res.Grade, res.Detail, tt.grade, tt.detail)
			}
			if !strings.Contains(res.Stderr, tt.stderr) {
				t.Errorf("%s stderr %q; want it to contain %q", tt.id, res.Stderr, tt.stderr)
			}
			if tt.grade == certify.Fail && res.Repro == "" {
				t.Errorf("%s: failure without a reproduction", tt.id)
			}
			// Every selected case got a verdict: the first bad answer did
			// not end the run.
			for _, c := range rep.Cases {
				if rep.Results[rep.Encoders[0]][c.ID] == nil {
					t.Errorf("%s: no result", c.ID)
				}
			}
		})
	}
}

// TestStdioNoHello checks that an encoder that never answers hello is a
// harness error, the timeout's: a hang would be go test's -timeout.
func TestStdioNoHello(t *testing.T) {
	dir := stdioBinaries(t)
	target, err := stdio.Exec(filepath.Join(dir, "stdioenc")+" -no-hello", 200*time.Millisecond)
	if err == nil {
		target.Close()
		t.Fatal("Exec of an encoder that never answers: no error")
	}
	if !strings.Contains(err.Error(), "no answer to hello within 200ms") {
		t.Errorf("error %q; want the timeout of hello", err)
	}
}

func TestExecBadCommand(t *testing.T) {
	tests := []struct{ command, want string }{
		{"", "empty encoder command"},
		{"'unterminated", "unterminated"},
		{"/nonexistent/encoder", "starting /nonexistent/encoder"},
	}
	for _, tt := range tests {
		_, err := stdio.Exec(tt.command, time.Second)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Exec(%q) error %v; want one containing %q", tt.command, err, tt.want)
		}
	}
}

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

// TestExecRefusesInvalidUTF8 checks that a field that is not valid UTF-8
// is refused, naming it, rather than sent with its octets replaced, to an
// encoder that did not offer the binary form; and that it reaches an
// encoder that did.
func TestExecRefusesInvalidUTF8(t *testing.T) {
	dir := stdioBinaries(t)
	fields := []certify.Field{{Name: "x-ok", Value: "é"}, {Name: "x-octets", Value: "a\xc0b"}}
	tests := []struct {
		flags  string
		want   string // in the error; "" for none
		reason string
	}{
		{"-utf8-only", `header 1 (name "x-octets"): the value is not valid UTF-8 (octet 0xc0 at offset 1)`, "JSON strings carry only UTF-8"},
		{"", "", "the binary form carries any octet"},
	}
	for _, tt := range tests {
		target := execTarget(t, filepath.Join(dir, "stdioenc")+" "+tt.flags, 10*time.Second)
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		wire, err := enc.EncodeBlock(nil, fields)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%q: EncodeBlock: %v (%s)", tt.flags, err, tt.reason)
		case tt.want == "" && len(wire) == 0:
			t.Errorf("%q: EncodeBlock wrote nothing", tt.flags)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%q: EncodeBlock error %v; want one containing %q (%s)", tt.flags, err, tt.want, tt.reason)
		}
		// The program is still usable: the refusal was the certifier's.
		if _, err := enc.EncodeBlock(nil, fields[:1]); err != nil {
			t.Errorf("%q: EncodeBlock after: %v", tt.flags, err)
		}
	}
}

// TestExecTimeoutIsErrTimeout checks that a request the program does not
// answer in time fails with an error matching ErrTimeout.
func TestExecTimeoutIsErrTimeout(t *testing.T) {
	target := execTarget(t, filepath.Join(stdioBinaries(t), "stdioenc")+" -hang-after 0", 200*time.Millisecond)
	enc, err := target.NewEncoder()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.EncodeBlock(nil, nil); !errors.Is(err, certify.ErrTimeout) || !strings.Contains(err.Error(), "within 200ms") {
		t.Errorf("EncodeBlock of a hanging program: error %v; want ErrTimeout, naming the timeout", err)
	}
}

// TestExecLacks checks that the Target of a program is a certify.Lacker
// returning what its answer to hello declared, and that a program which
// declares the lack of a never-index API encodes a sensitive field
// instead of answering unsupported.
func TestExecLacks(t *testing.T) {
	dir := stdioBinaries(t)
	tests := []struct {
		flags string
		want  certify.Lacks
	}{
		{"", certify.Lacks{}},
		{"-declare-no-never-index", certify.Lacks{NeverIndex: true}},
	}
	for _, tt := range tests {
		target := execTarget(t, filepath.Join(dir, "stdioenc")+" "+tt.flags, 10*time.Second)
		l, ok := target.(certify.Lacker)
		if !ok {
			t.Fatalf("%q: the Target is no certify.Lacker", tt.flags)
		}
		if got := l.Lacks(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: Lacks() = %+v; want %+v", tt.flags, got, tt.want)
		}
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		if wire, err := enc.EncodeBlock(nil, []certify.Field{{Name: "authorization", Value: "x", Sensitive: true}}); err != nil || len(wire) == 0 {
			t.Errorf("%q: a sensitive field: %x, %v; want a block", tt.flags, wire, err)
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
		{"lacks", []stdio.ServeOption{func(s *hpackstdio.Server) {
			s.Binary = true
			s.Lacks = certify.Lacks{NeverIndex: true, Refuses: []certify.OctetRange{{Lo: 0, Hi: 31}}}
		}}, `{"name":"ref","binary":true,"lacks":["never-index"],"refuses":[[0,31]]}`},
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

// needProc skips a test that watches processes through /proc where there
// is none.
func needProc(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skipf("no /proc on %s to watch processes in", runtime.GOOS)
	}
}

// sleeperAlive reports whether pid is a stdioenc sleeper still running:
// not a zombie, and with -sleeper on its command line, so that a reused
// pid is not taken for it.
func sleeperAlive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	if i := bytes.LastIndexByte(stat, ')'); i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return err == nil && bytes.Contains(cmdline, []byte("-sleeper"))
}

// sleepers returns the pids stdioenc -pids wrote to path.
func sleepers(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		pids = append(pids, pid)
	}
	return pids
}

// aliveSleepers returns those of pids still running.
func aliveSleepers(pids []int) []int {
	var alive []int
	for _, pid := range pids {
		if sleeperAlive(pid) {
			alive = append(alive, pid)
		}
	}
	return alive
}

// sleepersGone waits for every sleeper of pids to be gone, killed with
// the encoder's process group. The kill is sent before the call and takes
// no time the test could bound on a loaded machine: a sleeper that
// survives it is a hang, for go test's -timeout to catch and name.
func sleepersGone(pids []int) {
	for len(aliveSleepers(pids)) > 0 {
		time.Sleep(10 * time.Millisecond)
	}
}

// TestExecKillsProcessGroup runs encoders that leave two sleepers each
// holding their standard input, output and error, and checks that no
// sleeper survives a restart, Close, a timeout or a crash, that none of
// them keeps Close or a request from returning, and that errors say what
// happened: a timeout its own, a crash the exit status, not the end of
// the pipes the sleepers held.
func TestExecKillsProcessGroup(t *testing.T) {
	needProc(t)
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	start := func(t *testing.T, flags string, timeout time.Duration) (certify.Target, string) {
		t.Helper()
		pids := filepath.Join(t.TempDir(), "pids")
		target, err := stdio.ExecWith(fmt.Sprintf("'%s' -fork 2 -pids '%s' %s", enc, pids, flags), stdio.ExecOptions{Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			target.Close()
			sleepersGone(sleepers(t, pids))
		})
		return target, pids
	}
	t.Run("certification", func(t *testing.T) {
		target, pids := start(t, "", 10*time.Second)
		opts := certifytest.Quick()
		opts.Cases = []string{"enc/4.1/", "enc/4.4/", "enc/7.1.3/"}
		rep, err := certify.Run([]certify.Target{target}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if bad := certifytest.GradesWithout(rep, rep.Encoders[0]); len(bad) > 0 {
			t.Errorf("stdioenc with sleepers:\n%s", strings.Join(bad, "\n"))
		}
		all := sleepers(t, pids)
		if len(all) < 4 {
			t.Fatalf("%d sleepers started; want two for each of several programs", len(all))
		}
		// Only the program of the last scenario may still run, with its two.
		if alive := aliveSleepers(all); len(alive) > 2 {
			t.Errorf("%d sleepers alive after the run: %v; want the restarts to have killed all but the last program's", len(alive), alive)
		}
		target.Close()
		sleepersGone(all)
	})
	t.Run("close", func(t *testing.T) {
		target, pids := start(t, "", 10*time.Second)
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := enc.EncodeBlock(nil, []certify.Field{{Name: "a", Value: "b"}}); err != nil {
			t.Fatal(err)
		}
		if alive := aliveSleepers(sleepers(t, pids)); len(alive) != 2 {
			t.Fatalf("sleepers alive before Close: %v; want two", alive)
		}
		target.Close()
		sleepersGone(sleepers(t, pids))
	})
	t.Run("timeout", func(t *testing.T) {
		// The timeout covers hello too: 2s leaves a loaded machine the
		// time to start the program.
		target, pids := start(t, "-hang-after 0", 2*time.Second)
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := enc.EncodeBlock(nil, nil); !errors.Is(err, certify.ErrTimeout) || !strings.Contains(err.Error(), "no answer to encode within 2s") {
			t.Errorf("EncodeBlock of a hanging encoder: error %v; want a timeout naming it", err)
		}
		sleepersGone(sleepers(t, pids)) // before Close
	})
	t.Run("crash", func(t *testing.T) {
		target, pids := start(t, "-crash-after 0", 10*time.Second)
		enc, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		wire, err := enc.EncodeBlock(nil, nil)
		const want = "encoder broke hpack-stdio at request 3: the encoder exited (exit status 3) without answering encode"
		if err == nil || err.Error() != want {
			t.Errorf("EncodeBlock of an encoder that exits = %x, %v; want the error %q", wire, err, want)
		}
		sleepersGone(sleepers(t, pids)) // before Close
	})
}

// TestExecWithMaxWire checks the per-block limit of ExecWith at its edge,
// for a line refused unread, and in a run, where a block over it fails
// the case naming the limit.
func TestExecWithMaxWire(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	const limit = 1024
	tests := []struct {
		wire int
		want string // in the error; "" for none
	}{
		{limit, ""},
		{limit + 1, "an answer with a block of 1025 octets: the block exceeds the per-block limit of 1024 octets"},
		{1 << 20, fmt.Sprintf("an answer of more than %d octets: the block exceeds the per-block limit of 1024 octets", 2*limit+64<<10)},
	}
	for _, tt := range tests {
		target, err := stdio.ExecWith(fmt.Sprintf("'%s' -big-wire %d", enc, tt.wire), stdio.ExecOptions{MaxWire: limit})
		if err != nil {
			t.Fatal(err)
		}
		e, err := target.NewEncoder()
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.EncodeBlock(nil, nil)
		var wle *hpackstdio.WireLimitError
		switch {
		case tt.want == "" && (err != nil || len(got) != tt.wire):
			t.Errorf("block of %d: EncodeBlock = %d octets, %v; want the block", tt.wire, len(got), err)
		case tt.want != "" && (!errors.As(err, &wle) || !strings.HasPrefix(err.Error(), "encoder broke hpack-stdio at request 3: "+tt.want)):
			t.Errorf("block of %d: EncodeBlock error %v; want a *hpackstdio.WireLimitError %q", tt.wire, err, tt.want)
		}
		target.Close()
	}
	target, err := stdio.ExecWith(fmt.Sprintf("'%s' -big-wire %d", enc, limit+1), stdio.ExecOptions{MaxWire: limit})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/4.1/1"}
	rep, err := certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.Targets[rep.Encoders[0]].Breakdown; !strings.Contains(b, "per-block limit of 1024 octets") {
		t.Errorf("breakdown with blocks over the limit: %q; want one naming the limit", b)
	}
}

// TestExecStderrFlood checks that an encoder writing 64 MiB to its
// standard error on a request costs the certifier a bounded amount of
// memory, and that the report keeps the end of it, saying how much was
// dropped.
func TestExecStderrFlood(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	target := execTarget(t, enc+" -stderr-mib 64 -crash-after 0", 10*time.Second)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/4.1/1"}
	rep, err := certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 32<<20 {
		t.Errorf("the run allocated %d MiB while the encoder wrote 64 MiB to stderr; want the stderr tail bounded", grown>>20)
	}
	info := rep.Targets[rep.Encoders[0]]
	if info.Breakdown == "" || !strings.Contains(info.BreakdownStderr, "earlier octets dropped]") || !strings.HasSuffix(info.BreakdownStderr, "stdioenc: simulated crash\n") {
		t.Errorf("breakdown %q, stderr %.100q...; want the crash, with the end of the flood, saying what was dropped", info.Breakdown, info.BreakdownStderr)
	}
	if len(info.BreakdownStderr) > 17<<10 {
		t.Errorf("stderr in the report: %d octets; want the last 16 KiB", len(info.BreakdownStderr))
	}
}
