package oracle_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/oracle"
	_ "github.com/hpackcert/hpackcert/oracle/all"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/vectors"
)

// unhex decodes hex with optional spaces. The arguments are constants of
// this file, so a malformed one is a bug in the test table.
func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(fmt.Sprintf("bad hex %q in test table: %v", s, err))
	}
	return b
}

// decoders returns a fresh decoder of every registered oracle.
func decoders(t *testing.T) []oracle.Decoder {
	t.Helper()
	var out []oracle.Decoder
	for _, newDecoder := range oracle.Available() {
		out = append(out, newDecoder())
	}
	if len(out) < 2 {
		t.Fatalf("oracle.Available() has %d oracles (%v); want at least strict and x/net", len(out), oracle.Names())
	}
	return out
}

// plain strips Sensitive, which the vectors' header lists do not carry.
func plain(fields []oracle.Field) []vectors.Field {
	out := make([]vectors.Field, len(fields))
	for i, f := range fields {
		out[i] = vectors.Field{Name: f.Name, Value: f.Value}
	}
	return out
}

// diff describes the first difference between two field lists, or "".
func diff[T comparable](got, want []T) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("first difference at %d: got %+v; want %+v", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("got %d entries; want %d", len(got), len(want))
	}
	return ""
}

func TestAppendixCFields(t *testing.T) {
	for _, ex := range vectors.FieldExamples() {
		for _, d := range decoders(t) {
			got, err := d.DecodeBlock(ex.Wire)
			if err != nil {
				t.Errorf("%s %s: %v", ex.Section, d.Name(), err)
				continue
			}
			want := []oracle.Field{{Name: ex.Field.Name, Value: ex.Field.Value, Sensitive: ex.NeverIndexed}}
			if s := diff(got, want); s != "" {
				t.Errorf("%s %s: fields: %s", ex.Section, d.Name(), s)
			}
			if s := diff(plain(d.Table()), ex.Table); s != "" {
				t.Errorf("%s %s: table: %s", ex.Section, d.Name(), s)
			}
		}
	}
}

// appendSizeUpdate appends a "Dynamic Table Size Update" (RFC 7541 §6.3)
// to size: a 5-bit prefix integer (§5.1) under the pattern 001.
func appendSizeUpdate(dst []byte, size uint32) []byte {
	const prefixMax = 1<<5 - 1
	if size < prefixMax {
		return append(dst, 0x20|byte(size))
	}
	dst = append(dst, 0x20|prefixMax)
	for size -= prefixMax; size >= 0x80; size >>= 7 {
		dst = append(dst, 0x80|byte(size&0x7f))
	}
	return append(dst, byte(size))
}

func TestAppendixCSequences(t *testing.T) {
	for _, seq := range vectors.RFCAppendixC() {
		for _, d := range decoders(t) {
			t.Run(seq.Section+"/"+d.Name(), func(t *testing.T) {
				if seq.TableSize != 4096 {
					// C.5 and C.6 start with a 256-octet table, which a
					// fresh context reaches by the setting and one block
					// holding only the update §4.2 then requires; the
					// RFC's blocks are decoded unchanged after it.
					d.SetMaxDynamicTableSize(seq.TableSize)
					if _, err := d.DecodeBlock(appendSizeUpdate(nil, seq.TableSize)); err != nil {
						t.Fatalf("size update to %d: %v", seq.TableSize, err)
					}
				}
				for _, step := range seq.Steps {
					got, err := d.DecodeBlock(step.Wire)
					if err != nil {
						t.Fatalf("%s: %v", step.Section, err)
					}
					if s := diff(plain(got), step.Headers); s != "" {
						t.Errorf("%s: headers: %s", step.Section, s)
					}
					for _, f := range got {
						if f.Sensitive {
							t.Errorf("%s: %+v is marked Sensitive (never indexed); the RFC's block has no never-indexed literal", step.Section, f)
						}
					}
					if s := diff(plain(d.Table()), step.Table); s != "" {
						t.Errorf("%s: table: %s", step.Section, s)
					}
					if sd, ok := d.(*strict.Decoder); ok && sd.TableSize() != step.TableSize {
						t.Errorf("%s: TableSize() = %d; want %d", step.Section, sd.TableSize(), step.TableSize)
					}
				}
			})
		}
	}
}

