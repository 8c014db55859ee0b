package broken

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/vectors"
)

// wireStep is one block of a story with its wire: the settings
// acknowledged before it, and the block.
type wireStep struct {
	acked []uint32
	wire  []byte
}

// wireStory is a named sequence of blocks decoded by one context.
type wireStory struct {
	name  string
	steps []wireStep
}

// appendixCStories returns RFC 7541 C.3 to C.6; C.5 and C.6 start with a
// block lowering the table to 256.
func appendixCStories() []wireStory {
	var out []wireStory
	for _, seq := range vectors.RFCAppendixC() {
		s := wireStory{name: seq.Section}
		if seq.TableSize != 4096 {
			s.steps = append(s.steps, wireStep{acked: []uint32{seq.TableSize}, wire: appendInt(nil, 0x20, 5, uint64(seq.TableSize))})
		}
		for _, step := range seq.Steps {
			s.steps = append(s.steps, wireStep{wire: step.Wire})
		}
		out = append(out, s)
	}
	return out
}

// encodedStories returns the embedded raw traffic, generated stories and
// every scenario of the certifier, each encoded by the reference encoder
// and by the broken encoder without a bug.
func encodedStories(t *testing.T) []wireStory {
	t.Helper()
	raw, err := vectors.RawData()
	if err != nil {
		t.Fatal(err)
	}
	var stories []vectors.Story
	for _, s := range raw {
		stories = append(stories, *s)
	}
	for _, s := range vectors.GenerateStories(vectors.GeneratedSeed, 16) {
		stories = append(stories, *s)
	}
	for _, name := range []string{
		vectors.ScenarioAdversarial, vectors.ScenarioEntrySize, vectors.ScenarioSizes, vectors.ScenarioEmptyBlock,
		vectors.ScenarioEvictResize, vectors.ScenarioEvictInsert, vectors.ScenarioGiant, vectors.ScenarioOctets,
		vectors.ScenarioHuffmanOctets, vectors.ScenarioSpec, vectors.ScenarioSensitive, vectors.ScenarioCredentials,
	} {
		more, ok := vectors.Scenario(name, vectors.GeneratedSeed, 4, false)
		if !ok {
			t.Fatalf("no scenario %q", name)
		}
		stories = append(stories, more...)
	}
	encoders := []struct {
		name string
		new  func() certify.Encoder
	}{
		{"ref", func() certify.Encoder { return certify.NewReference(encoder.Config{}) }},
		{"broken-encoder", func() certify.Encoder { return New(None) }},
	}
	var out []wireStory
	for _, enc := range encoders {
		for i, s := range stories {
			e := enc.new()
			ws := wireStory{name: fmt.Sprintf("%s/%d %s", enc.name, i, s.Path)}
			for _, c := range s.Cases {
				for _, n := range c.AckedSizes() {
					if err := e.SetMaxDynamicTableSize(n); err != nil {
						t.Fatalf("%s: %v", ws.name, err)
					}
				}
				wire, err := e.EncodeBlock(nil, c.Headers)
				if err != nil {
					t.Fatalf("%s: %v", ws.name, err)
				}
				ws.steps = append(ws.steps, wireStep{acked: c.AckedSizes(), wire: wire})
			}
			out = append(out, ws)
		}
	}
	return out
}

// newStrict returns the strict oracle as the broken decoder starts: no
// header-list limit.
func newStrict() *strict.Decoder {
	d := strict.New()
	d.SetMaxHeaderListSize(0)
	return d
}

// compareStory decodes s with the strict oracle and the broken decoder
// without bugs, and reports where they differ: acceptance, fields or
// table. It returns the blocks compared.
func compareStory(t *testing.T, s wireStory) int {
	t.Helper()
	want, got := newStrict(), NewDecoder(0)
	for i, step := range s.steps {
		for _, n := range step.acked {
			want.SetMaxDynamicTableSize(n)
			if err := got.SetMaxDynamicTableSize(n); err != nil {
				t.Fatal(err)
			}
		}
		wantFields, wantErr := want.DecodeBlock(step.wire)
		gotFields, gotErr := got.DecodeBlock(step.wire)
		if (wantErr == nil) != (gotErr == nil) || (gotErr != nil && !certify.Rejected(gotErr)) {
			t.Errorf("%s block %d (% x): broken decoder error %v; strict error %v", s.name, i, step.wire, gotErr, wantErr)
			return i + 1
		}
		if wantErr != nil {
			return i + 1
		}
		if !slices.Equal(gotFields, wantFields) {
			t.Errorf("%s block %d (% x): broken decoder fields\n%+v\nstrict\n%+v", s.name, i, step.wire, gotFields, wantFields)
			return i + 1
		}
		gotTable, _ := got.DecoderTable()
		if wantTable := want.Table(); !slices.Equal(gotTable, wantTable) {
			t.Errorf("%s block %d (% x): broken decoder table\n%+v\nstrict\n%+v", s.name, i, step.wire, gotTable, wantTable)
			return i + 1
		}
	}
	return len(s.steps)
}

