package inprocess

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/vectors"
)

// newContext opens a fresh context of the built-in decoder name.
func newContext(t *testing.T, name string) certify.Decoder {
	t.Helper()
	target, err := BuiltinDecoder(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := target.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestBuiltinDecoderNames(t *testing.T) {
	names := BuiltinDecoderNames()
	if len(names) < 3 || names[0] != "strict" || names[1] != "xnet" || !slices.Contains(names, "ref") {
		t.Fatalf("BuiltinDecoderNames() = %q; want strict, xnet first, and ref", names)
	}
	for _, name := range names {
		target, err := BuiltinDecoder(name)
		if err != nil {
			t.Errorf("BuiltinDecoder(%q): %v", name, err)
			continue
		}
		if target.Name() == "" {
			t.Errorf("BuiltinDecoder(%q).Name() is empty", name)
		}
	}
	_, err := BuiltinDecoder("nope")
	if err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "strict, xnet") {
		t.Errorf("BuiltinDecoder(\"nope\") error = %v; want one naming it and the known decoders", err)
	}
	if !slices.Contains(names, "nghttp2") {
		_, err := BuiltinDecoder("nghttp2")
		if err == nil || !strings.Contains(err.Error(), "-tags nghttp2") {
			t.Errorf("BuiltinDecoder(\"nghttp2\") without the tag: error = %v; want one saying to build with -tags nghttp2", err)
		}
	}
}

// TestDecodersAppendixC decodes RFC 7541 C.3 to C.6 with every built-in
// decoder: the header lists, and the tables where the decoder shows them.
func TestDecodersAppendixC(t *testing.T) {
	for _, name := range BuiltinDecoderNames() {
		for _, seq := range vectors.RFCAppendixC() {
			t.Run(name+"/"+seq.Section, func(t *testing.T) {
				d := newContext(t, name)
				var first []byte
				if seq.TableSize != 4096 {
					// C.5 and C.6 assume a table of 256 from the start: a
					// fresh context is lowered to it by the setting, and
					// the first block begins with the update that needs.
					if err := d.SetMaxDynamicTableSize(seq.TableSize); err != nil {
						t.Fatal(err)
					}
					first = appendSizeUpdate(first, seq.TableSize)
				}
				for i, step := range seq.Steps {
					block := step.Wire
					if i == 0 {
						block = append(first, block...)
					}
					got, err := d.DecodeBlock(block)
					if err != nil {
						t.Fatalf("%s: %v", step.Section, err)
					}
					if !slices.Equal(got, step.Headers) {
						t.Errorf("%s: decoded\n%+v\nwant\n%+v", step.Section, got, step.Headers)
					}
					tr, ok := d.(certify.DecoderTableReader)
					if !ok {
						continue
					}
					table, err := tr.DecoderTable()
					if err != nil {
						t.Fatalf("%s: DecoderTable: %v", step.Section, err)
					}
					if !slices.Equal(table, step.Table) {
						t.Errorf("%s: table\n%+v\nwant\n%+v", step.Section, table, step.Table)
					}
				}
			})
		}
	}
}

// TestDecodersReject checks that each decoding error comes back as a
// rejection, not a breakdown, and that the context stays dead after it.
func TestDecodersReject(t *testing.T) {
	blocks := []struct {
		label string
		block []byte
	}{
		{"index 0 (§6.1)", []byte{0x80}},
		{"index 62 with an empty table (§2.3.3)", []byte{0x80 | 62}},
		{"string past the end (§5.2)", []byte{0x00, 0x05, 'a'}},
		{"size update above 4096 (§6.3)", appendSizeUpdate(nil, 4097)},
	}
	for _, name := range BuiltinDecoderNames() {
		for _, b := range blocks {
			t.Run(name+"/"+b.label, func(t *testing.T) {
				d := newContext(t, name)
				fields, err := d.DecodeBlock(b.block)
				if !certify.Rejected(err) {
					t.Fatalf("DecodeBlock(% x) = %+v, %v; want a *certify.Rejection", b.block, fields, err)
				}
				if _, err := d.DecodeBlock([]byte{0x82}); !certify.Rejected(err) {
					t.Errorf("DecodeBlock after a rejection: %v; want a rejection (the context is dead)", err)
				}
			})
		}
	}
}

// TestDecodersHeaderListLimit decodes a block of 100 fields of 42
// octets each (":method: GET", index 2) under limits of 1000, 5000 and
// none.
func TestDecodersHeaderListLimit(t *testing.T) {
	block := bytes.Repeat([]byte{0x82}, 100)
	for _, name := range BuiltinDecoderNames() {
		t.Run(name, func(t *testing.T) {
			for _, limit := range []uint32{1000, 4199} {
				d := newContext(t, name)
				if err := d.SetMaxHeaderListSize(limit); err != nil {
					t.Fatal(err)
				}
				if fields, err := d.DecodeBlock(block); !certify.Rejected(err) {
					t.Errorf("limit %d: decoded %d fields, error %v; want a rejection of the 4200-octet list", limit, len(fields), err)
				}
			}
			for _, limit := range []uint32{4200, 0} {
				d := newContext(t, name)
				if err := d.SetMaxHeaderListSize(limit); err != nil {
					t.Fatal(err)
				}
				if fields, err := d.DecodeBlock(block); err != nil || len(fields) != 100 {
					t.Errorf("limit %d: decoded %d fields, error %v; want 100 fields", limit, len(fields), err)
				}
			}
		})
	}
}

// TestDecodersBomb checks that a 4000-octet entry referenced 100,000
// times (400 MB of header list from 104 KB of wire) is refused under a
// limit of 64 KiB.
func TestDecodersBomb(t *testing.T) {
	block := encoder.AppendInteger([]byte{0x40, 0x06, 'x', '-', 'b', 'o', 'm', 'b'}, 0, 7, 4000) // with incremental indexing (§6.2.1), new name
	block = append(block, bytes.Repeat([]byte{'a'}, 4000)...)
	block = append(block, bytes.Repeat([]byte{0x80 | 62}, 100_000)...)
	if fields, err := NewStrictDecoder().DecodeBlock(block); err != nil || len(fields) != 100_001 {
		t.Fatalf("without a limit: %d fields, error %v; want the 100,001 fields of a valid block", len(fields), err)
	}
	for _, name := range BuiltinDecoderNames() {
		t.Run(name, func(t *testing.T) {
			d := newContext(t, name)
			if err := d.SetMaxHeaderListSize(64 << 10); err != nil {
				t.Fatal(err)
			}
			if fields, err := d.DecodeBlock(block); !certify.Rejected(err) {
				t.Errorf("decoded %d fields, error %v; want a rejection", len(fields), err)
			}
		})
	}
}

// TestDecodersSensitive checks that a never-indexed literal comes back
// Sensitive, and the other literals do not.
func TestDecodersSensitive(t *testing.T) {
	block := []byte{
		0x10, 0x08, 'p', 'a', 's', 's', 'w', 'o', 'r', 'd', 0x06, 's', 'e', 'c', 'r', 'e', 't', // never indexed, new name (§6.2.3)
		0x1f, 0x08, 0x01, 'x', // never indexed, name "authorization" (index 23)
		0x00, 0x01, 'a', 0x01, 'b', // without indexing (§6.2.2)
		0x40, 0x01, 'c', 0x01, 'd', // with incremental indexing (§6.2.1)
	}
	want := []certify.Field{
		{Name: "password", Value: "secret", Sensitive: true},
		{Name: "authorization", Value: "x", Sensitive: true},
		{Name: "a", Value: "b"},
		{Name: "c", Value: "d"},
	}
	for _, name := range BuiltinDecoderNames() {
		t.Run(name, func(t *testing.T) {
			got, err := newContext(t, name).DecodeBlock(block)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
			}
		})
	}
}

// TestGuard checks that a panic inside a library call becomes a plain
// error naming the library and the panic, not a rejection.
func TestGuard(t *testing.T) {
	_, err := guard("lib", func() ([]certify.Field, error) { panic("boom") })
	if err == nil || certify.Rejected(err) || !strings.Contains(err.Error(), "lib") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("guard of a panic: %v; want a plain error naming lib and boom", err)
	}
	want := errors.New("plain")
	if _, err := guard("lib", func() (int, error) { return 1, want }); err != want {
		t.Errorf("guard of an error: %v; want it unchanged", err)
	}
}

// appendSizeUpdate appends a "Dynamic Table Size Update" to n (RFC 7541
// §6.3).
func appendSizeUpdate(dst []byte, n uint32) []byte {
	return encoder.AppendInteger(dst, 0x20, 5, uint64(n))
}