// TestStories decodes every wire block of the encoders' stories in
// hpack-test-case with every oracle, comparing the header lists with the
// recorded ones and the tables of all oracles after every block.
func TestStories(t *testing.T) {
	root := testenv.TestCaseDir(t)
	for _, encoderName := range []string{"nghttp2", "go-hpack", "python-hpack"} {
		dir := filepath.Join(root, encoderName)
		stories, err := vectors.ReadStoryDir(dir)
		if err != nil {
			t.Fatalf("reading %s: %v", dir, err)
		}
		if len(stories) == 0 {
			t.Fatalf("%s holds no stories", dir)
		}
		for _, story := range stories {
			t.Run(encoderName+"/"+filepath.Base(story.Path), func(t *testing.T) {
				checkStory(t, story)
			})
		}
	}
}

func checkStory(t *testing.T, story *vectors.Story) {
	ds := decoders(t)
	blocks := 0
	for i, c := range story.Cases {
		if c.Wire == nil {
			t.Fatalf("case %d (seqno %d) has no wire", i, c.Seqno)
		}
		blocks++
		var tables [][]oracle.Field
		for _, d := range ds {
			for _, size := range c.AckedSizes() {
				d.SetMaxDynamicTableSize(size)
			}
			got, err := d.DecodeBlock(c.Wire)
			if err != nil {
				t.Fatalf("case %d (seqno %d), %s: %v", i, c.Seqno, d.Name(), err)
			}
			if s := diff(plain(got), c.Headers); s != "" {
				t.Fatalf("case %d (seqno %d), %s: headers: %s", i, c.Seqno, d.Name(), s)
			}
			tables = append(tables, d.Table())
		}
		for j := 1; j < len(ds); j++ {
			if s := diff(tables[j], tables[0]); s != "" {
				t.Fatalf("case %d (seqno %d): table of %s differs from %s's: %s", i, c.Seqno, ds[j].Name(), ds[0].Name(), s)
			}
		}
	}
	if blocks == 0 {
		t.Fatal("story has no cases")
	}
}

// commonHeaders is what h2spec sends before each of its HPACK cases:
// :method GET, :scheme http, :path / and :authority localhost, the last
// as a literal with incremental indexing, so the dynamic table holds one
// entry.
const commonHeaders = "82 86 84 41 86 a0 e4 1d 13 9d 09"

// xTest is the Huffman-coded name "x-test" of h2spec's string cases.
const xTest = "85 f2 b2 4a 84 ff"

// bigEntry is a block adding one 3933-octet entry (name "a", 3900 x's);
// seventeen references to it make a 66,861-octet header list.
var bigEntry = "40 01 61 7f bd 1d" + strings.Repeat("78", 3900)

// agreementCase is one block decoded by every oracle after the prelude
// blocks and the settings. The RFC forbids it when section is set: every
// oracle must reject it, and strict must reject it with an error in that
// section. Otherwise every oracle must decode it to want, with the same
// table as strict. Departures are allowed only when oracle.KnownLeniencies
// lists them under the case's name.
type agreementCase struct {
	name    string
	reason  string
	prelude []string // blocks decoded first; every oracle must accept them
	acked   []uint32 // SetMaxDynamicTableSize calls after the prelude
	block   string
	section string
	want    []oracle.Field
	// noListLimit turns off the header-list limit of the oracles that
	// have one (SetMaxHeaderListSize(0)).
	noListLimit bool
}

var get = oracle.Field{Name: ":method", Value: "GET"}

