package stdio_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/source/stdio"
)

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
