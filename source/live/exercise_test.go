package live

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/wire"
)

func TestBoundaryLengthsOnTheWire(t *testing.T) {
	// The lengths are the coverage line's: a string length has a 7-bit
	// prefix.
	var want []int
	for _, b := range certify.IntegerBoundaries() {
		n, _ := strconv.Atoi(b.Value)
		if strings.HasPrefix(b.Use, "string length") && n <= certify.DefaultMaxBlockSize {
			want = append(want, n)
		}
	}
	if got := append(slices.Clone(shortBoundaries), longBoundaries...); !slices.Equal(got, want) {
		t.Errorf("boundary lengths %v; want the coverage line's %v", got, want)
	}
	for _, n := range want {
		if got := encoder.HuffmanLen([]byte(huffmanText(n))); got != n || len(huffmanText(n)) <= n {
			t.Errorf("huffmanText(%d) codes to %d octets, from %d; want %d, from more", n, got, len(huffmanText(n)), n)
		}
		raw := longCodeText(n)
		if len(raw) != n || encoder.HuffmanLen([]byte(raw)) <= n || !isFieldValue(raw) {
			t.Errorf("longCodeText(%d): %d octets, %d Huffman-coded; want %d visible octets, and more coded", n, len(raw), encoder.HuffmanLen([]byte(raw)), n)
		}
	}
}

func TestSpreadOctetsHuffmanCodesEveryFieldOctet(t *testing.T) {
	seen := map[byte]bool{}
	for _, f := range spreadOctets("x") {
		v := []byte(f.Value)
		if h := encoder.HuffmanLen(v); h >= len(v) {
			t.Errorf("%s: %d octets Huffman-coded, %d raw: a coder that saves octets writes it raw", f.Name, h, len(v))
		}
		if !isFieldValue(f.Value) || strings.Trim(f.Value, " \t") != f.Value {
			t.Errorf("%s: %q is no field value HTTP/1.1 carries as it is", f.Name, f.Value)
		}
		for _, b := range v {
			seen[b] = true
		}
	}
	for b := 0; b < 256; b++ {
		legal := b == '\t' || (b >= 0x20 && b != 0x7f)
		if legal != seen[byte(b)] {
			t.Errorf("octet %#02x: carried %v; want %v", b, seen[byte(b)], legal)
		}
	}
}

func TestExerciseConnection(t *testing.T) {
	sc, err := DefaultScript(1, 8)
	if err != nil {
		t.Fatal(err)
	}
	var exercise, sizes *ScriptConn
	for i := range sc.Conns {
		switch {
		case strings.HasSuffix(sc.Conns[i].Name, "-exercise"):
			exercise = &sc.Conns[i]
		case strings.HasSuffix(sc.Conns[i].Name, "-sizes"):
			sizes = &sc.Conns[i]
		}
	}
	if exercise == nil || sizes == nil {
		t.Fatalf("connections %v; want an exercise and a sizes one", sc.Conns)
	}
	statuses := map[string]bool{}
	for _, s := range exercise.Steps {
		// h2o, which mishandles a lower setting, is graded on it.
		if s.Settings != nil {
			t.Errorf("exercise step %q changes settings %v", s.Label, s.Settings)
		}
		// HAProxy refuses more than 101 fields.
		if len(s.Response) > 100 {
			t.Errorf("exercise step %q has %d fields", s.Label, len(s.Response))
		}
		statuses[s.Response[0].Value] = true
	}
	for _, want := range []string{"200", "204", "206", "304", "400", "404", "500"} {
		if !statuses[want] {
			t.Errorf("no exercise step answers %s (a static entry)", want)
		}
	}
	var got [][]uint32
	for _, s := range sizes.Steps {
		if s.Settings != nil {
			got = append(got, s.Settings)
		}
	}
	if last := sc.Conns[len(sc.Conns)-1]; !last.StartsAtZero || last.Steps[0].Settings != nil {
		t.Errorf("the last connection %s: starts at zero %v, settings %v before its first request; want it to start at 0 with none", last.Name, last.StartsAtZero, last.Steps[0].Settings)
	}
	if len(got) != len(sizeChanges) || sizes.Steps[0].Settings != nil {
		t.Errorf("sizes connection sends %v; want %v from its second request", got, sizeChanges)
	}
	for i := 1; i < DefaultRequests; i++ {
		if ClientSchedule(i, DefaultRequests) == nil {
			t.Errorf("a client's request %d of %d follows no change", i, DefaultRequests)
		}
	}
}

