package hpack

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	xhpack "golang.org/x/net/http2/hpack"
)

// A step is one call of a usage pattern: a field written, a size or limit
// set, or the end of a header block (the point where a program hands the
// bytes written so far to a HEADERS frame).
type step struct {
	field    *HeaderField
	size     *uint32 // SetMaxDynamicTableSize
	limit    *uint32 // SetMaxDynamicTableSizeLimit
	endBlock bool
}

func field(name, value string) step { return step{field: &HeaderField{Name: name, Value: value}} }
func secret(name, value string) step {
	return step{field: &HeaderField{Name: name, Value: value, Sensitive: true}}
}
func size(v uint32) step  { return step{size: &v} }
func limit(v uint32) step { return step{limit: &v} }

var endBlock = step{endBlock: true}

// patterns are the ways x/net's own tests and HTTP/2 code drive its
// Encoder: requests repeated on one connection, sizes set twice before a
// field, a size above the limit, a limit below the size, the table turned
// off and on, giant and sensitive fields, and blocks whose fields evict
// each other.
func patterns() map[string][]step {
	get := []step{field(":method", "GET"), field(":scheme", "http"), field(":path", "/"), field(":authority", "www.example.com")}
	long := strings.Repeat("v", 5000)
	p := map[string][]step{
		"requests": append(append(append(append([]step{}, get...), endBlock),
			append(get, field("cache-control", "no-cache"), endBlock)...),
			field(":method", "GET"), field(":scheme", "https"), field(":path", "/index.html"),
			field(":authority", "www.example.com"), field("custom-key", "custom-value"), endBlock),
		"two sizes, smaller first": {size(2048), size(4096), field(":method", "GET"), endBlock},
		"two sizes, larger first":  {size(16384), size(2048), field(":method", "GET"), endBlock},
		"size above the limit":     {size(2048), size(16384), field("custom-key", "custom-value"), endBlock, field("custom-key", "custom-value"), endBlock},
		"limit below the size": {limit(4095), field("a", "b"), endBlock, size(16384), field("a", "b"), endBlock,
			limit(8192), field("a", "b"), endBlock},
		"limit raised": {limit(65536), size(65536), field("custom-key", strings.Repeat("x", 6000)), endBlock,
			field("custom-key", strings.Repeat("x", 6000)), endBlock, size(1024), field("custom-key", "small"), endBlock},
		"table off and on": {field("x-a", "1"), endBlock, size(0), field("x-a", "1"), field("x-b", "2"), endBlock,
			size(4096), field("x-a", "1"), field("x-a", "1"), endBlock},
		"same size again":  {size(4096), field("x-a", "1"), endBlock, size(4096), size(4096), field("x-a", "1"), endBlock},
		"giant field":      {field("x-big", long), field("x-a", "1"), endBlock, field("x-big", long), field("x-a", "1"), endBlock},
		"sensitive fields": {secret("authorization", "Bearer abc"), secret(":method", "GET"), secret("x-token", "t"), endBlock, secret("x-token", "t"), field("x-token", "t"), endBlock},
		"empty values":     {field("accept", ""), field("x-empty", ""), field("", ""), endBlock, field("x-empty", ""), endBlock},
	}
	// Evictions: fields of about 1 KiB whose entries push each other out.
	var evict []step
	for i := range 40 {
		evict = append(evict, field(fmt.Sprintf("x-f%d", i%7), strings.Repeat(string(rune('a'+i%26)), 900+i)))
		if i%5 == 4 {
			evict = append(evict, endBlock)
		}
	}
	p["evictions"] = append(evict, endBlock)
	p["random"] = randomSteps(rand.New(rand.NewPCG(26, 1)), 2000)
	return p
}

// randomSteps returns n steps drawn from a small pool of fields, with
// repeats, sensitive fields and, now and then between blocks (where HTTP/2
// applies a SETTINGS frame), a size or limit change.
func randomSteps(rng *rand.Rand, n int) []step {
	names := []string{":method", ":path", ":authority", "cookie", "authorization", "user-agent", "x-request-id", "content-length", "x-custom"}
	steps := []step{endBlock}
	for range n {
		betweenBlocks := steps[len(steps)-1].field == nil
		switch r := rng.IntN(100); {
		case r < 6 && betweenBlocks:
			steps = append(steps, size(uint32(rng.IntN(3))*2048))
		case r < 9 && betweenBlocks:
			steps = append(steps, limit(uint32(1+rng.IntN(3))*2048))
		case r < 15:
			steps = append(steps, endBlock)
		default:
			name := names[rng.IntN(len(names))]
			value := strings.Repeat(fmt.Sprint(rng.IntN(6)), 1+rng.IntN(40))
			f := HeaderField{Name: name, Value: value, Sensitive: rng.IntN(10) == 0}
			steps = append(steps, step{field: &f})
		}
	}
	return append(steps, endBlock)
}

// fieldWriter is the method set the patterns use, which both encoders
// have.
type fieldWriter interface {
	SetMaxDynamicTableSize(v uint32)
	SetMaxDynamicTableSizeLimit(v uint32)
	MaxDynamicTableSize() uint32
}

