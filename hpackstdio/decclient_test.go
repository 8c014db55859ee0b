package hpackstdio

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle/strict"
)

// decoderHelpers are the decoder programs of the tests, by helper mode.
var decoderHelpers = map[string]func() int{
	"dec-strict": func() int { return serveDecoder(&Server{Name: "strict", NewDecoder: newStrict, Complete: true}) },
	"dec-strict-lacks": func() int {
		return serveDecoder(&Server{Name: "strict", NewDecoder: newStrict, Complete: true, DecoderLacks: allDecoderLacks})
	},
	"dec-panic": func() int {
		return serveDecoder(&Server{Name: "panic", NewDecoder: func() Decoder { return panicDecoder{} }})
	},
	"dec-grow": func() int {
		return serveDecoder(&Server{Name: "grow", NewDecoder: func() Decoder { return &growDecoder{} }})
	},
}

// allDecoderLacks declares every decoder lack there is.
var allDecoderLacks = DecoderLackNames

// serveDecoder serves s on the standard input and output and returns
// the exit status: 1 when Serve failed, a decoder's breakdown among
// other things.
func serveDecoder(s *Server) int {
	if err := s.Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// strictDecoder is the strict decoder of package oracle/strict as a
// Server serves it: each of its errors a refusal, its table shown.
type strictDecoder struct{ d *strict.Decoder }

// newStrict returns the strict decoder, with no header-list limit.
func newStrict() Decoder {
	d := strict.New()
	d.SetMaxHeaderListSize(0)
	return strictDecoder{d}
}

func (s strictDecoder) SetMaxDynamicTableSize(n uint32) error {
	s.d.SetMaxDynamicTableSize(n)
	return nil
}

func (s strictDecoder) SetMaxHeaderListSize(n uint32) error {
	s.d.SetMaxHeaderListSize(int(n))
	return nil
}

func (s strictDecoder) DecodeBlock(block []byte) ([]Field, error) {
	fields, err := s.d.DecodeBlock(block)
	if err != nil {
		return nil, &Refusal{Reason: err.Error(), Err: err}
	}
	return fields, nil
}

func (s strictDecoder) DecoderTable() ([]Field, error) { return s.d.Table(), nil }

// panicDecoder panics on every block.
type panicDecoder struct{}

func (panicDecoder) SetMaxDynamicTableSize(uint32) error { return nil }
func (panicDecoder) SetMaxHeaderListSize(uint32) error   { return nil }
func (panicDecoder) DecodeBlock([]byte) ([]Field, error) { panic("planted panic") }

// growDecoder holds 64 MiB more, every octet written, for each block it
// decodes, and decodes every block to no field.
type growDecoder struct{ held [][]byte }

func (*growDecoder) SetMaxDynamicTableSize(uint32) error { return nil }
func (*growDecoder) SetMaxHeaderListSize(uint32) error   { return nil }
func (g *growDecoder) DecodeBlock([]byte) ([]Field, error) {
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = byte(i)
	}
	g.held = append(g.held, b)
	return nil, nil
}

