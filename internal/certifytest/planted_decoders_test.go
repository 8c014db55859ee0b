package certifytest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// decoderCaseIDs are the dec/ case ids of issue 25's catalogue.
var decoderCaseIDs = []string{
	"dec/2.3.3/1", "dec/5.2/1", "dec/5.2/2", "dec/5.1/1", "dec/6.2.1/1", "dec/6.2.2/1", "dec/6.2.3/1",
	"dec/4.1/1", "dec/4.4/1", "dec/4.4/2", "dec/4.4/3", "dec/4.3/1", "dec/7.1.3/1", "dec/3.2/1",
	"dec/6.1/1", "dec/2.3.3/2", "dec/6.3/1", "dec/4.2/1", "dec/4.2/2", "dec/5.1/2", "dec/5.1/3",
	"dec/5.2/3", "dec/5.2/4", "dec/5.2/5", "dec/5.2/6", "dec/7.3/1", "dec/7.3/2",
}

// TestPlantedDecoderBugsTable checks the table: every bug of the broken
// decoder once, under its name, failing known cases with a grade.
func TestPlantedDecoderBugsTable(t *testing.T) {
	known := make(map[string]bool)
	for _, id := range decoderCaseIDs {
		known[id] = true
	}
	seen := make(map[broken.DecoderBugs]bool)
	for _, p := range PlantedDecoderBugs() {
		if p.Name != p.Bugs.String() {
			t.Errorf("%v: Name %q; want %q", p.Bugs, p.Name, p.Bugs.String())
		}
		if seen[p.Bugs] {
			t.Errorf("%s: twice in the table", p.Name)
		}
		seen[p.Bugs] = true
		if len(p.Fails) == 0 {
			t.Errorf("%s: fails no case", p.Name)
		}
		for id, g := range p.Fails {
			if !known[id] {
				t.Errorf("%s: unknown case %q", p.Name, id)
			}
			if g != certify.Fail && g != certify.NonStrict {
				t.Errorf("%s: %s graded %v; want fail or non-strict", p.Name, id, g)
			}
		}
	}
	for _, b := range broken.EachDecoderBug() {
		if !seen[b] {
			t.Errorf("%s: not in the table", b)
		}
	}
}

// demoStep is one block of a crafted story: the settings before it and
// its wire.
type demoStep struct {
	acked    []uint32
	listSize uint32 // SETTINGS_MAX_HEADER_LIST_SIZE; 0: none
	wire     []byte
}

