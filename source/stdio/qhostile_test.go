package stdio_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// runQPACKScript is a QPACK program answering each op as its arguments
// OP=ANSWER say, and the others as a well-behaved program would: ANSWER
// is a line, or "hang" (never answers), "exit" (says so on standard error
// and exits with status 3), "section N" (a section of N zero octets).
func runQPACKScript(args []string) int {
	answers := map[string]string{
		"hello": `{"name":"scripted","qpack":true}`, "new": `{}`, "encode": `{"section":"0000"}`, "decoder_stream": `{}`,
		"encoder_stream": `{}`, "decode": `{"headers":[["a","b"]],"sensitive":[false]}`, "cancel": `{}`,
	}
	for _, arg := range args {
		op, answer, _ := strings.Cut(arg, "=")
		answers[op] = answer
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var req struct{ Op string }
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return exitStatus(err)
		}
		answer := answers[req.Op]
		switch {
		case answer == "hang":
			time.Sleep(time.Hour)
		case answer == "exit":
			fmt.Fprintln(os.Stderr, "qpack helper: exiting on", req.Op)
			return 3
		case strings.HasPrefix(answer, "section "):
			n, err := strconv.Atoi(strings.TrimPrefix(answer, "section "))
			if err != nil {
				return exitStatus(err)
			}
			w := bufio.NewWriter(os.Stdout)
			w.WriteString(`{"section":"` + strings.Repeat("00", n) + "\"}\n")
			w.Flush()
		default:
			fmt.Println(answer)
		}
	}
	return 0
}

// qpackScript returns the command of runQPACKScript answering as answers
// (OP=ANSWER) say.
func qpackScript(answers ...string) string {
	cmd := fmt.Sprintf("'%s' qpack", os.Args[0])
	for _, a := range answers {
		cmd += " '" + a + "'"
	}
	return cmd
}

var testSettings = qpack.Settings{MaxTableCapacity: 4096, BlockedStreams: 100}

// TestExecQPACKHello checks that a program whose hello does not say
// "qpack":true is refused by both QPACK sources, saying it speaks HPACK,
// and that a QPACK program is refused by the HPACK sources.
func TestExecQPACKHello(t *testing.T) {
	const wantQPACK = `the program speaks HPACK, not QPACK (no "qpack":true in its hello answer)`
	dir := stdioBinaries(t)
	opts := stdio.ExecOptions{Timeout: 30 * time.Second}
	for _, cmd := range []string{filepath.Join(dir, "stdioenc"), qpackScript(`hello={"name":"x"}`)} {
		if target, err := stdio.ExecQPACKEncoder(cmd, opts); err == nil || !strings.Contains(err.Error(), wantQPACK) {
			t.Errorf("ExecQPACKEncoder(%s): %v; want %q", cmd, err, wantQPACK)
			closeIf(target)
		}
		if target, err := stdio.ExecQPACKDecoder(cmd, opts); err == nil || !strings.Contains(err.Error(), wantQPACK) {
			t.Errorf("ExecQPACKDecoder(%s): %v; want %q", cmd, err, wantQPACK)
			closeIf(target)
		}
	}
	const wantHPACK = `says "qpack":true: the program speaks QPACK, not HPACK`
	ref := filepath.Join(dir, "hpackcert-stdio-ref") + " -qpack-encoder"
	if target, err := stdio.ExecWith(ref, opts); err == nil || !strings.Contains(err.Error(), wantHPACK) {
		t.Errorf("ExecWith(%s): %v; want %q", ref, err, wantHPACK)
		closeIf(target)
	}
	if target, err := stdio.ExecDecoder(ref, opts); err == nil || !strings.Contains(err.Error(), wantHPACK) {
		t.Errorf("ExecDecoder(%s): %v; want %q", ref, err, wantHPACK)
		closeIf(target)
	}
}

func closeIf(target interface{ Close() error }) {
	if target != nil {
		target.Close()
	}
}