// side is one encoder under a pattern, with the decoder of its output.
type side struct {
	name  string
	enc   fieldWriter
	write func(f HeaderField) error
	buf   *bytes.Buffer
	dec   *xhpack.Decoder
}

func newSides(p encoder.Policy) []*side {
	var ours, xnet bytes.Buffer
	o := NewEncoderPolicy(&ours, p)
	x := xhpack.NewEncoder(&xnet)
	return []*side{
		{name: "ours", enc: o, write: o.WriteField, buf: &ours, dec: xhpack.NewDecoder(4096, nil)},
		{name: "x/net", enc: x, write: func(f HeaderField) error { return x.WriteField(xhpack.HeaderField(f)) }, buf: &xnet, dec: xhpack.NewDecoder(4096, nil)},
	}
}

// TestPatternsDecodeAlike runs every pattern through this package's
// Encoder and x/net's, decodes each output with an x/net Decoder of its
// own (allowed the table size the limit allows, as an HTTP/2 peer
// advertising that limit would be) and checks that both decode to the
// fields written, block by block, and that MaxDynamicTableSize agrees
// after every step. With IndexAllPolicy even the Sensitive bits agree;
// with DefaultPolicy ours also marks the fields its name rules never index.
func TestPatternsDecodeAlike(t *testing.T) {
	for _, policy := range []struct {
		name   string
		policy encoder.Policy
		exact  bool
	}{{"default", encoder.DefaultPolicy, false}, {"index-all", encoder.IndexAllPolicy(), true}} {
		for name, steps := range patterns() {
			t.Run(policy.name+"/"+name, func(t *testing.T) {
				sides := newSides(policy.policy)
				lim := uint32(4096)
				var want []HeaderField
				for i, s := range steps {
					for _, sd := range sides {
						switch {
						case s.field != nil:
							if err := sd.write(*s.field); err != nil {
								t.Fatalf("step %d: %s: WriteField: %v", i, sd.name, err)
							}
						case s.size != nil:
							sd.enc.SetMaxDynamicTableSize(*s.size)
						case s.limit != nil:
							sd.enc.SetMaxDynamicTableSizeLimit(*s.limit)
						}
					}
					switch {
					case s.field != nil:
						want = append(want, *s.field)
					case s.limit != nil:
						lim = *s.limit
					case s.endBlock:
						checkBlock(t, i, sides, lim, want, policy.exact)
						want = want[:0]
					}
					if o, x := sides[0].enc.MaxDynamicTableSize(), sides[1].enc.MaxDynamicTableSize(); o != x {
						t.Fatalf("step %d: MaxDynamicTableSize = %d; x/net's = %d", i, o, x)
					}
				}
			})
		}
	}
}

// checkBlock decodes the block each side wrote since the last one and
// compares the fields with want.
func checkBlock(t *testing.T, step int, sides []*side, lim uint32, want []HeaderField, exact bool) {
	t.Helper()
	for _, sd := range sides {
		sd.dec.SetAllowedMaxDynamicTableSize(lim)
		got, err := sd.dec.DecodeFull(sd.buf.Bytes())
		sd.buf.Reset()
		if err != nil {
			t.Fatalf("step %d: decoding %s's block: %v", step, sd.name, err)
		}
		if len(got) != len(want) {
			t.Fatalf("step %d: %s's block decodes to %d fields; want %d", step, sd.name, len(got), len(want))
		}
		for k, g := range got {
			w := want[k]
			if g.Name != w.Name || g.Value != w.Value || (w.Sensitive && !g.Sensitive) ||
				(exact || sd.name == "x/net") && g.Sensitive != w.Sensitive {
				t.Fatalf("step %d: %s's field %d decodes to %v; want %v", step, sd.name, k, HeaderField(g), w)
			}
		}
	}
}

// TestTableSizeUpdates checks the size updates of this package's Encoder
// byte for byte where they match x/net's: two sizes set before a field,
// the smaller first, signal both; the larger first (16384, capped to 4096
// by the limit) signal the smaller only, which is also the final size.
func TestTableSizeUpdates(t *testing.T) {
	for _, tt := range []struct {
		name         string
		size1, size2 uint32
		want         []byte
	}{
		{"smaller then larger", 2048, 4096, []byte{0x3f, 0xe1, 0x0f, 0x3f, 0xe1, 0x1f, 0x82}},
		{"larger then smaller", 16384, 2048, []byte{0x3f, 0xe1, 0x0f, 0x82}},
	} {
		var buf bytes.Buffer
		e := NewEncoder(&buf)
		e.SetMaxDynamicTableSize(tt.size1)
		e.SetMaxDynamicTableSize(tt.size2)
		if err := e.WriteField(HeaderField{Name: ":method", Value: "GET"}); err != nil {
			t.Fatal(err)
		}
		if got := buf.Bytes(); !bytes.Equal(got, tt.want) {
			t.Errorf("%s: sizes %d, %d, then :method GET = %x; want %x", tt.name, tt.size1, tt.size2, got, tt.want)
		}
	}
}

