package property

import (
	"math/rand"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
)

// genField is one field of a generated block, with how it is handed to the
// encoder.
type genField struct {
	Name, Value string
	Sensitive   bool
	// Bytes selects AppendField ([]byte arguments) over AppendFieldString.
	Bytes bool
}

// Pools of repeating names and values: repeats are what make a dynamic
// table useful, so generated blocks draw from small pools most of the time.
var (
	poolNames = []string{"x-a", "x-b", "x-request-id", "user-agent", "accept", "x-trace", "custom-key", "grpc-timeout"}
	// policyNames are the names an indexing policy is likely to single out.
	policyNames = []string{"authorization", "proxy-authorization", "cookie", "set-cookie", "content-length", "etag", ":path", "age", "date", "if-none-match", "location", "last-modified"}
	poolValues  = []string{"", "0", "1", "a", "gzip, deflate", "text/html; charset=utf-8", "custom-value", "/index.html", "/search?q=hpack", "Basic dXNlcjpwYXNz", "no-cache", "&&&&&&&&"}
)

// randomOctets returns n octets drawn from all 256 values.
func randomOctets(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Intn(256))
	}
	return string(b)
}

// randomText returns n printable ASCII octets.
func randomText(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(' ' + rng.Intn(95))
	}
	return string(b)
}

// fieldSource is what the field generator knows about the connection: the
// entries in the table (to repeat them) and the table sizes (to exceed them).
type fieldSource struct {
	capacity uint32
	maxSize  uint32
	table    []oracle.Field
}

// pickName draws a name from the mix of sources.
func (src fieldSource) pickName(rng *rand.Rand) (name string, staticIndex int) {
	switch r := rng.Intn(100); {
	case r < 30:
		i := rng.Intn(spec.StaticTableLen)
		return spec.StaticTable[i].Name, i + 1
	case r < 50:
		return poolNames[rng.Intn(len(poolNames))], 0
	case r < 65:
		return policyNames[rng.Intn(len(policyNames))], 0
	case r < 90:
		return randomText(rng, 1+rng.Intn(12)), 0
	case r < 98:
		return randomOctets(rng, 1+rng.Intn(12)), 0
	default:
		return "", 0
	}
}

// pickValue draws a value for name.
func (src fieldSource) pickValue(rng *rand.Rand, name string, staticIndex int) string {
	switch r := rng.Intn(100); {
	case r < 15 && staticIndex > 0:
		return spec.StaticTable[staticIndex-1].Value
	case r < 40:
		return poolValues[rng.Intn(len(poolValues))]
	case r < 50:
		return ""
	case r < 62:
		// Around the 20-octet line the default policy draws for cookies.
		return randomText(rng, 15+rng.Intn(10))
	case r < 78:
		return randomText(rng, rng.Intn(60))
	case r < 93:
		return randomOctets(rng, rng.Intn(40))
	default:
		return src.giantValue(rng, name)
	}
}

// giantValue returns a value whose entry cannot fit the table: larger than
// the current maximum size, and most of the time than the capacity.
func (src fieldSource) giantValue(rng *rand.Rand, name string) string {
	limit := src.maxSize
	if rng.Intn(2) == 0 {
		limit = src.capacity
	}
	n := int(limit) - len(name) - spec.EntryOverhead + 1 + rng.Intn(64)
	return strings.Repeat(string(rune('a'+rng.Intn(26))), max(n, 1))
}

// field draws one field.
func (src fieldSource) field(rng *rand.Rand) genField {
	var f genField
	if len(src.table) > 0 && rng.Intn(100) < 25 {
		// Repeat a table entry: a full match most of the time, a name
		// match otherwise.
		e := src.table[rng.Intn(len(src.table))]
		f.Name, f.Value = e.Name, e.Value
		if rng.Intn(4) == 0 {
			f.Value = src.pickValue(rng, e.Name, 0)
		}
	} else {
		name, si := src.pickName(rng)
		f.Name, f.Value = name, src.pickValue(rng, name, si)
	}
	f.Sensitive = rng.Intn(10) == 0
	f.Bytes = rng.Intn(2) == 0
	return f
}

// shrinkField proposes simpler versions of a field: not sensitive, through
// the string API, an empty or halved value, and printable ASCII in place of
// other octets (which story files, being JSON, cannot carry exactly).
func shrinkField(v interface{}) gopter.Shrink {
	f := v.(genField)
	var cands []genField
	add := func(g genField) {
		if g != f {
			cands = append(cands, g)
		}
	}
	g := f
	g.Sensitive = false
	add(g)
	g = f
	g.Bytes = false
	add(g)
	if f.Value != "" {
		g = f
		g.Value = ""
		add(g)
		g = f
		g.Value = f.Value[:len(f.Value)/2]
		add(g)
	}
	g = f
	g.Name, g.Value = asciiOnly(f.Name), asciiOnly(f.Value)
	add(g)
	i := 0
	return func() (interface{}, bool) {
		if i >= len(cands) {
			return nil, false
		}
		i++
		return cands[i-1], true
	}
}

// asciiOnly replaces every octet outside printable ASCII with 'a'.
func asciiOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r > '~' {
			return 'a'
		}
		return r
	}, s)
}

// shrinkFields shrinks a block: fewer fields, then simpler fields.
var shrinkFields = gen.SliceShrinker(shrinkField)

// genSizes draws the SETTINGS_HEADER_TABLE_SIZE values a peer acks between
// two blocks: one value or a down-then-up pair or a run of three, with 0,
// values above the capacity and the capacity itself over-represented.
func genSizes(rng *rand.Rand, capacity uint32) []uint32 {
	one := func() uint32 {
		switch r := rng.Intn(100); {
		case r < 15:
			return 0
		case r < 30:
			return capacity
		case r < 40:
			return spec.DefaultTableSize
		case r < 55:
			return capacity + 1 + uint32(rng.Intn(int(capacity)+1))
		case r < 60:
			return 1<<32 - 1
		default:
			return uint32(rng.Intn(int(capacity) + 1))
		}
	}
	switch r := rng.Intn(100); {
	case r < 50:
		return []uint32{one()}
	case r < 85:
		// Down then up: §4.2 wants the smallest, then the final size.
		down := uint32(0)
		if rng.Intn(2) == 0 {
			down = uint32(rng.Intn(int(capacity)/2 + 1))
		}
		return []uint32{down, max(one(), down+1)}
	default:
		return []uint32{one(), one(), one()}
	}
}

// shrinkSizes shrinks a list of sizes: fewer of them, then smaller ones.
var shrinkSizes = gen.SliceShrinker(gen.UInt32Shrinker)