var agreementCases = []agreementCase{
	// The h2spec HPACK cases (h2spec hpack/ groups 2.3.3, 4.2, 5.2, 6.1, 6.3).
	{name: "h2spec-2.3.3-indexed-invalid-index", reason: "index 126 with one dynamic entry",
		block: commonHeaders + "fe", section: "2.3.3"},
	{name: "h2spec-2.3.3-literal-invalid-index", reason: "a literal whose name index is 70 with one dynamic entry",
		block: commonHeaders + "7f 07 01 61", section: "2.3.3"},
	{name: "h2spec-4.2-size-update-end-of-block", reason: "update to 1 after the fields",
		block: commonHeaders + "21", section: "4.2"},
	{name: "h2spec-5.2-padding-over-7-bits", reason: "an extra octet of ones after the Huffman string",
		block: commonHeaders + "00" + xTest + "84 49 50 9f ff", section: "5.2"},
	{name: "h2spec-5.2-zero-padding", reason: "padding of zeros instead of ones",
		block: commonHeaders + "00" + xTest + "83 49 50 90", section: "5.2"},
	{name: "h2spec-5.2-eos", reason: "h2spec's EOS bytes; its name length makes the value length run past the block",
		block: commonHeaders + "00 85 f2 b2 4a 87 ff ff ff fd 25 42 7f", section: "5.2"},
	{name: "h2spec-6.1-index-0", reason: "index 0 is not used",
		block: commonHeaders + "80", section: "6.1"},
	{name: "h2spec-6.3-size-update-above-setting", reason: "update to 4097 with the setting at 4096",
		block: "3f e2 1f" + commonHeaders, section: "6.3"},

	// More forbidden blocks.
	{name: "eos-in-value", reason: "the 30-bit EOS code inside a value",
		block: "00" + xTest + "84 ff ff ff fc", section: "5.2"},
	{name: "index-0-first", reason: "index 0 as the whole block",
		block: "80", section: "6.1"},
	{name: "size-update-after-field-empty-table", reason: "an update after a field while the dynamic table is empty",
		block: "82 21", section: "4.2"},
	{name: "setting-down-no-update", reason: "the setting fell to 2048 below the table's 4096 and no update follows",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{2048}, block: "82", section: "4.2"},
	{name: "setting-down-up-no-update", reason: "the setting went 2048 then 4096; the update to at most 2048 is missing",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{2048, 4096}, block: "82", section: "4.2"},
	{name: "setting-down-up-update-too-big", reason: "the setting went 1024 then 4096; the only update is 2048",
		acked: []uint32{1024, 4096}, block: "3f e1 0f 82", section: "4.2"},
	{name: "size-update-above-last-acked", reason: "8192 then 1024 acked; an update to 4096 exceeds the last",
		acked: []uint32{8192, 1024}, block: "3f e1 1f 82", section: "6.3"},
	{name: "integer-overflow", reason: "an index above 2^32-1",
		block: "ff ff ff ff ff 0f", section: "5.1"},
	{name: "integer-truncated", reason: "the block ends inside an integer",
		block: "82 ff 80", section: "5.1"},
	{name: "string-past-end", reason: "a name length of 5 with one octet left",
		block: "40 05 61", section: "5.2"},
	{name: "string-missing-value", reason: "the block ends after a literal's name",
		block: "40 01 61", section: "5.2"},
	{name: "integer-overlong", reason: "a size update to 31 with six continuation octets (§5.1 lets strict limit octet length)",
		block: "3f 80 80 80 80 80 00", section: "5.1"},
	{name: "index-evicted-by-update", reason: "an update to 0 empties the table, so 62 is past the end",
		prelude: []string{"40 01 61 01 62"}, block: "20 be", section: "2.3.3"},
	{name: "setting-down-update-above-setting", reason: "the setting fell to 2048; an update to 4096 exceeds it",
		acked: []uint32{2048}, block: "3f e1 1f 82", section: "6.3"},
	{name: "setting-down-up-final-then-min", reason: "the setting went 1024 then 4096: updates 4096 then 1024, the smallest signaled second",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{1024, 4096}, block: "3f e1 1f 3f e1 07 be", section: "4.2"},
	{name: "header-list-over-limit", reason: "17 references to a 3933-octet entry: 66,861 octets, over 64 KiB",
		prelude: []string{bigEntry}, block: strings.Repeat("be", 17), section: "7.3"},

	// Allowed blocks, some unusual.
	{name: "empty-block", reason: "a block with no representations",
		block: ""},
	{name: "update-without-setting", reason: "an encoder may shrink its table at any block start",
		prelude: []string{"40 01 61 01 62"}, block: "20 82", want: []oracle.Field{get}},
	{name: "setting-down-update", reason: "the update §4.2 requires after a drop",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{2048}, block: "3f e1 0f 82", want: []oracle.Field{get}},
	{name: "setting-up-no-update", reason: "a rise needs no update",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{8192}, block: "82 be", want: []oracle.Field{get, {Name: "a", Value: "b"}}},
	{name: "zero-then-final", reason: "the setting went 0 then 4096: updates 0 then 4096",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{0, 4096}, block: "20 3f e1 1f 82", want: []oracle.Field{get}},
	{name: "min-then-final-entries-survive", reason: "the setting went 2048 then 4096: updates 2048 (the entry survives) then 4096",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{2048, 4096}, block: "3f e1 0f 3f e1 1f be", want: []oracle.Field{{Name: "a", Value: "b"}}},
	{name: "three-updates-empty-table", reason: "three updates are legal (strict warns)",
		block: "20 3f e1 0f 3f e1 1f 82", want: []oracle.Field{get}},
	{name: "setting-up-update", reason: "an update up to a raised setting",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{8192}, block: "3f e1 3f be", want: []oracle.Field{{Name: "a", Value: "b"}}},
	{name: "integer-five-continuation-octets", reason: "an overlong update to 32 within strict's five-octet limit",
		block: "3f 81 80 80 80 00 82", want: []oracle.Field{get}},
	{name: "integer-max-index-prefix", reason: "index 127 needs a continuation octet of 0 after a full prefix",
		prelude: []string{strings.Repeat("40 01 61 01 62 ", 66)}, acked: []uint32{8192}, block: "3f e1 3f ff 00", want: []oracle.Field{{Name: "a", Value: "b"}}},
	{name: "huffman-empty-strings", reason: "zero-length Huffman name and value",
		block: "00 80 80", want: []oracle.Field{{}}},
	{name: "literal-dynamic-name", reason: "a literal naming the newest dynamic entry (62)",
		prelude: []string{"40 01 61 01 62"}, block: "0f 2f 01 63", want: []oracle.Field{{Name: "a", Value: "c"}}},
	{name: "empty-name", reason: "RFC 7541 allows an empty name",
		block: "00 00 01 61", want: []oracle.Field{{Value: "a"}}},
	{name: "empty-entry", reason: "an entry with empty name and value is 32 octets",
		block: "40 00 00 be", want: []oracle.Field{{}, {}}},
	{name: "any-octets", reason: "HPACK strings are octets: NUL, 0xff, LF and upper case are HTTP's business, not HPACK's",
		block: "00 02 41 42 03 00 ff 0a", want: []oracle.Field{{Name: "AB", Value: "\x00\xff\n"}}},
	{name: "entry-fills-table", reason: "an entry of exactly the table's maximum size (4096) is kept",
		block: "40 01 61 7f e0 1e" + strings.Repeat("78", 4063) + " be", want: []oracle.Field{{Name: "a", Value: strings.Repeat("x", 4063)}, {Name: "a", Value: strings.Repeat("x", 4063)}}},
	{name: "giant-value", reason: "a 100,000-octet value with the header-list limits off",
		noListLimit: true, block: "00 01 67 7f a1 8c 06" + strings.Repeat("76", 100000), want: []oracle.Field{{Name: "g", Value: strings.Repeat("v", 100000)}}},
	{name: "huffman-7-bit-padding", reason: "'0' padded with three ones",
		block: "00 81 07 81 07", want: []oracle.Field{{Name: "0", Value: "0"}}},
	{name: "never-indexed", reason: "§6.2.3 is reported as Sensitive",
		block: "10 01 61 01 62", want: []oracle.Field{{Name: "a", Value: "b", Sensitive: true}}},
	{name: "large-update", reason: "a size update to 16 MiB + 1 within a setting of as much: RFC 7541 sets no bound, and the table's memory need not follow it",
		acked: []uint32{16<<20 + 1}, block: "3f e2 ff ff 07 82", want: []oracle.Field{get}},
	{name: "entry-larger-than-table", reason: "an entry larger than the table empties it and is not added (§4.4)",
		prelude: []string{"40 01 61 01 62"}, acked: []uint32{100}, block: "3f 45 40 01 63 44 " + strings.Repeat("78", 68), want: []oracle.Field{{Name: "c", Value: strings.Repeat("x", 68)}}},
}