func TestClientHeaders(t *testing.T) {
	small, large := ClientHeaders("c", false), ClientHeaders("c", true)
	indexed, entries := 0, 0
	for _, f := range small {
		if !isToken(f.Name) || !isFieldValue(f.Value) || len(f.Value) > 5000 {
			t.Errorf("%s: %q is no field a command line should carry", f.Name, f.Value)
		}
		if n := len(f.Name) + len(f.Value) + 32; n <= 4096 {
			indexed += n
			entries++
		}
	}
	// Every indexed field fits in the table, not in 2048 octets, and the
	// oldest is referenced past index 128.
	if indexed > clientIndexed || indexed <= 2048 || entries < 68 {
		t.Errorf("client fields of %d octets, %d entries; want 2049 to %d octets and 68 entries at least", indexed, entries, clientIndexed)
	}
	if len(large) != len(small)+4 {
		t.Errorf("%d fields with the large ones; want %d", len(large), len(small)+4)
	}
}

func TestWithLarge(t *testing.T) {
	sc, err := DefaultScript(1, 8)
	if err != nil {
		t.Fatal(err)
	}
	n := len(sc.Conns)
	large := sc.WithLarge()
	if len(sc.Conns) != n || len(large.Conns) != n+1 {
		t.Fatalf("WithLarge: %d connections, the script's %d; want %d, the script's unchanged %d", len(large.Conns), len(sc.Conns), n+1, n)
	}
	last := large.Conns[n]
	if len(last.Steps) != 1 {
		t.Fatalf("%s: %d steps; want one", last.Name, len(last.Steps))
	}
	want := map[int]bool{16510: true, 16511: true}
	for _, f := range last.Steps[0].Response[1:] {
		delete(want, len(f.Value))
	}
	if len(want) != 0 {
		t.Errorf("%s: no raw value of %v octets", last.Name, want)
	}
	if step, ok := large.Lookup(Path(n, 0)); !ok || step != &large.Conns[n].Steps[0] {
		t.Errorf("Lookup(%q) finds no large step", Path(n, 0))
	}
}

// TestNameIndicesNotIndexed encodes the exercise steps meant for the
// 4-bit prefix's transitions with x/net's encoder, which refers to a name
// it finds for a field it does not index, and checks the name indices it
// writes: 15 (accept-charset, a static name), 142 and 143 (deepNames).
func TestNameIndicesNotIndexed(t *testing.T) {
	steps := map[string][]uint64{
		"fields over 4096 octets":                       {15},
		"names at dynamic indices 142-143, not indexed": {142, 143},
	}
	for _, st := range exerciseResponses() {
		want, ok := steps[st.label]
		if !ok {
			continue
		}
		delete(steps, st.label)
		var buf bytes.Buffer
		enc := hpack.NewEncoder(&buf)
		for _, f := range st.fields {
			if err := enc.WriteField(hpack.HeaderField{Name: f.Name, Value: f.Value}); err != nil {
				t.Fatal(err)
			}
		}
		reps, err := wire.Walk(buf.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", st.label, err)
		}
		var got []uint64
		for _, r := range reps {
			if r.Kind == wire.WithoutIndexing && r.Index.Value != 0 {
				got = append(got, r.Index.Value)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: literals without indexing refer to names %v; want %v", st.label, got, want)
		}
	}
	if len(steps) > 0 {
		t.Errorf("no exercise steps %v", steps)
	}
}
