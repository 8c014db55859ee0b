package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// TestDecodersBuiltins runs hpackcert decoders on the built-in decoders
// and checks each grade against what is known of them: the strict and
// the reference decoders pass every case; x/net fails the two rules its
// package documents it departs from (a size update after a field while
// its table is empty; a second size update at the start of a block while
// entries survive the first) and accepts a block without the size update
// a lowered setting needs (non-strict for a library); libnghttp2, when
// built in, passes every case.
func TestDecodersBuiltins(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.json")
	var out, errOut bytes.Buffer
	status := run([]string{"decoders", "--json", path}, &out, &errOut)
	if status != 1 {
		t.Fatalf("exit status %d, want 1 (x/net fails two cases)\n%s%s", status, out.String(), errOut.String())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rep := readReport(t, raw)
	if rep.Subject != "decoders" {
		t.Errorf("subject %q, want decoders", rep.Subject)
	}
	want := map[string]map[string]string{
		"strict": {},
		"ref":    {},
		"x/net":  {"dec/4.2/1": "fail", "dec/4.2/3": "fail", "dec/4.2/2": "non-strict"},
	}
	if slices.Contains(inprocess.BuiltinDecoderNames(), "nghttp2") {
		want["nghttp2"] = map[string]string{}
	}
	if len(rep.Encoders) != len(want) {
		t.Errorf("%d decoders in the report, want %d", len(rep.Encoders), len(want))
	}
	for name, bad := range want {
		checkDecoderGrades(t, rep, name, bad)
	}
}

// TestDecodersRefStrict certifies the reference decoder (package decoder)
// as issue 38 asks, "hpackcert decoders --decoder builtin:ref --strict":
// every dec/ case must pass.
func TestDecodersRefStrict(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ref.json")
	status, out, stderr := runCLI(t, "decoders", "--decoder", "builtin:ref", "--strict", "--json", path)
	if status != 0 {
		t.Errorf("exit status %d, want 0\n%s%s", status, out, stderr)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkDecoderGrades(t, readReport(t, raw), "ref", nil)
}

// checkDecoderGrades checks that the report graded every dec/ case for
// the decoder name, each a pass but those bad names with their grade.
func checkDecoderGrades(t *testing.T, rep *report.JSONReport, name string, bad map[string]string) {
	t.Helper()
	cases := rep.Encoders[name].Cases
	if want := len(certify.DecoderCases()); len(cases) != want {
		t.Errorf("%s: %d cases, want %d", name, len(cases), want)
	}
	for id, res := range cases {
		w := bad[id]
		if w == "" {
			w = "pass"
		}
		if id == "dec/7.3/2" && res.Grade == certify.Info {
			// Measured in CPU time, a linear decoder is never graded
			// quadratic; trials that disagree make it inconclusive
			// (info), which is no failure.
			t.Logf("%s %s: %s (inconclusive)", name, id, res.Detail)
			continue
		}
		if res.Grade.String() != w {
			t.Errorf("%s %s: %s, want %s: %s", name, id, res.Grade, w, res.Detail)
		}
	}
}

// TestDecodersNothingJudged certifies a decoder that lacks what the only
// case selected needs: with the lack declared, the run still judged
// nothing, and fails saying so.
func TestDecodersNothingJudged(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "lacker")
	script := "#!/bin/sh\nwhile read -r line; do echo '{\"name\":\"lacker\",\"decoder\":true,\"lacks\":[\"never-indexed\"]}'; done\n"
	if err := os.WriteFile(prog, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	status, out, stderr := runCLI(t, "decoders", "--exec", prog, "--cases", "dec/7.1.3", "--declare-unsupported", "dec/7.1.3: no never-indexed flag in its output")
	verdict, _, _ := strings.Cut(out, "\n")
	if status != 1 || !strings.HasPrefix(verdict, "verdict: FAIL: nothing judged for lacker (dec/7.1.3/1: ") {
		t.Errorf("decoders with every case declared: exit %d, verdict %q; want 1 and nothing judged\n%s", status, verdict, stderr)
	}
}

// TestDecodersConsequenceDetail: every consequence under x/net's failures
// says what the case found there, never an empty detail.
func TestDecodersConsequenceDetail(t *testing.T) {
	status, out, stderr := runCLI(t, "decoders", "--decoder", "builtin:xnet", "--cases", "dec/3.2,dec/4.2,dec/5.1", "--traffic-stories", "2", "--traffic-blocks", "20")
	if status != 1 || !strings.Contains(out, "also found fault with") {
		t.Fatalf("exit %d; want 1 and consequences of x/net's failures\n%s%s", status, out, stderr)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "also found fault with") && strings.HasSuffix(line, ": )") {
			t.Errorf("a consequence without its detail: %q", line)
		}
	}
}