// TestDecoderWithoutBugsIsStrict checks the broken decoder without bugs
// against oracle/strict on App. C, the raw traffic, generated stories and
// every scenario.
func TestDecoderWithoutBugsIsStrict(t *testing.T) {
	stories := append(appendixCStories(), encodedStories(t)...)
	blocks := 0
	for _, s := range stories {
		blocks += compareStory(t, s)
	}
	if blocks < 5000 {
		t.Errorf("compared %d blocks; want at least 5000", blocks)
	}
	t.Logf("%d stories, %d blocks", len(stories), blocks)
}

// TestDecoderWithoutBugsIsStrictMutated compares the two decoders on the
// same stories with blocks mutated: octets changed, inserted, removed,
// blocks cut short, the settings changed. Most mutations make invalid
// blocks, each of which both must refuse.
func TestDecoderWithoutBugsIsStrictMutated(t *testing.T) {
	stories := append(appendixCStories(), encodedStories(t)...)
	r := rand.New(rand.NewPCG(7541, 25))
	refused := 0
	for round := range 4 {
		for _, s := range stories {
			m := wireStory{name: fmt.Sprintf("%s (mutation round %d)", s.name, round)}
			for _, step := range s.steps {
				if r.IntN(4) == 0 {
					step = mutate(r, step)
				}
				m.steps = append(m.steps, step)
			}
			if n := compareStory(t, m); n < len(m.steps) || (n > 0 && blockRefused(m, n)) {
				refused++
			}
		}
	}
	if refused < 100 {
		t.Errorf("only %d mutated stories ended in a refusal; the mutations test too little", refused)
	}
	t.Logf("%d mutated stories ended in a refusal", refused)
}

// blockRefused reports whether strict refuses block n-1 of s, the last
// one compareStory decoded.
func blockRefused(s wireStory, n int) bool {
	d := newStrict()
	for _, step := range s.steps[:n] {
		for _, a := range step.acked {
			d.SetMaxDynamicTableSize(a)
		}
		if _, err := d.DecodeBlock(step.wire); err != nil {
			return true
		}
	}
	return false
}

// mutate returns step with one random change.
func mutate(r *rand.Rand, step wireStep) wireStep {
	wire := slices.Clone(step.wire)
	acked := slices.Clone(step.acked)
	switch r.IntN(6) {
	case 0: // change one octet
		if len(wire) > 0 {
			wire[r.IntN(len(wire))] = byte(r.UintN(256))
		}
	case 1: // flip one bit
		if len(wire) > 0 {
			wire[r.IntN(len(wire))] ^= 1 << r.UintN(8)
		}
	case 2: // cut the block short
		if len(wire) > 0 {
			wire = wire[:r.IntN(len(wire))]
		}
	case 3: // insert an octet
		i := r.IntN(len(wire) + 1)
		wire = slices.Insert(wire, i, byte(r.UintN(256)))
	case 4: // remove an octet
		if len(wire) > 0 {
			i := r.IntN(len(wire))
			wire = slices.Delete(wire, i, i+1)
		}
	case 5: // acknowledge another setting
		acked = append(acked, []uint32{0, 1, 64, 256, 4095, 4096, 65536}[r.IntN(7)])
	}
	return wireStep{acked: acked, wire: wire}
}

// TestDecoderContextDead checks that after a refusal every block is
// refused.
func TestDecoderContextDead(t *testing.T) {
	d := NewDecoder(0)
	if _, err := d.DecodeBlock([]byte{0x80}); !certify.Rejected(err) {
		t.Fatalf("index 0: %v; want a rejection", err)
	}
	if _, err := d.DecodeBlock([]byte{0x82}); !certify.Rejected(err) {
		t.Errorf("a valid block after a refusal: %v; want a rejection", err)
	}
}

