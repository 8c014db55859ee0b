package strict

import (
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/vectors"
)

// unhex decodes hex with optional spaces, failing the test on bad input.
func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q in test table: %v", s, err)
	}
	return b
}

// violations lists one block per rule the decoder enforces, with the
// settings acknowledged before it and the error it must produce.
var violations = []struct {
	name    string
	reason  string   // why the block breaks the RFC
	acked   []uint32 // SetMaxDynamicTableSize calls before the block
	limit   int      // header-list limit, 0 for the default
	block   string
	offset  int
	section string
	text    string // a fragment of Error.Reason
}{
	{name: "index-0", reason: "index 0 is not used (§6.1)",
		block: "80", offset: 0, section: "6.1", text: "index 0"},
	{name: "index-0-after-field", reason: "the offset points at the second representation",
		block: "82 80", offset: 1, section: "6.1", text: "index 0"},
	{name: "index-62-empty-table", reason: "the dynamic table is empty, so 62 is past the end (§2.3.3)",
		block: "be", offset: 0, section: "2.3.3", text: "index 62"},
	{name: "index-126-h2spec", reason: "h2spec's invalid index after common headers",
		block: "82 86 84 fe", offset: 3, section: "2.3.3", text: "index 126"},
	{name: "literal-name-index-62", reason: "a literal's name reference is checked like an indexed field",
		block: "7e 01 61", offset: 0, section: "2.3.3", text: "index 62"},
	{name: "literal-noindex-name-index-62", reason: "4-bit prefix: 15 + 47 = 62",
		block: "0f 2f 01 61", offset: 0, section: "2.3.3", text: "index 62"},
	{name: "size-update-after-field", reason: "updates must come at the beginning of the block (§4.2)",
		block: "82 20", offset: 1, section: "4.2", text: "after a header field"},
	{name: "size-update-end-h2spec", reason: "h2spec: update to 1 at the end of the block",
		block: "82 86 84 41 8a a0 e4 1d 13 9d 09 b8 f0 1e 07 21", offset: 15, section: "4.2", text: "after a header field"},
	{name: "size-update-above-setting", reason: "4097 is above the acknowledged 4096 (§6.3)",
		block: "3f e2 1f 82", offset: 0, section: "6.3", text: "4097 exceeds the acknowledged SETTINGS_HEADER_TABLE_SIZE 4096"},
	{name: "size-update-above-last-acked", reason: "8192 was acked earlier in the interval, but 1024 is the last acked value",
		acked: []uint32{8192, 1024}, block: "3f e1 1f 82", offset: 0, section: "6.3", text: "exceeds"},
	{name: "second-size-update-above-setting", reason: "every update is bounded, not only the first",
		block: "20 3f e2 1f", offset: 1, section: "6.3", text: "4097"},
	{name: "setting-down-no-update", reason: "the table's maximum 4096 is above the new setting 2048, so the block must begin with an update",
		acked: []uint32{2048}, block: "82", offset: 0, section: "4.2", text: "must begin with a dynamic table size update to at most 2048"},
	{name: "setting-down-up-no-update", reason: "the setting went down to 2048 and back up: the minimum must still be signaled",
		acked: []uint32{2048, 4096}, block: "82", offset: 0, section: "4.2", text: "at most 2048"},
	{name: "setting-down-up-empty-block", reason: "even an empty block must carry the update",
		acked: []uint32{0, 4096}, block: "", offset: 0, section: "4.2", text: "at most 0"},
	{name: "setting-down-up-update-too-big", reason: "the only update, 2048, is above the smallest acked value 1024",
		acked: []uint32{1024, 4096}, block: "3f e1 0f 82", offset: 0, section: "4.2", text: "first dynamic table size update of this block is 2048"},
	{name: "setting-down-up-final-then-min", reason: "the smallest acked size, 1024, is signaled second: §4.2 wants it at the beginning",
		acked: []uint32{1024, 4096}, block: "3f e1 1f 3f e1 07", offset: 0, section: "4.2", text: "signaled first"},
	{name: "huffman-padding-over-7-bits", reason: "h2spec: an extra all-ones octet makes 8+ bits of padding (§5.2)",
		block: "00 85 f2 b2 4a 84 ff 84 49 50 9f ff", offset: 11, section: "5.2", text: "at most 7"},
	{name: "huffman-zero-padding", reason: "h2spec: padding must be ones, the most significant bits of EOS (§5.2)",
		block: "00 85 f2 b2 4a 84 ff 83 49 50 90", offset: 10, section: "5.2", text: "not all ones"},
	{name: "huffman-eos", reason: "the 30-bit EOS code as a value (§5.2)",
		block: "00 85 f2 b2 4a 84 ff 84 ff ff ff fc", offset: 11, section: "5.2", text: "EOS"},
	{name: "huffman-eos-h2spec", reason: "h2spec's EOS case: its name takes the first five octets after 0x85, so the value length is read from 0xff ff ff fd 25 and runs past the end",
		block: "00 85 f2 b2 4a 87 ff ff ff fd 25 42 7f", offset: 7, section: "5.2", text: "runs past the end"},
	{name: "huffman-eos-in-name", reason: "EOS is rejected in names too",
		block: "00 84 ff ff ff fc 00", offset: 5, section: "5.2", text: "EOS"},
	{name: "integer-overflow", reason: "127 + 0x7f*(1+2^7+2^14+2^21) + 15*2^28 is above 2^32-1 (§5.1)",
		block: "ff ff ff ff ff 0f", offset: 0, section: "5.1", text: "2^32-1"},
	{name: "integer-too-many-octets", reason: "a sixth continuation octet is never needed below 2^32",
		block: "ff 80 80 80 80 80 00", offset: 0, section: "5.1", text: "continuation octets"},
	{name: "integer-truncated", reason: "the block ends inside the continuation octets",
		block: "82 ff 80", offset: 1, section: "5.1", text: "cut off"},
	{name: "integer-truncated-prefix-full", reason: "a full prefix promises at least one more octet",
		block: "ff", offset: 0, section: "5.1", text: "cut off"},
	{name: "string-past-end", reason: "length 5 but one octet left (§5.2)",
		block: "40 05 61", offset: 1, section: "5.2", text: "runs past the end"},
	{name: "string-missing-value", reason: "the block ends after the name",
		block: "40 01 61", offset: 3, section: "5.2", text: "block ends"},
	{name: "string-length-truncated", reason: "a string length integer cut off",
		block: "40 7f", offset: 1, section: "5.1", text: "cut off"},
	{name: "header-list-limit", reason: "three :method GET fields are 3*42 = 126 octets, over a limit of 100",
		limit: 100, block: "82 82 82", offset: 2, section: "7.3", text: "HPACK-bomb"},
}