// TestLimit checks SetMaxDynamicTableSizeLimit's effect on the size, as
// x/net documents it.
func TestLimit(t *testing.T) {
	e := NewEncoder(io.Discard)
	e.SetMaxDynamicTableSizeLimit(4095)
	if got := e.MaxDynamicTableSize(); got != 4095 {
		t.Errorf("after a limit of 4095, MaxDynamicTableSize() = %d; want 4095", got)
	}
	e.SetMaxDynamicTableSize(16384)
	if got := e.MaxDynamicTableSize(); got != 4095 {
		t.Errorf("after a size of 16384 over a limit of 4095, MaxDynamicTableSize() = %d; want 4095", got)
	}
	e.SetMaxDynamicTableSizeLimit(8192)
	if got := e.MaxDynamicTableSize(); got != 4095 {
		t.Errorf("after raising the limit to 8192, MaxDynamicTableSize() = %d; want 4095 (a limit never raises the size)", got)
	}
	e.SetMaxDynamicTableSize(16384)
	if got := e.MaxDynamicTableSize(); got != 8192 {
		t.Errorf("after a size of 16384 over a limit of 8192, MaxDynamicTableSize() = %d; want 8192", got)
	}
}

// shortWriter writes at most n bytes a call and reports no error.
type shortWriter struct{ n int }

func (w shortWriter) Write(p []byte) (int, error) { return min(len(p), w.n), nil }

// failingWriter fails every Write.
type failingWriter struct{ err error }

func (w failingWriter) Write(p []byte) (int, error) { return 0, w.err }

// TestWriteErrors checks that WriteField returns the Writer's error, and
// io.ErrShortWrite for a short write without one, as x/net's does.
func TestWriteErrors(t *testing.T) {
	f := HeaderField{Name: "x-custom", Value: "a value long enough"}
	if err := NewEncoder(shortWriter{n: 3}).WriteField(f); !errors.Is(err, io.ErrShortWrite) {
		t.Errorf("WriteField to a writer taking 3 bytes = %v; want io.ErrShortWrite", err)
	}
	boom := errors.New("boom")
	if err := NewEncoder(failingWriter{boom}).WriteField(f); !errors.Is(err, boom) {
		t.Errorf("WriteField to a failing writer = %v; want its error %v", err, boom)
	}
}

// TestOneWritePerField checks that each WriteField makes one Write.
func TestOneWritePerField(t *testing.T) {
	var w countingWriter
	e := NewEncoder(&w)
	e.SetMaxDynamicTableSize(1024)
	for i := range 5 {
		if err := e.WriteField(HeaderField{Name: "x-n", Value: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if w.writes != 5 {
		t.Errorf("5 WriteField calls made %d Writes; want 5", w.writes)
	}
}

type countingWriter struct{ writes int }

func (w *countingWriter) Write(p []byte) (int, error) { w.writes++; return len(p), nil }

// TestWriteFieldAllocs checks that WriteField into a bytes.Buffer with
// room allocates nothing, on every kind of field: indexed, inserted,
// never indexed, new names, a field larger than the table, after size
// changes.
func TestWriteFieldAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	var buf bytes.Buffer
	buf.Grow(64 << 10)
	e := NewEncoder(&buf)
	fields := []HeaderField{
		{Name: ":method", Value: "GET"},
		{Name: ":path", Value: "/api/v1/resource"},
		{Name: "user-agent", Value: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"},
		{Name: "cookie", Value: "session_token=deadbeef1234567890"},
		{Name: "authorization", Value: "Bearer secret", Sensitive: true},
		{Name: "x-new", Value: "value"},
		{Name: "x-giant", Value: strings.Repeat("g", 5000)},
	}
	n := 0
	allocs := testing.AllocsPerRun(200, func() {
		buf.Reset()
		n++
		if n%50 == 0 {
			e.SetMaxDynamicTableSize(2048)
			e.SetMaxDynamicTableSize(4096)
		}
		for _, f := range fields {
			if err := e.WriteField(f); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("WriteField of %d fields into a bytes.Buffer made %v allocations; want 0", len(fields), allocs)
	}
}

// TestFieldRoom checks that fieldRoom bounds encoder.MaxFieldLen beyond
// the name and value, for lengths up to the largest a 1 GiB table holds
// and beyond.
func TestFieldRoom(t *testing.T) {
	for _, n := range []int{0, 1, 126, 127, 128, 16510, 16511, 1 << 21, 1 << 28, 1 << 30, 1<<31 - 1} {
		for _, v := range []int{0, 127, 1 << 14, 1<<31 - 1} {
			if bound := encoder.MaxFieldLen(n, v); n+v+fieldRoom < bound {
				t.Errorf("MaxFieldLen(%d, %d) = %d, over %d + fieldRoom (%d)", n, v, bound, n+v, fieldRoom)
			}
		}
	}
}