func TestAgreementCases(t *testing.T) {
	for _, tc := range agreementCases {
		for _, d := range decoders(t) {
			t.Run(tc.name+"/"+d.Name(), func(t *testing.T) {
				checkAgreementCase(t, tc, d)
			})
		}
	}
}

// listLimiter is implemented by the oracles with a header-list limit.
type listLimiter interface{ SetMaxHeaderListSize(n int) }

func checkAgreementCase(t *testing.T, tc agreementCase, d oracle.Decoder) {
	if l, ok := d.(listLimiter); ok && tc.noListLimit {
		l.SetMaxHeaderListSize(0)
	}
	for _, p := range tc.prelude {
		if _, err := d.DecodeBlock(unhex(p)); err != nil {
			t.Fatalf("prelude block: %v", err)
		}
	}
	for _, n := range tc.acked {
		d.SetMaxDynamicTableSize(n)
	}
	got, err := d.DecodeBlock(unhex(tc.block))
	forbidden := tc.section != ""

	if d.Name() == strict.Name {
		var e *strict.Error
		switch {
		case forbidden && !errors.As(err, &e):
			t.Fatalf("strict: got %+v, %v; want an *strict.Error in §%s (%s)", got, err, tc.section, tc.reason)
		case forbidden && e.Section != tc.section:
			t.Fatalf("strict: got %v; want an error in §%s (%s)", err, tc.section, tc.reason)
		case !forbidden && err != nil:
			t.Fatalf("strict: %v; want success (%s)", err, tc.reason)
		}
	}

	l, known := oracle.LookupLeniency(d.Name(), tc.name)
	rejected := err != nil
	switch {
	case rejected == forbidden && known:
		t.Errorf("%s now agrees with RFC 7541 (error %v); remove its KnownLeniencies entry %q", d.Name(), err, l.Reason)
	case rejected == forbidden:
		// Agrees with the RFC.
	case !known && forbidden:
		t.Errorf("%s accepts the block (%+v), which strict rejects under RFC 7541 §%s (%s); fix the oracle or add a KnownLeniencies entry", d.Name(), got, tc.section, tc.reason)
	case !known:
		t.Errorf("%s rejects the block, which RFC 7541 allows (%s): %v; fix the oracle or add a KnownLeniencies entry", d.Name(), tc.reason, err)
	case forbidden && l.Kind == oracle.RejectsAllowed, !forbidden && l.Kind != oracle.RejectsAllowed:
		t.Errorf("KnownLeniencies entry for %s says %v; the oracle %s the block", d.Name(), l.Kind, map[bool]string{true: "rejects", false: "accepts"}[rejected])
	}
	if rejected || forbidden {
		// A forbidden block a lenient oracle accepts has no reference
		// outcome: strict rejects it.
		return
	}
	if s := diff(got, tc.want); s != "" {
		t.Errorf("fields: %s", s)
	}
	// The table must match strict's after the same input.
	ref := strict.New()
	ref.SetMaxHeaderListSize(0)
	for _, p := range tc.prelude {
		if _, err := ref.DecodeBlock(unhex(p)); err != nil {
			t.Fatalf("strict reference, prelude: %v", err)
		}
	}
	for _, n := range tc.acked {
		ref.SetMaxDynamicTableSize(n)
	}
	if _, err := ref.DecodeBlock(unhex(tc.block)); err != nil {
		t.Fatalf("strict reference: %v", err)
	}
	if s := diff(d.Table(), ref.Table()); s != "" {
		t.Errorf("table differs from strict's: %s", s)
	}
}