// startDecoder starts the helper mode as a decoder, for the test's
// lifetime, and opens a context.
func startDecoder(t *testing.T, mode string, opts Options) *DecoderClient {
	t.Helper()
	d, err := StartDecoder([]string{os.Args[0], mode}, startOptions(opts))
	if err != nil {
		t.Fatalf("StartDecoder %s: %v", mode, err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.New(); err != nil {
		t.Fatal(err)
	}
	return d
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecoderClientStrict drives the strict decoder served by Server:
// fields, never-indexed flags, the table, octets beyond UTF-8, and the
// two settings of every request reaching the decoder.
func TestDecoderClientStrict(t *testing.T) {
	type block struct {
		wire          string
		tableSize     uint32
		maxHeaderList uint32
		fields        []Field // nil for a refusal
		table         []Field
	}
	ab := Field{Name: "a", Value: "b"}
	tests := []struct {
		name   string
		blocks []block
	}{
		{"indexed and inserted", []block{
			{"8286", 4096, 0, []Field{{Name: ":method", Value: "GET"}, {Name: ":scheme", Value: "http"}}, []Field{}},
			{"4001610162", 4096, 0, []Field{ab}, []Field{ab}},
			{"be", 4096, 0, []Field{ab}, []Field{ab}},
		}},
		{"never indexed", []block{{"1001610162", 4096, 0, []Field{{Name: "a", Value: "b", Sensitive: true}}, []Field{}}}},
		{"octets beyond UTF-8 come back in hex", []block{{"0001ff02c000", 4096, 0, []Field{{Name: "\xff", Value: "\xc0\x00"}}, []Field{}}}},
		{"an empty block", []block{{"", 4096, 0, []Field{}, []Field{}}}},
		{"index 0 refused", []block{{"80", 4096, 0, nil, nil}}},
		{"the header-list limit reaches the decoder", []block{
			{"4001610162", 4096, 34, []Field{ab}, []Field{ab}},
			{"be", 4096, 33, nil, nil},
		}},
		{"the table size reaches the decoder", []block{
			{"4001610162", 4096, 0, []Field{ab}, []Field{ab}},
			{"2082", 0, 0, []Field{{Name: ":method", Value: "GET"}}, []Field{}},
		}},
		{"a lowered table size without its update refused", []block{{"82", 100, 0, nil, nil}}},
	}
	d := startDecoder(t, "dec-strict", Options{})
	if d.Name() != "strict" || len(d.Lacks()) > 0 {
		t.Errorf("Name, Lacks = %q, %+v; want strict and none", d.Name(), d.Lacks())
	}
	for _, tt := range tests {
		if err := d.New(); err != nil {
			t.Fatal(err)
		}
		for i, b := range tt.blocks {
			got, err := d.Decode(unhex(t, b.wire), b.tableSize, b.maxHeaderList)
			var ae *AnswerError
			switch {
			case b.fields == nil && (!errors.As(err, &ae) || ae.Op != OpDecode || !ae.Decoder):
				t.Errorf("%s: block %d: Decode = %+v, %v; want the decoder's refusal, an *AnswerError of decode", tt.name, i, got, err)
			case b.fields == nil:
			case err != nil:
				t.Errorf("%s: block %d: %v", tt.name, i, err)
			case !reflect.DeepEqual(got, Decoded{Fields: b.fields, Table: b.table, HasTable: true}):
				t.Errorf("%s: block %d: Decode = %+v; want fields %+v, table %+v", tt.name, i, got, b.fields, b.table)
			}
		}
	}
	if d.Err() != nil {
		t.Errorf("the program stopped: %v", d.Err())
	}
}

// TestDecoderClientDeadContext checks that after a refusal the client
// sends no decode request until new, and that the program runs on.
func TestDecoderClientDeadContext(t *testing.T) {
	d := startDecoder(t, "dec-strict", Options{})
	_, err := d.Decode([]byte{0x80}, 4096, 0)
	const refusal = "decoder answered request 3 (decode) with an error: the decoder refused the block"
	if err == nil || !strings.HasPrefix(err.Error(), "decoder answered request 3 (decode) with an error: ") {
		t.Fatalf("Decode of index 0: error %v; want %q...", err, refusal)
	}
	_, err = d.Decode([]byte{0x82}, 4096, 0)
	const dead = "no decode request sent: the context is dead since the decoder refused the block of request 3; new opens the next"
	if err == nil || err.Error() != dead {
		t.Errorf("Decode after a refusal: error %v; want %q", err, dead)
	}
	if err := d.New(); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Decode([]byte{0x82}, 4096, 0); err != nil || len(got.Fields) != 1 {
		t.Errorf("Decode after new: %+v, %v; want :method GET", got, err)
	}
	if d.requests != 5 {
		t.Errorf("%d requests sent; want 5: hello, new, decode, new, decode", d.requests)
	}
	fresh, err := StartDecoder([]string{os.Args[0], "dec-strict"}, startOptions(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	if _, err := fresh.Decode([]byte{0x82}, 4096, 0); err == nil || err.Error() != "no decode request sent: no context is open; new opens one" {
		t.Errorf("Decode before new: error %v; want one saying no context is open", err)
	}
}

// TestDecoderClientLacks checks that the lacks a Server declares are the
// ones the client reports, and that a decoder lacking never-indexed may
// leave never_indexed out.
func TestDecoderClientLacks(t *testing.T) {
	d := startDecoder(t, "dec-strict-lacks", Options{})
	if got := d.Lacks(); !reflect.DeepEqual(got, allDecoderLacks) {
		t.Errorf("Lacks() = %+v; want %+v", got, allDecoderLacks)
	}
	c, err := StartDecoder(scriptDecoderArgs(`{"name":"x","decoder":true,"lacks":["never-indexed"]}`, `{}`, `{"headers":[["a","b"]]}`), startOptions(Options{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.New(); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Decode([]byte{0x82}, 4096, 0); err != nil || !reflect.DeepEqual(got.Fields, []Field{{Name: "a", Value: "b"}}) || got.HasTable {
		t.Errorf("Decode = %+v, %v; want a: b, no table", got, err)
	}
}

// TestDecoderBreakdownOfGoDecoder checks that a served Go decoder that
// panics makes its program exit, which is a breakdown, not a refusal.
func TestDecoderBreakdownOfGoDecoder(t *testing.T) {
	d := startDecoder(t, "dec-panic", Options{})
	_, err := d.Decode([]byte{0x82}, 4096, 0)
	var be *BreakdownError
	want := "decoder broke hpack-stdio at request 3: the decoder exited (exit status 1) without answering decode"
	if !errors.As(err, &be) || err.Error() != want {
		t.Errorf("Decode by a panicking decoder: error %v; want %q", err, want)
	}
}

// TestDecoderPeakMemory checks that the peak resident set of the program
// is read after each answer: it grows by at least the 64 MiB the helper
// holds on to for each block.
func TestDecoderPeakMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc/self/status: the peak resident set is unknown here")
	}
	d := startDecoder(t, "dec-grow", Options{})
	if _, ok := d.PeakMemory(); !ok {
		t.Fatal("PeakMemory unknown after hello and new")
	}
	var peaks []int64
	for range 2 {
		if _, err := d.Decode(nil, 4096, 0); err != nil {
			t.Fatal(err)
		}
		peak, ok := d.PeakMemory()
		if !ok {
			t.Fatal("PeakMemory unknown after a decode")
		}
		peaks = append(peaks, peak)
	}
	// At least the 64 MiB held; more under the race detector, whose
	// shadow memory grows with it.
	if grown := peaks[1] - peaks[0]; grown < 60<<20 || peaks[1] < 128<<20 {
		t.Errorf("peaks %v: grown by %d MiB between two blocks; want at least the 64 MiB held, and a peak over the 128 MiB held in all", peaks, grown>>20)
	}
}

func TestParseVmHWM(t *testing.T) {
	tests := []struct {
		status string
		want   int64
		ok     bool
	}{
		{"Name:\tx\nVmPeak:\t 9999 kB\nVmHWM:\t    1234 kB\nVmRSS:\t 1000 kB\n", 1234 << 10, true},
		{"Name:\tx\n", 0, false},
		{"VmHWM:\t1234 MB\n", 0, false},
		{"VmHWM:\t-1 kB\n", 0, false},
		{"VmHWM:\tlots kB\n", 0, false},
	}
	for _, tt := range tests {
		if got, ok := parseVmHWM([]byte(tt.status)); got != tt.want || ok != tt.ok {
			t.Errorf("parseVmHWM(%q) = %d, %t; want %d, %t", tt.status, got, ok, tt.want, tt.ok)
		}
	}
}

// TestEncoderClientRefusesDecoder checks that a decoder program started
// as an encoder, and an encoder started as a decoder, fail at hello,
// saying what the program is.
func TestEncoderClientRefusesDecoder(t *testing.T) {
	_, err := Start([]string{os.Args[0], "dec-strict"}, startOptions(Options{}))
	want := `encoder broke hpack-stdio at request 1: the answer to hello says "decoder":true: the program is a decoder, started as an encoder: "{\"name\":\"strict\",\"decoder\":true}"`
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Start of a decoder: error %v; want %q", err, want)
	}
	_, err = StartDecoder([]string{os.Args[0], "echo"}, startOptions(Options{}))
	want = `decoder broke hpack-stdio at request 1: the answer to hello does not say "decoder":true: the program is an encoder, started as a decoder: "{\"name\":\"echo\"}"`
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("StartDecoder of an encoder: error %v; want %q", err, want)
	}
}