func TestDecodeBlockViolations(t *testing.T) {
	for _, tc := range violations {
		t.Run(tc.name, func(t *testing.T) {
			d := New()
			if tc.limit != 0 {
				d.SetMaxHeaderListSize(tc.limit)
			}
			for _, n := range tc.acked {
				d.SetMaxDynamicTableSize(n)
			}
			fields, err := d.DecodeBlock(unhex(t, tc.block))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("DecodeBlock(%s) = %v, %v; want an *Error (%s)", tc.block, fields, err, tc.reason)
			}
			if e.Offset != tc.offset || e.Section != tc.section {
				t.Errorf("got offset %d, section %s; want offset %d, section %s (%s)\nerror: %v", e.Offset, e.Section, tc.offset, tc.section, tc.reason, e)
			}
			if !strings.Contains(e.Reason, tc.text) {
				t.Errorf("got reason %q; want it to contain %q", e.Reason, tc.text)
			}
			if fields != nil {
				t.Errorf("got fields %v with the error; want nil", fields)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	err := &Error{Offset: 12, Section: "6.1", Reason: "index 0 is not used"}
	if got, want := err.Error(), "hpack: offset 12: RFC 7541 §6.1: index 0 is not used"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

func TestBrokenAfterError(t *testing.T) {
	d := New()
	if _, err := d.DecodeBlock([]byte{0x80}); err == nil {
		t.Fatal("index 0 decoded without error")
	}
	_, err := d.DecodeBlock([]byte{0x82})
	if !errors.Is(err, ErrBroken) {
		t.Fatalf("got %v after an error; want ErrBroken", err)
	}
	var e *Error
	if errors.As(err, &e) {
		t.Errorf("ErrBroken unwraps to the earlier *Error %v; want the old offset kept out of errors.As", e)
	}
}

// valid lists blocks the RFC allows, some of them unusual, with the fields,
// updates and warnings they must produce.
var valid = []struct {
	name     string
	reason   string
	acked    []uint32
	limit    int
	block    string
	want     []oracle.Field
	updates  []uint32
	warnings []string // Warning.Reason fragments, in order
}{
	{name: "empty-block", reason: "a block with no representations is valid HPACK",
		block: "", want: nil},
	{name: "index-61", reason: "the last static entry",
		block: "bd", want: []oracle.Field{{Name: "www-authenticate"}}},
	{name: "never-indexed", reason: "§6.2.3 sets Sensitive",
		block: "10 01 61 01 62", want: []oracle.Field{{Name: "a", Value: "b", Sensitive: true}}},
	{name: "literal-name-index", reason: "name from the static table (:path), raw value",
		block: "04 02 2f 61", want: []oracle.Field{{Name: ":path", Value: "/a"}}},
	{name: "huffman-7-bit-padding", reason: "'0' is the 5-bit code 00000, padded with three ones",
		block: "00 81 07 81 07", want: []oracle.Field{{Name: "0", Value: "0"}}},
	{name: "huffman-empty", reason: "a zero-length Huffman string has no padding",
		block: "00 80 80", want: []oracle.Field{{}}},
	{name: "setting-down-update-to-min", reason: "update to the new lower setting",
		acked: []uint32{2048}, block: "3f e1 0f 82", want: []oracle.Field{{Name: ":method", Value: "GET"}}, updates: []uint32{2048}},
	{name: "setting-down-up-min-then-final", reason: "§4.2: the smallest, then the final size",
		acked: []uint32{1024, 4096}, block: "3f e1 07 3f e1 1f 82", want: []oracle.Field{{Name: ":method", Value: "GET"}}, updates: []uint32{1024, 4096}},
	{name: "setting-down-up-zero-then-final", reason: "a smaller update than required is fine",
		acked: []uint32{1024, 4096}, block: "20 3f e1 1f", updates: []uint32{0, 4096}},
	{name: "setting-down-above-table-max", reason: "the table was already at 1024, so a drop to 2048 needs no update",
		acked: []uint32{1024}, block: "3f e1 07", updates: []uint32{1024}},
	{name: "setting-up-no-update", reason: "a rise needs no update: the encoder may keep the smaller table",
		acked: []uint32{8192}, block: "82", want: []oracle.Field{{Name: ":method", Value: "GET"}}},
	{name: "setting-up-update", reason: "an update up to the new setting",
		acked: []uint32{8192}, block: "3f e1 3f", updates: []uint32{8192}},
	{name: "update-without-setting", reason: "an encoder may shrink its table any time, at a block start",
		block: "20 82", want: []oracle.Field{{Name: ":method", Value: "GET"}}, updates: []uint32{0}},
	{name: "three-updates", reason: "legal, but more than the two §4.2 needs",
		block: "20 3f e1 1f 3f e1 0f", updates: []uint32{0, 4096, 2048},
		warnings: []string{"more than two"}},
	{name: "larger-update-first", reason: "legal, but §4.2 signals the smallest first",
		block: "3f e1 0f 20", updates: []uint32{2048, 0},
		warnings: []string{"not the smallest"}},
	{name: "integer-five-continuation-octets", reason: "overlong but within the octet limit: 31 + 1",
		block: "3f 81 80 80 80 00", updates: []uint32{32}},
	{name: "integer-max-value", reason: "2^32-1 itself is accepted (index lookups then fail; here a size update bound by the setting)",
		acked: []uint32{4294967295}, block: "3f e0 ff ff ff 0f", updates: []uint32{4294967295}},
	{name: "header-list-at-limit", reason: "exactly 2*42 = 84 octets is within a limit of 84",
		limit: 84, block: "82 82", want: []oracle.Field{{Name: ":method", Value: "GET"}, {Name: ":method", Value: "GET"}}},
}

func TestDecodeBlockValid(t *testing.T) {
	for _, tc := range valid {
		t.Run(tc.name, func(t *testing.T) {
			d := New()
			if tc.limit != 0 {
				d.SetMaxHeaderListSize(tc.limit)
			}
			for _, n := range tc.acked {
				d.SetMaxDynamicTableSize(n)
			}
			got, err := d.DecodeBlock(unhex(t, tc.block))
			if err != nil {
				t.Fatalf("DecodeBlock(%s): %v; want success (%s)", tc.block, err, tc.reason)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got fields %+v; want %+v", got, tc.want)
			}
			if updates := d.Updates(); !slices.Equal(updates, tc.updates) {
				t.Errorf("got updates %v; want %v", updates, tc.updates)
			}
			warnings := d.Warnings()
			if len(warnings) != len(tc.warnings) {
				t.Fatalf("got warnings %v; want %d matching %q", warnings, len(tc.warnings), tc.warnings)
			}
			for i, w := range warnings {
				if w.Section != "4.2" || !strings.Contains(w.Reason, tc.warnings[i]) {
					t.Errorf("warning %d: got %v; want §4.2 containing %q", i, w, tc.warnings[i])
				}
			}
		})
	}
}

func BenchmarkDecodeBlock(b *testing.B) {
	for _, seq := range vectors.RFCAppendixC() {
		b.Run(seq.Section, func(b *testing.B) {
			n := 0
			for _, step := range seq.Steps {
				n += len(step.Wire)
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				d := New()
				if seq.TableSize != spec.DefaultTableSize {
					// C.5 and C.6 start with a smaller table: set it by
					// the setting and the update §4.2 then requires.
					d.SetMaxDynamicTableSize(seq.TableSize)
					if _, err := d.DecodeBlock(appendSizeUpdate(nil, seq.TableSize)); err != nil {
						b.Fatal(err)
					}
				}
				for _, step := range seq.Steps {
					if _, err := d.DecodeBlock(step.Wire); err != nil {
						b.Fatalf("%s: %v", step.Section, err)
					}
				}
			}
		})
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