// demos are crafted stories, one per bug, on which the bug changes what
// the decoder returns.
var demos = map[broken.DecoderBugs][]demoStep{
	broken.AcceptIndexZero: {{wire: []byte{0x80}}},
	// Two insertions, then index 62: the newest ("b: 2").
	broken.DynamicIndexOffByOne: {{wire: []byte{0x40, 0x01, 'a', 0x01, '1', 0x40, 0x01, 'b', 0x01, '2', 0xbe}}},
	// A table of 100 holds two entries of 34; the third evicts one.
	broken.EvictNewest: {{wire: []byte{0x3f, 100 - 31, 0x40, 0x01, 'a', 0x01, '1', 0x40, 0x01, 'b', 0x01, '2', 0x40, 0x01, 'c', 0x01, '3'}}},
	// An entry, then an update to 0 that empties the table.
	broken.NoEvictOnResize: {{wire: []byte{0x40, 0x01, 'a', 0x01, '1'}}, {wire: []byte{0x20}}},
	// A table of 67 holds one entry of 34, but two of 33.
	broken.EntryOverhead31:      {{wire: []byte{0x3f, 67 - 31, 0x40, 0x01, 'a', 0x01, '1', 0x40, 0x01, 'b', 0x01, '2'}}},
	broken.AcceptLateSizeUpdate: {{wire: []byte{0x82, 0x20}}},
	// An update to 4097 above the setting of 4096.
	broken.AcceptUpdateAboveSetting: {{wire: []byte{0x3f, 0xe2, 0x1f}}},
	// The setting goes down to 0 but the next block has no update.
	broken.AcceptMissingUpdate: {{wire: []byte{0x82}}, {acked: []uint32{0}, wire: []byte{0x82}}},
	// ":authority" with a Huffman value of eight ones.
	broken.AcceptLongPadding: {{wire: []byte{0x01, 0x81, 0xff}}},
	// "a" (00011) padded with zeros.
	broken.AcceptZeroPadding: {{wire: []byte{0x01, 0x81, 0x18}}},
	// EOS (30 ones) and two ones of padding.
	broken.AcceptEOS: {{wire: []byte{0x01, 0x84, 0xff, 0xff, 0xff, 0xff}}},
	// Index 2^32+2, which wraps to 2 (":method: GET").
	broken.WrapIntegers: {{wire: encoder.AppendInteger(nil, 0x80, 7, 1<<32+2)}},
	// Three fields of 42 octets under a limit of 100.
	broken.IgnoreListLimit:  {{listSize: 100, wire: []byte{0x82, 0x82, 0x82}}},
	broken.LoseNeverIndexed: {{wire: []byte{0x10, 0x01, 'a', 0x01, 'b'}}},
	broken.StripWhitespace:  {{wire: []byte{0x00, 0x01, 'a', 0x04, ' ', 'b', '\t', ' '}}},
	// A table of 70 holds "aaaa: 1" (37); a new entry of 38 named after
	// it (index 62) evicts it.
	broken.NameAfterEvict: {{wire: []byte{0x3f, 70 - 31, 0x40, 0x04, 'a', 'a', 'a', 'a', 0x01, '1'}}, {wire: []byte{0x7e, 0x02, '2', '2'}}},
	// A field, then a name index cut off inside its integer.
	broken.AcceptTruncated: {{wire: []byte{0x82, 0x0f}}},
	// An entry of 43 octets in a table of 40.
	broken.OversizedEntryError: {{wire: append([]byte{0x3f, 40 - 31, 0x40, 0x01, 'a', 0x0a}, strings.Repeat("x", 10)...)}},
}

// TestPlantedDecoderBugsChangeOutput checks that no bug of the table is
// dead: on its crafted story the decoder with the bug returns something
// else (fields, refusal or table) than without, and without it returns
// what the strict decoder does.
func TestPlantedDecoderBugsChangeOutput(t *testing.T) {
	for _, p := range PlantedDecoderBugs() {
		t.Run(p.Name, func(t *testing.T) {
			demo, ok := demos[p.Bugs]
			if !ok {
				t.Fatal("no crafted story")
			}
			want, without, with := playStrict(demo), play(broken.NewDecoder(0), demo), play(broken.NewDecoder(p.Bugs), demo)
			if without != want {
				t.Errorf("without the bug:\n%s\nstrict decoder:\n%s", without, want)
			}
			if with == without {
				t.Errorf("the bug changes nothing on its crafted story:\n%s", with)
			}
		})
	}
}

// play decodes demo with d and describes what came out of each block.
func play(d *broken.Decoder, demo []demoStep) string {
	var out strings.Builder
	for i, step := range demo {
		for _, n := range step.acked {
			d.SetMaxDynamicTableSize(n)
		}
		d.SetMaxHeaderListSize(step.listSize)
		fields, err := d.DecodeBlock(step.wire)
		table, _ := d.DecoderTable()
		describe(&out, i, fields, err, table)
		if err != nil {
			if !certify.Rejected(err) {
				fmt.Fprintf(&out, "  not a rejection: %v\n", err)
			}
			break
		}
	}
	return out.String()
}

// playStrict is play with the strict decoder.
func playStrict(demo []demoStep) string {
	d := strict.New()
	var out strings.Builder
	for i, step := range demo {
		for _, n := range step.acked {
			d.SetMaxDynamicTableSize(n)
		}
		d.SetMaxHeaderListSize(int(step.listSize))
		fields, err := d.DecodeBlock(step.wire)
		describe(&out, i, fields, err, d.Table())
		if err != nil {
			break
		}
	}
	return out.String()
}

// describe writes one block's outcome: its fields and table, or that it
// was refused.
func describe(out *strings.Builder, block int, fields []certify.Field, err error, table []certify.Field) {
	if err != nil {
		fmt.Fprintf(out, "block %d refused\n", block)
		return
	}
	fmt.Fprintf(out, "block %d: fields %+v, table %+v\n", block, fields, table)
}