// TestKnownLeniencies checks the table itself: every entry names a case of
// this file, and the kind and section match the case.
func TestKnownLeniencies(t *testing.T) {
	for _, l := range oracle.KnownLeniencies {
		i := slices.IndexFunc(agreementCases, func(c agreementCase) bool { return c.name == l.Case })
		if i < 0 {
			t.Errorf("KnownLeniencies entry %s/%s names no agreement case", l.Oracle, l.Case)
			continue
		}
		tc := agreementCases[i]
		if l.Oracle == strict.Name {
			t.Errorf("KnownLeniencies lists strict for %s; strict has no leniencies by definition", l.Case)
		}
		if (tc.section != "") == (l.Kind == oracle.RejectsAllowed) {
			t.Errorf("KnownLeniencies %s/%s: kind %v, but the case is %s", l.Oracle, l.Case, l.Kind, map[bool]string{true: "forbidden", false: "allowed"}[tc.section != ""])
		}
		if tc.section != "" && l.Section != tc.section {
			t.Errorf("KnownLeniencies %s/%s: section %s; the case's strict error is in §%s", l.Oracle, l.Case, l.Section, tc.section)
		}
		if l.Reason == "" {
			t.Errorf("KnownLeniencies %s/%s has no reason", l.Oracle, l.Case)
		}
		if _, ok := oracle.LookupLeniency(l.Oracle, l.Case); !ok {
			t.Errorf("LookupLeniency(%q, %q) finds nothing", l.Oracle, l.Case)
		}
	}
}