// TestDecoderBugNames checks that every bug has a name that parses back.
func TestDecoderBugNames(t *testing.T) {
	bugs := EachDecoderBug()
	if last := bugs[len(bugs)-1]; last != lastDecoderBug {
		t.Errorf("EachDecoderBug ends with %v; want %v: a bug without a name or a name without a bug", last, lastDecoderBug)
	}
	all := DecoderBugs(0)
	for _, b := range bugs {
		all |= b
		got, err := ParseDecoderBugs(b.String())
		if err != nil || got != b {
			t.Errorf("ParseDecoderBugs(%q) = %v, %v; want %v", b.String(), got, err, b)
		}
	}
	if got, err := ParseDecoderBugs(all.String()); err != nil || got != all {
		t.Errorf("ParseDecoderBugs(%q) = %v, %v; want all", all.String(), got, err)
	}
	if got, err := ParseDecoderBugs("none"); err != nil || got != 0 {
		t.Errorf("ParseDecoderBugs(none) = %v, %v; want 0", got, err)
	}
	if _, err := ParseDecoderBugs("nope"); err == nil {
		t.Error("ParseDecoderBugs(nope) succeeded")
	}
	target := NewDecoderTarget(EvictNewest)
	if got := target.Name(); got != "broken-decoder evict-newest" {
		t.Errorf("target name %q", got)
	}
}

// TestDecoderWithoutBugsIsStrictCrafted compares the two decoders on
// blocks at the edges of the rules, each in a fresh context.
func TestDecoderWithoutBugsIsStrictCrafted(t *testing.T) {
	literal := func(value uint64) []byte { // without indexing, name 1, a raw value of that length claimed
		return appendInt([]byte{0x01}, 0, 7, value)
	}
	blocks := []struct {
		label string
		wire  []byte
	}{
		{"size update to 2^32-1", appendInt(nil, 0x20, 5, 1<<32-1)},
		{"index 2^32-1", appendInt(nil, 0x80, 7, 1<<32-1)},
		{"index 2^32", appendInt(nil, 0x80, 7, 1<<32)},
		{"string length 2^32", literal(1 << 32)},
		{"size update to 31 in five continuation octets", []byte{0x3f, 0x80, 0x80, 0x80, 0x80, 0x00}},
		{"size update to 31 in six continuation octets", []byte{0x3f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}},
		{"twenty continuation octets, cut", append([]byte{0xff}, slices.Repeat([]byte{0x80}, 20)...)},
		{"integer cut after the prefix", []byte{0xff}},
		{"integer cut after three octets", []byte{0xff, 0x80, 0x80}},
		{"name string missing", []byte{0x00}},
		{"value string missing", []byte{0x00, 0x01, 'a'}},
		{"value past the end", []byte{0x00, 0x01, 'a', 0x02, 'b'}},
		{"empty Huffman value", []byte{0x01, 0x80}},
		{"Huffman padding of 7 ones", []byte{0x01, 0x81, 0x1f}},
		{"Huffman padding of 8 ones", []byte{0x01, 0x81, 0xff}},
		{"Huffman padding of zeros", []byte{0x01, 0x81, 0x18}},
		{"EOS in a string", []byte{0x01, 0x84, 0xff, 0xff, 0xff, 0xff}},
		{"index 0", []byte{0x80}},
		{"literal name index 62 with an empty table", []byte{0x7e, 0x01, 'a'}},
		{"size update after a field", []byte{0x82, 0x20}},
		{"two size updates", []byte{0x20, 0x3f, 0xe1, 0x1f, 0x82}},
		{"three size updates", []byte{0x20, 0x21, 0x3f, 0xe1, 0x1f}},
		{"an oversized entry", append([]byte{0x3f, 40 - 31, 0x40, 0x01, 'a', 0x0a}, "xxxxxxxxxx"...)},
		{"an entry named after the one it evicts", []byte{0x3f, 70 - 31, 0x40, 0x04, 'a', 'a', 'a', 'a', 0x01, '1', 0x7e, 0x02, '2', '2'}},
	}
	for _, b := range blocks {
		compareStory(t, wireStory{name: b.label, steps: []wireStep{{wire: b.wire}}})
	}
}
