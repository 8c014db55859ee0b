package encoder

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// story is one hpack-test-case story: its header lists in order.
type story struct {
	name   string
	blocks [][]hpack.HeaderField
}

// rawStories caches readRawStories: several tests and benchmarks use the
// stories, and tests of one package run one at a time unless parallel.
var rawStories []story

// readRawStories reads every story of hpack-test-case/raw-data. Callers
// must not modify the result.
func readRawStories(tb testing.TB) []story {
	tb.Helper()
	if rawStories != nil {
		return rawStories
	}
	dir := filepath.Join(testenv.TestCaseDir(tb), "raw-data")
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(paths) == 0 {
		tb.Fatalf("no stories in %s", dir)
	}
	stories := make([]story, 0, len(paths))
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		var file struct {
			Cases []struct {
				Headers []map[string]string `json:"headers"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(data, &file); err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		s := story{name: filepath.Base(path)}
		for i, c := range file.Cases {
			var block []hpack.HeaderField
			for j, h := range c.Headers {
				if len(h) != 1 {
					tb.Fatalf("%s: case %d: header %d has %d keys; want 1", path, i, j, len(h))
				}
				for name, value := range h {
					block = append(block, hpack.HeaderField{Name: name, Value: value})
				}
			}
			s.blocks = append(s.blocks, block)
		}
		stories = append(stories, s)
	}
	rawStories = stories
	return stories
}

// peer is the decoding side of a connection: x/net's decoder, told each
// acknowledged SETTINGS_HEADER_TABLE_SIZE, following the encoder's size
// updates.
type peer struct {
	dec *hpack.Decoder
}

func newPeer() *peer {
	return &peer{dec: hpack.NewDecoder(spec.DefaultTableSize, nil)}
}

// ack tells both sides that SETTINGS_HEADER_TABLE_SIZE n was acknowledged.
func (p *peer) ack(enc *Encoder, n uint32) {
	enc.SetMaxDynamicTableSize(n)
	p.dec.SetAllowedMaxDynamicTableSize(n)
}

// table reads the decoder's dynamic table, newest first, by decoding
// "Indexed Header Field" representations of 62, 63, ... until one fails.
// Indexed representations do not change the table, so the decoder stays in
// step with the encoder.
func (p *peer) table(tb testing.TB) []hpack.HeaderField {
	tb.Helper()
	var fields []hpack.HeaderField
	for index := uint64(spec.StaticTableLen + 1); ; index++ {
		got, err := p.dec.DecodeFull(appendInteger(nil, indexedPattern, indexedPrefixBits, index))
		if err != nil {
			// DecodeFull does not reset the decoder after an error.
			if err := p.dec.Close(); err != nil {
				tb.Fatalf("closing decoder after probe: %v", err)
			}
			return fields
		}
		if len(got) != 1 {
			tb.Fatalf("probe of index %d decoded %d fields; want 1", index, len(got))
		}
		fields = append(fields, got[0])
	}
}

// checkTablesEqual fails unless enc's dynamic table equals the peer's and
// TableSize is their RFC 7541 §4.1 size.
func checkTablesEqual(tb testing.TB, where string, enc *Encoder, p *peer) {
	tb.Helper()
	want := p.table(tb)
	if enc.TableLen() != len(want) {
		tb.Fatalf("%s: encoder table has %d entries; decoder table has %d", where, enc.TableLen(), len(want))
	}
	var size uint32
	for i, f := range want {
		name, value := enc.TableEntry(i)
		if string(name) != f.Name || string(value) != f.Value {
			tb.Fatalf("%s: table entry %d: encoder has %q: %q; decoder has %q: %q", where, i, name, value, f.Name, f.Value)
		}
		size += f.Size()
	}
	if enc.TableSize() != size {
		tb.Fatalf("%s: TableSize() = %d; want %d", where, enc.TableSize(), size)
	}
	if size > enc.MaxTableSize() {
		tb.Fatalf("%s: table size %d exceeds MaxTableSize() %d", where, size, enc.MaxTableSize())
	}
}

// tableSchedule is a sequence of SETTINGS_HEADER_TABLE_SIZE values
// acknowledged during a story: acks[k] are acknowledged, in order, before
// block k*len(blocks)/len(acks).
type tableSchedule struct {
	name     string
	capacity uint32
	acks     [][]uint32
}

var tableSchedules = []tableSchedule{
	{name: "default", acks: nil},
	{name: "4096-0-4096", acks: [][]uint32{nil, {0}, {4096}}},
	{name: "4096-256-1024", acks: [][]uint32{nil, {256}, {1024}}},
	{name: "65536-capacity-4096", capacity: 4096, acks: [][]uint32{{65536}}},
	{name: "0-then-4096-in-one-gap", acks: [][]uint32{nil, {0, 4096}}},
	{name: "capacity-1024", capacity: 1024, acks: [][]uint32{nil, {512}, {0, 2048}}},
}

// x/net's decoder accepts a second size update in a block only when the
// first left the table empty (it clears its first-field flag after any
// representation), so the schedules above acknowledge two sizes at once
// only when the smaller is 0. TestSizeUpdates checks the other cases byte
// for byte.

// acksBefore returns the sizes acknowledged just before block i of n.
func (s tableSchedule) acksBefore(i, n int) []uint32 {
	for k, sizes := range s.acks {
		if k*n/len(s.acks) == i {
			return sizes
		}
	}
	return nil
}

// TestRoundTripStories encodes every block of every raw-data story, decodes
// it with x/net's decoder, and compares the fields and the dynamic tables
// after each block, under several table size schedules. Every fifth field
// is marked sensitive and must come back "Never Indexed".
func TestRoundTripStories(t *testing.T) {
	stories := readRawStories(t)
	for _, sched := range tableSchedules {
		t.Run(sched.name, func(t *testing.T) {
			for _, s := range stories {
				roundTripStory(t, sched, s)
			}
		})
	}
}

func roundTripStory(t *testing.T, sched tableSchedule, s story) {
	enc := New(Config{Capacity: sched.capacity})
	p := newPeer()
	var block []byte
	field := 0
	for i, fields := range s.blocks {
		where := fmt.Sprintf("%s block %d", s.name, i)
		for _, n := range sched.acksBefore(i, len(s.blocks)) {
			p.ack(enc, n)
		}
		block = block[:0]
		want := make([]hpack.HeaderField, len(fields))
		for j, f := range fields {
			sensitive := field%5 == 4
			field++
			block = enc.AppendFieldString(block, f.Name, f.Value, sensitive)
			want[j] = f
			want[j].Sensitive = sensitive || neverIndexedByDefault(f.Name, f.Value)
		}
		got, err := p.dec.DecodeFull(block)
		if err != nil {
			t.Fatalf("%s: decoding %x: %v", where, block, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: decoded %d fields; want %d", where, len(got), len(want))
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("%s: field %d: got %+v; want %+v", where, j, got[j], want[j])
			}
		}
		checkTablesEqual(t, where, enc, p)
	}
}

// neverIndexedByDefault is DefaultPolicy's never-index rule, written out
// independently of the encoder.
//
// A field equal to a static entry is sent as that entry's index: the
// static table holds these three names with empty values only, so an empty
// value is never "Never Indexed" by the policy (it reveals nothing).
func neverIndexedByDefault(name, value string) bool {
	if value == "" {
		return false
	}
	return name == "authorization" || name == "proxy-authorization" ||
		(name == "cookie" && len(value) < 20)
}