// TestExecQPACKHostile drives hostile QPACK programs through the two
// QPACK sources: each fault is a breakdown, a plain error naming it with
// the tail of the program's standard error, never a panic nor a read
// past the answer's bound; and error answers are connection errors as
// their op and code say.
func TestExecQPACKHostile(t *testing.T) {
	tests := []struct {
		name    string
		decoder bool
		answer  string
		want    string // in the error
		code    string // for a connection error, its code; "-" when it is a breakdown
		timeout time.Duration
	}{
		{"garbage hex", false, `encode={"section":"0g"}`, `encoder broke hpack-stdio at request 3: the answer to encode has a "section" that is not hex (a non-hex digit at offset 1)`, "-", 0},
		{"missing member", false, `encode={"encoder_stream":"00"}`, `has no "section"`, "-", 0},
		{"wrong type", true, `decode={"headers":[["a","b"]],"sensitive":"no"}`, `the "sensitive" of the answer to decode is a string, not an array`, "-", 0},
		{"extra junk", true, `decode={"headers":[],"sensitive":[]}{}`, `the answer to decode is not JSON`, "-", 0},
		{"10 MiB", false, "encode=section " + strconv.Itoa(10<<20), "the block exceeds the per-block limit of 1048576 octets", "-", 0},
		{"exit", false, "encode=exit", "the encoder exited (exit status 3) without answering encode; stderr: qpack helper: exiting on encode", "-", 0},
		{"decoder exit", true, "decode=exit", "the decoder exited (exit status 3) without answering decode; stderr: qpack helper: exiting on decode", "-", 0},
		{"error to encode", false, `encode={"error":"out of memory"}`, "encoder answered request 3 (encode) with an error: out of memory", "-", 0},
		{"coded error to encode", false, `encode={"error":"no","code":"H3_INTERNAL_ERROR"}`, "no", "H3_INTERNAL_ERROR", 0},
		{"refused decode", true, `decode={"error":"bad prefix","code":"QPACK_DECOMPRESSION_FAILED"}`, "connection error QPACK_DECOMPRESSION_FAILED: bad prefix", "QPACK_DECOMPRESSION_FAILED", 0},
		{"refused without code", true, `decode={"error":"no"}`, "connection error: no", "", 0},
		{"hang", false, "encode=hang", "no answer to encode within 2s", "-", 2 * time.Second},
	}
	for _, tt := range tests {
		opts := stdio.ExecOptions{Timeout: 30 * time.Second}
		if tt.timeout > 0 {
			opts.Timeout = tt.timeout
		}
		err := qpackOneOfEach(t, qpackScript(tt.answer), tt.decoder, opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v; want one containing %q", tt.name, err, tt.want)
			continue
		}
		ce := qpack.AsConnectionError(err)
		switch {
		case tt.code == "-" && ce != nil:
			t.Errorf("%s: %v is a connection error; want a breakdown", tt.name, err)
		case tt.code != "-" && (ce == nil || ce.Code != tt.code):
			t.Errorf("%s: %v; want a connection error of code %q", tt.name, err, tt.code)
		}
		if tt.name == "hang" && !errors.Is(err, certify.ErrTimeout) {
			t.Errorf("hang: %v does not match certify.ErrTimeout", err)
		}
	}
}

// qpackOneOfEach starts cmd as a QPACK encoder, or decoder, opens a
// connection and makes one request of each op of the side, until one
// fails; it returns that error.
func qpackOneOfEach(t *testing.T, cmd string, decoder bool, opts stdio.ExecOptions) error {
	t.Helper()
	if decoder {
		target, err := stdio.ExecQPACKDecoder(cmd, opts)
		if err != nil {
			return err
		}
		defer target.Close()
		d, err := target.NewDecoder(testSettings)
		if err != nil {
			return err
		}
		if _, _, err := d.EncoderStream([]byte{0x3f, 0xe1, 0x1f}); err != nil {
			return err
		}
		if _, _, err := d.DecodeSection(0, []byte{0, 0, 0xd1}); err != nil {
			return err
		}
		_, err = d.Cancel(0)
		return err
	}
	target, err := stdio.ExecQPACKEncoder(cmd, opts)
	if err != nil {
		return err
	}
	defer target.Close()
	e, err := target.NewEncoder(testSettings)
	if err != nil {
		return err
	}
	if _, _, err := e.EncodeSection(0, []qpack.Field{{Name: "a", Value: "b"}}); err != nil {
		return err
	}
	_, err = e.DecoderStream([]byte{0x01})
	return err
}

// TestExecQPACKTimeoutEndsTarget checks that after a request not
// answered in time no program is started again: the next connection
// fails at once, naming the timeout, which Breakdown returns.
func TestExecQPACKTimeoutEndsTarget(t *testing.T) {
	target, err := stdio.ExecQPACKEncoder(qpackScript("encode=hang"), stdio.ExecOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	e, err := target.NewEncoder(testSettings)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.EncodeSection(0, nil); !errors.Is(err, certify.ErrTimeout) {
		t.Fatalf("EncodeSection of a hanging program: %v; want a timeout", err)
	}
	target.(certify.Restarter).Restart()
	if _, err := target.NewEncoder(testSettings); err == nil || !strings.Contains(err.Error(), "not started again since it stopped answering") {
		t.Errorf("NewEncoder after the timeout: %v; want a refusal naming it", err)
	}
	b, ok := target.(interface{ Breakdown() error })
	if !ok || b.Breakdown() == nil {
		t.Errorf("the target has no Breakdown after a timeout")
	}
}
