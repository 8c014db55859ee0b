package qencoder

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/quic-go/qpack"
)

// decodeQuicGo decodes section with quic-go/qpack's decoder, which knows
// the static table only: the sections of this package need no more.
func decodeQuicGo(section []byte) ([]spec.Field, error) {
	next := qpack.NewDecoder().Decode(section)
	var out []spec.Field
	for {
		hf, err := next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, spec.Field{Name: hf.Name, Value: hf.Value})
	}
}

// checkSection encodes fields with enc and checks that quic-go/qpack
// decodes the section to them, that qspec walks it with a prefix of zeros,
// and that exactly the fields wantNever reports carry the N bit.
func checkSection(t *testing.T, enc *Encoder, fields []spec.Field, wantNever func(spec.Field) bool) {
	t.Helper()
	section, encStream := enc.AppendSection(nil, nil, 1, fields)
	if len(encStream) != 0 {
		t.Fatalf("a static-only encoder wrote encoder-stream octets %x", encStream)
	}
	if len(section) > MaxSectionLen(fields) {
		t.Fatalf("section of %d octets above MaxSectionLen %d", len(section), MaxSectionLen(fields))
	}
	got, err := decodeQuicGo(section)
	if err != nil {
		t.Fatalf("quic-go/qpack: %v on %x (fields %+v)", err, section, fields)
	}
	if len(got) != len(fields) {
		t.Fatalf("quic-go/qpack decoded %d fields, want %d (%x)", len(got), len(fields), section)
	}
	pf, lines, err := qspec.WalkSection(section, len(fields))
	if err != nil {
		t.Fatalf("qspec.WalkSection: %v on %x", err, section)
	}
	if pf != (qspec.Prefix{}) {
		t.Errorf("prefix %+v, want Required Insert Count 0 and Base 0", pf)
	}
	for i, f := range fields {
		if got[i].Name != f.Name || got[i].Value != f.Value {
			t.Errorf("field %d decoded as %q: %q, want %q: %q", i, got[i].Name, got[i].Value, f.Name, f.Value)
		}
		l := lines[i]
		if l.Kind == qspec.IndexedPostBase || l.Kind == qspec.LiteralPostBaseRef || (l.Kind != qspec.LiteralName && !l.Static) {
			t.Errorf("field %d: %v with T=%v refers to the dynamic table", i, l.Kind, l.Static)
		}
		if l.Kind != qspec.Indexed {
			checkHuffman(t, i, "value", l.Value, f.Value)
		}
		if l.Kind == qspec.LiteralName {
			checkHuffman(t, i, "name", l.Name, f.Name)
		}
		if want := wantNever(f); l.NeverIndexed != want {
			t.Errorf("field %d %q: %q sent as %v with N=%v, want N=%v", i, f.Name, f.Value, l.Kind, l.NeverIndexed, want)
		}
	}
}

// checkHuffman checks that a string literal of field i is Huffman coded
// exactly when that is strictly shorter, by encoder.HuffmanLen's count.
func checkHuffman(t *testing.T, i int, what string, got qspec.String, s string) {
	t.Helper()
	if want := encoder.HuffmanLen([]byte(s)) < len(s); got.Huffman != want {
		t.Errorf("field %d: %s %q sent with H=%v, want H=%v (Huffman only when shorter)", i, what, s, got.Huffman, want)
	}
}

// defaultNever is the N-bit rule of the package doc under a zero Config.
func defaultNever(f spec.Field) bool {
	if f.Sensitive {
		return true
	}
	if _, _, _, exact := staticLookup(f.Name, f.Value); exact {
		return false
	}
	return f.Name == "authorization" || f.Name == "proxy-authorization" || (f.Name == "cookie" && len(f.Value) < 20)
}

// TestStaticEntries sends every entry of the static table, alone and as
// one section, and checks each goes as an "Indexed Field Line" of its own
// index (the first such entry, for a repeated one there is none).
func TestStaticEntries(t *testing.T) {
	enc := New(Config{})
	all := make([]spec.Field, 0, len(qspec.StaticTable))
	for i, f := range qspec.StaticTable {
		section, _ := enc.AppendSection(nil, nil, 1, []spec.Field{f})
		_, lines, err := qspec.WalkSection(section, 1)
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if l := lines[0]; l.Kind != qspec.Indexed || !l.Static || l.Index != uint64(i) {
			t.Errorf("entry %d %q: %q sent as %v T=%v index %d, want static indexed %d", i, f.Name, f.Value, l.Kind, l.Static, l.Index, i)
		}
		all = append(all, f)
	}
	checkSection(t, enc, all, defaultNever)
}

