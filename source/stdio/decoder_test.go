package stdio_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/hpackstdio"
	"github.com/hpackcert/hpackcert/source/inprocess"
	"github.com/hpackcert/hpackcert/source/stdio"
)

// decoderHelperEnv, set to 1, makes the test binary a decoder program:
// the helper its arguments name (runDecoderHelper).
const decoderHelperEnv = "STDIO_TEST_DECODER_HELPER"

// runDecoderHelper is the decoder program args name and returns its exit
// status:
//
//	strict [-lacks] [-no-table] [-log FILE] [-crash-after N]
//	       [-hang-after N] [-bomb-after N]   the strict decoder, served
//	garbage                          a decoder answering decode with no JSON
//	broken BUGS                      the broken decoder with BUGS, served
//	encoder                          the reference encoder, served
//	qpack OP=ANSWER...               a scripted QPACK program (runQPACKScript)
//
// -no-table hides the table; -crash-after N exits with status 3, and
// -hang-after N hangs, after N blocks (ExecDecoder's probe, the empty
// block, is the first); -bomb-after N answers the blocks after N with a field of 32
// MiB, as a decoder that expanded a bomb would.
func runDecoderHelper(args []string) int {
	switch args[0] {
	case "garbage":
		return runGarbageDecoder()
	case "qpack":
		return runQPACKScript(args[1:])
	case "broken":
		return runBrokenDecoder(args[1:])
	case "encoder":
		err := stdio.Serve(os.Stdin, os.Stdout, "reference", func() certify.Encoder { return certify.NewReference(encoder.Config{}) })
		return exitStatus(err)
	case "strict":
	default:
		fmt.Fprintf(os.Stderr, "no decoder helper %q\n", args[0])
		return 2
	}
	var lacks certify.DecoderLacks
	var log string
	var misbehave helperDecoder
	noTable := false
	for i := 1; i < len(args); i++ {
		flag := args[i]
		switch flag {
		case "-lacks":
			lacks = certify.DecoderLacks{NeverIndexed: true, MaxHeaderList: true}
			continue
		case "-no-table":
			noTable = true
			continue
		}
		if i+1 == len(args) {
			fmt.Fprintf(os.Stderr, "decoder helper: %s needs a value\n", flag)
			return 2
		}
		i++
		if flag == "-log" {
			log = args[i]
			continue
		}
		n, err := strconv.Atoi(args[i])
		switch {
		case err != nil:
			fmt.Fprintf(os.Stderr, "decoder helper: %s %s: %v\n", flag, args[i], err)
			return 2
		case flag == "-crash-after":
			misbehave.crashAfter = n
		case flag == "-hang-after":
			misbehave.hangAfter = n
		case flag == "-bomb-after":
			misbehave.bombAfter = n
		default:
			fmt.Fprintf(os.Stderr, "decoder helper: unknown flag %s\n", flag)
			return 2
		}
	}
	var blocks int // across contexts: the program's blocks
	newDecoder := func() certify.Decoder {
		d := misbehave
		d.StrictDecoder, d.blocks = inprocess.NewStrictDecoder(), &blocks
		if noTable {
			// Its methods without DecoderTable.
			return struct{ certify.Decoder }{&d}
		}
		return &d
	}
	opts := []stdio.ServeOption{stdio.DeclareDecoderLacks(lacks), func(s *hpackstdio.Server) { s.Complete = true }}
	if log != "" {
		f, err := os.Create(log)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer f.Close()
		opts = append(opts, func(s *hpackstdio.Server) { s.Log = f })
	}
	return exitStatus(stdio.ServeDecoder(os.Stdin, os.Stdout, "strict-helper", newDecoder, opts...))
}

func exitStatus(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// helperDecoder is the strict decoder, misbehaving after as many blocks
// of the program as its fields say (0: never).
type helperDecoder struct {
	*inprocess.StrictDecoder
	blocks                           *int
	crashAfter, hangAfter, bombAfter int
}

func (h *helperDecoder) DecodeBlock(block []byte) ([]certify.Field, error) {
	*h.blocks++
	after := func(n int) bool { return n > 0 && *h.blocks > n }
	switch {
	case after(h.crashAfter):
		fmt.Fprintln(os.Stderr, "decoder helper: simulated crash")
		os.Exit(3)
	case after(h.hangAfter):
		fmt.Fprintln(os.Stderr, "decoder helper: hanging")
		time.Sleep(time.Hour)
	case after(h.bombAfter):
		return []certify.Field{{Name: "x-bomb", Value: strings.Repeat("b", 32<<20)}}, nil
	}
	return h.StrictDecoder.DecodeBlock(block)
}

// runGarbageDecoder answers hello and new well, and decode with a line
// that is not JSON.
func runGarbageDecoder() int {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		req, err := hpackstdio.ParseRequest(sc.Bytes(), true)
		switch {
		case err != nil:
			return exitStatus(err)
		case req.Op == hpackstdio.OpHello:
			fmt.Println(`{"name":"garbage","decoder":true}`)
		case req.Op == hpackstdio.OpNew:
			fmt.Println(`{}`)
		default:
			fmt.Println(`this is not JSON`)
		}
	}
	return 0
}