// TestRepresentations pins the line of each kind of field, octet by octet.
func TestRepresentations(t *testing.T) {
	enc := New(Config{})
	for _, c := range []struct {
		field spec.Field
		want  string // hex of the section
	}{
		// §4.5.2: ":method: GET" is static entry 17.
		{spec.Field{Name: ":method", Value: "GET"}, "0000d1"},
		// §4.5.4: ":path" by the name of entry 1, "x" raw (Huffman is
		// not shorter).
		{spec.Field{Name: ":path", Value: "x"}, "0000510178"},
		// §4.5.4 with N: a sensitive static field names its own entry,
		// 17 = 15 + 2 past the 4-bit prefix.
		{spec.Field{Name: ":method", Value: "GET", Sensitive: true}, "00007f02 03474554"},
		// §4.5.6: "ab": "c", raw, 3-bit name length.
		{spec.Field{Name: "ab", Value: "c"}, "000022616201 63"},
		// §4.5.6 with N: authorization is static (84), so a literal
		// name needs an unknown one, marked sensitive.
		{spec.Field{Name: "ab", Value: "c", Sensitive: true}, "000032616201 63"},
		// Huffman: "www.example.com" codes in 12 octets (RFC 7541 C.4.1).
		{spec.Field{Name: ":authority", Value: "www.example.com"}, "0000508cf1e3c2e5f23a6ba0ab90f4ff"},
	} {
		section, _ := enc.AppendSection(nil, nil, 1, []spec.Field{c.field})
		got := fmt.Sprintf("%x", section)
		if want := strings.ReplaceAll(c.want, " ", ""); got != want {
			t.Errorf("%q: %q (sensitive %v): %s, want %s", c.field.Name, c.field.Value, c.field.Sensitive, got, want)
		}
	}
}

// TestNeverIndexedRules checks the N bit of the name rules and of
// Sensitive, and that ShortCookieLen moves and turns off the cookie rule.
func TestNeverIndexedRules(t *testing.T) {
	fields := []spec.Field{
		{Name: "authorization", Value: "Bearer 0123456789abcdef0123456789abcdef"},
		{Name: "authorization", Value: ""}, // static 84: nothing to hide
		{Name: "proxy-authorization", Value: "Basic dXNlcjpwYXNz"},
		{Name: "cookie", Value: "id=42"},
		{Name: "cookie", Value: "session=0123456789abcdef0123456789"},
		{Name: "x-token", Value: "secret", Sensitive: true},
		{Name: ":path", Value: "/", Sensitive: true},
		{Name: "user-agent", Value: "curl/8.0"},
	}
	checkSection(t, New(Config{}), fields, defaultNever)
	checkSection(t, New(Config{ShortCookieLen: -1}), fields, func(f spec.Field) bool {
		return f.Name != "cookie" && defaultNever(f)
	})
	checkSection(t, New(Config{ShortCookieLen: 100}), fields, func(f spec.Field) bool {
		return f.Name == "cookie" || defaultNever(f)
	})
}

// TestRandomSections round-trips random sections through quic-go/qpack:
// static names and values, static names with other values, other names,
// octets of every value, lengths across the integer prefixes' limits.
func TestRandomSections(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 1))
	enc := New(Config{})
	runs := 500
	if testing.Short() {
		runs = 100
	}
	for range runs {
		fields := make([]spec.Field, rng.IntN(20))
		for i := range fields {
			fields[i] = randomField(rng)
		}
		checkSection(t, enc, fields, defaultNever)
	}
}

func randomField(rng *rand.Rand) spec.Field {
	entry := qspec.StaticTable[rng.IntN(qspec.StaticTableLen)]
	f := spec.Field{Sensitive: rng.IntN(8) == 0}
	switch rng.IntN(3) {
	case 0:
		f.Name, f.Value = entry.Name, entry.Value
	case 1:
		f.Name, f.Value = entry.Name, randomString(rng, "")
	default:
		f.Name, f.Value = randomString(rng, "abcdefghijklmnopqrstuvwxyz0123456789-"), randomString(rng, "")
		if f.Name == "" {
			f.Name = "x"
		}
	}
	return f
}

// randomString returns a string of octets from alphabet, or of any octet
// when alphabet is empty, of a length around the 3- and 7-bit prefix
// limits (7 and 127) or up to 300.
func randomString(rng *rand.Rand, alphabet string) string {
	lengths := []int{0, 1, 6, 7, 8, 126, 127, 128, rng.IntN(300)}
	b := make([]byte, lengths[rng.IntN(len(lengths))])
	for i := range b {
		if alphabet == "" {
			b[i] = byte(rng.IntN(256))
		} else {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
	}
	return string(b)
}

// FuzzAppendSection round-trips one arbitrary field, after a static one,
// through quic-go/qpack and qspec.
func FuzzAppendSection(f *testing.F) {
	f.Add("cookie", "id=1", false)
	f.Add(":path", "/index.html", true)
	f.Add("x-custom", "\x00\xff", false)
	enc := New(Config{})
	f.Fuzz(func(t *testing.T, name, value string, sensitive bool) {
		if name == "" {
			// quic-go/qpack reads an empty literal name as an error.
			name = "x"
		}
		checkSection(t, enc, []spec.Field{{Name: ":method", Value: "GET"}, {Name: name, Value: value, Sensitive: sensitive}}, defaultNever)
	})
}