// execDecoder starts the decoder helper args, for the test's lifetime.
func execDecoder(t *testing.T, args string, opts stdio.ExecOptions) certify.DecoderTarget {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	target, err := stdio.ExecDecoder(fmt.Sprintf("'%s' %s", os.Args[0], args), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.Close() })
	return target
}

// peakMemory is the optional method of an ExecDecoder context.
type peakMemory interface{ PeakMemory() (int64, bool) }

// TestExecDecoder certifies nothing but drives the strict decoder over
// hpack-stdio/1 as the dec/ cases do: fields with their never-indexed
// marks, the table, both settings reaching the decoder, refusals as
// *certify.Rejection, and the peak memory.
func TestExecDecoder(t *testing.T) {
	target := execDecoder(t, "strict", stdio.ExecOptions{})
	if target.Name() != "strict-helper" {
		t.Errorf("Name() = %q; want the answer to hello", target.Name())
	}
	if l, ok := target.(certify.DecoderLacker); !ok || !reflect.DeepEqual(l.DecoderLacks(), certify.DecoderLacks{}) {
		t.Errorf("the target is a DecoderLacker %t, declaring %+v; want one declaring nothing", ok, l)
	}
	d, err := target.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	ab := certify.Field{Name: "a", Value: "b"}
	steps := []struct {
		tableSize, maxHeaderList uint32
		wire                     []byte
		fields, table            []certify.Field // fields nil: refused
	}{
		{4096, 0, []byte{0x40, 1, 'a', 1, 'b'}, []certify.Field{ab}, []certify.Field{ab}},
		{4096, 0, []byte{0x10, 1, 'c', 1, 0xff}, []certify.Field{{Name: "c", Value: "\xff", Sensitive: true}}, []certify.Field{ab}},
		{4096, 34, []byte{0xbe}, []certify.Field{ab}, []certify.Field{ab}},
		{0, 42, []byte{0x20, 0x82}, []certify.Field{{Name: ":method", Value: "GET"}}, []certify.Field{}},
		{0, 42, []byte{0x40, 1, 'a', 1, 'b', 0x40, 1, 'a', 1, 'b'}, nil, nil},
	}
	for i, s := range steps {
		d.SetMaxDynamicTableSize(s.tableSize)
		d.SetMaxHeaderListSize(s.maxHeaderList)
		got, err := d.DecodeBlock(s.wire)
		if s.fields == nil {
			if !certify.Rejected(err) {
				t.Errorf("block %d: DecodeBlock = %+v, %v; want a *certify.Rejection (a header list over 42 octets)", i, got, err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, s.fields) {
			t.Errorf("block %d: DecodeBlock = %+v, %v; want %+v", i, got, err, s.fields)
		}
		table, err := d.(certify.DecoderTableReader).DecoderTable()
		if err != nil || !reflect.DeepEqual(table, s.table) {
			t.Errorf("block %d: DecoderTable = %+v, %v; want %+v", i, table, err, s.table)
		}
	}
	if _, err := os.Stat("/proc/self/status"); err == nil {
		if peak, ok := d.(peakMemory).PeakMemory(); !ok || peak < 1<<20 {
			t.Errorf("PeakMemory = %d, %t; want the helper's peak, over 1 MiB", peak, ok)
		}
	}
	// A fresh context after the refusal decodes again.
	d, err = target.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := d.DecodeBlock([]byte{0x82}); err != nil || len(got) != 1 {
		t.Errorf("DecodeBlock in a fresh context = %+v, %v", got, err)
	}
}

// TestExecDecoderLacks checks that the lacks a decoder's hello declares
// are the target's, that a context of a decoder that shows its table
// says when an answer had none, and that the contexts of one that does
// not are no table readers.
func TestExecDecoderLacks(t *testing.T) {
	target := execDecoder(t, "strict -lacks", stdio.ExecOptions{})
	want := certify.DecoderLacks{NeverIndexed: true, MaxHeaderList: true}
	if got := target.(certify.DecoderLacker).DecoderLacks(); !reflect.DeepEqual(got, want) {
		t.Errorf("DecoderLacks() = %+v; want %+v", got, want)
	}
	d, err := target.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.(certify.DecoderTableReader).DecoderTable(); !errors.Is(err, stdio.ErrNoTable) {
		t.Errorf("DecoderTable before any block: error %v; want ErrNoTable", err)
	}
	d, err = execDecoder(t, "strict -no-table", stdio.ExecOptions{}).NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.(certify.DecoderTableReader); ok {
		t.Error("a context of a decoder that shows no table is a DecoderTableReader")
	}
	if got, err := d.DecodeBlock([]byte{0x82}); err != nil || len(got) != 1 {
		t.Errorf("DecodeBlock = %+v, %v; want :method GET", got, err)
	}
}

// TestExecDecoderBreakdowns drives decoders that crash, hang, answer
// garbage or expand a bomb: each is a plain error, not a refusal, with
// what the program said on its standard error; the next context runs in
// a fresh program, but for the decoder that hung: a timeout ends the
// target, and its next context fails at once.
func TestExecDecoderBreakdowns(t *testing.T) {
	tests := []struct {
		args    string
		opts    stdio.ExecOptions
		want    string // the whole error
		stderr  string
		timeout bool
		bomb    bool
	}{
		{"strict -crash-after 2", stdio.ExecOptions{}, "decoder broke hpack-stdio at request 6: the decoder exited (exit status 3) without answering decode", "simulated crash", false, false},
		{"strict -hang-after 2", stdio.ExecOptions{Timeout: 2 * time.Second}, "decoder broke hpack-stdio at request 6: no answer to decode within 2s", "hanging", true, false},
		{"garbage", stdio.ExecOptions{}, `decoder broke hpack-stdio at request 3: the answer to decode is not JSON (at octet 2): "this is not JSON"`, "", false, false},
		{"strict -bomb-after 2", stdio.ExecOptions{MaxAnswer: 1 << 20}, "decoder broke hpack-stdio at request 6: an answer to decode of more than 1,048,576 octets, the bound of a decode answer: the decoder expanded the block beyond any header list the certifier accepts", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			target := execDecoder(t, tt.args, tt.opts)
			d, err := target.NewDecoder()
			if err != nil {
				t.Fatal(err)
			}
			var got error
			for range 2 {
				if _, got = d.DecodeBlock([]byte{0x82}); got != nil {
					break
				}
			}
			var be *hpackstdio.BreakdownError
			var oversize *stdio.OversizeAnswerError
			switch {
			case got == nil || got.Error() != tt.want:
				t.Errorf("error %v; want %q", got, tt.want)
			case certify.Rejected(got) || !errors.As(got, &be):
				t.Errorf("error %#v; want a breakdown, not a refusal", got)
			case errors.Is(got, certify.ErrTimeout) != tt.timeout:
				t.Errorf("error %v matches certify.ErrTimeout %t; want %t", got, !tt.timeout, tt.timeout)
			case errors.As(got, &oversize) != tt.bomb || errors.Is(got, certify.ErrAnswerTooLarge) != tt.bomb:
				t.Errorf("error %v: an *OversizeAnswerError, matching certify.ErrAnswerTooLarge, %t; want %t", got, !tt.bomb, tt.bomb)
			}
			if s := target.(certify.StderrTail).StderrTail(); !strings.Contains(s, tt.stderr) {
				t.Errorf("stderr %q; want it to contain %q", s, tt.stderr)
			}
			if _, err := d.DecodeBlock([]byte{0x82}); err == nil {
				t.Error("DecodeBlock after the breakdown: no error")
			}
			// The next story: a fresh program, or none after a timeout.
			d, err = target.NewDecoder()
			if tt.timeout {
				if err == nil || !strings.Contains(err.Error(), "no request sent: the decoder is not started again since it stopped answering") {
					t.Errorf("NewDecoder after a timeout: %v; want an error saying no program is started again", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, err := d.DecodeBlock([]byte{0x82}); tt.args != "garbage" && (err != nil || len(got) != 1) {
				t.Errorf("DecodeBlock of the next story = %+v, %v; want :method GET", got, err)
			}
		})
	}
}

// TestExecDecoderRestart checks that Restart kills the program, that its
// contexts are gone, and that the next one runs in a fresh program.
func TestExecDecoderRestart(t *testing.T) {
	target := execDecoder(t, "strict", stdio.ExecOptions{})
	d, err := target.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	target.(certify.Restarter).Restart()
	if _, err := d.DecodeBlock([]byte{0x82}); err == nil || !strings.Contains(err.Error(), "restarted") {
		t.Errorf("DecodeBlock after Restart: error %v; want one saying the context is gone", err)
	}
	d, err = target.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecodeBlock([]byte{0x82}); err != nil {
		t.Errorf("DecodeBlock after Restart and NewDecoder: %v", err)
	}
}

// TestExecRoles checks that an encoder program started as a decoder, and
// a decoder started as an encoder, are refused at once, saying what the
// program is.
func TestExecRoles(t *testing.T) {
	self := os.Args[0]
	_, err := stdio.ExecDecoder(fmt.Sprintf("'%s' encoder", self), stdio.ExecOptions{Timeout: 30 * time.Second})
	if err == nil || !strings.Contains(err.Error(), `does not say "decoder":true: the program is an encoder, started as a decoder`) {
		t.Errorf("ExecDecoder of an encoder: error %v; want one saying it is an encoder", err)
	}
	_, err = stdio.ExecWith(fmt.Sprintf("'%s' strict", self), stdio.ExecOptions{Timeout: 30 * time.Second})
	if err == nil || !strings.Contains(err.Error(), `says "decoder":true: the program is a decoder, started as an encoder`) {
		t.Errorf("Exec of a decoder: error %v; want one saying it is a decoder", err)
	}
	for _, tt := range []struct{ command, want string }{
		{"", "empty decoder command"},
		{"'unterminated", "unterminated"},
		{"/nonexistent/decoder", "starting /nonexistent/decoder"},
	} {
		if _, err := stdio.ExecDecoder(tt.command, stdio.ExecOptions{}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ExecDecoder(%q) error %v; want one containing %q", tt.command, err, tt.want)
		}
	}
}

// TestExecDecoderRequestsComplete drives the strict decoder, which
// answers with an error any request lacking a member the protocol
// defines, through blocks of every kind, and checks the log of every
// line against the JSON Schema: the requests as requests, the answers as
// answers, and no request refused but the blocks meant to be.
func TestExecDecoderRequestsComplete(t *testing.T) {
	sch := stdioSchemas(t)
	log := filepath.Join(t.TempDir(), "decoder.log")
	target := execDecoder(t, "strict -log '"+log+"'", stdio.ExecOptions{})
	blocks := [][]byte{{0x82}, {0x40, 1, 'a', 1, 'b'}, {0x00, 1, 0xff, 1, 0xc0}, {}, {0x80}}
	for _, sizes := range [][2]uint32{{4096, 0}, {0, 65536}, {4294967295, 4294967295}} {
		d, err := target.NewDecoder()
		if err != nil {
			t.Fatal(err)
		}
		d.SetMaxDynamicTableSize(sizes[0])
		d.SetMaxHeaderListSize(sizes[1])
		for _, b := range blocks {
			if _, err := d.DecodeBlock(b); err != nil && !certify.Rejected(err) {
				t.Fatal(err)
			}
			if sizes[0] == 0 { // the first block must signal the lowered size
				break
			}
		}
	}
	target.Close()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	refused, decodes := 0, 0
	for i := 0; i+1 < len(lines); i += 2 {
		request, answer := strings.TrimPrefix(lines[i], "> "), strings.TrimPrefix(lines[i+1], "< ")
		for _, def := range []string{"request", ""} {
			if err := sch.Validate(def, request); err != nil {
				t.Errorf("log line %d does not match %q: %v\n%s", i+1, def, err, request)
			}
		}
		for _, def := range []string{"answer", ""} {
			if err := sch.Validate(def, answer); err != nil {
				t.Errorf("log line %d does not match %q: %v\n%s", i+2, def, err, answer)
			}
		}
		if strings.Contains(request, `"op":"decode"`) {
			decodes++
		}
		if sch.Validate("errorAnswer", answer) == nil {
			refused++
		}
	}
	// The probe of the table, then the blocks: index 0 is refused twice,
	// the block after a lowered setting without its update once.
	if decodes != 12 || refused != 3 {
		t.Errorf("%d decode requests, %d refused, in the log:\n%s\nwant 12 and 3", decodes, refused, data)
	}
}
