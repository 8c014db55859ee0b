package property

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
)

// churn is a long run of fields through a small table, with the maximum
// size changed now and then: enough insertions to wrap and compact the
// encoder's entry arena many times.
type churn struct {
	Capacity uint32
	IndexAll bool
	Steps    []churnStep
}

// churnStep is a field to encode, or a size to set when SetSize is set.
type churnStep struct {
	Name, Value string
	SetSize     bool
	Size        uint32
}

func (s churnStep) String() string {
	if s.SetSize {
		return fmt.Sprintf("size %d", s.Size)
	}
	return fmt.Sprintf("%s: %s", short(s.Name), short(s.Value))
}

// genChurn draws a churn of up to 20·MaxSize steps through a table of 40
// to 400 octets. Values vary in length so that entries never line up with
// the arena, and repeat often enough to hit existing entries.
func genChurn(p *gopter.GenParameters) *gopter.GenResult {
	rng := p.Rng
	c := churn{Capacity: uint32(40 + rng.Intn(361)), IndexAll: rng.Intn(2) == 0}
	c.Steps = make([]churnStep, rng.Intn(20*p.MaxSize+1))
	for i := range c.Steps {
		if rng.Intn(40) == 0 {
			c.Steps[i] = churnStep{SetSize: true, Size: uint32(rng.Intn(int(c.Capacity) + 1))}
			continue
		}
		c.Steps[i] = churnStep{Name: fmt.Sprintf("k%d", rng.Intn(7)), Value: churnValue(rng, c.Capacity)}
	}
	shrinkStep := func(v interface{}) gopter.Shrink {
		s := v.(churnStep)
		if s.SetSize || s.Value == "" {
			return gopter.NoShrinker(v)
		}
		return gen.SliceShrinker(gen.UInt8Shrinker)([]byte(s.Value)).Map(func(b []byte) churnStep {
			return churnStep{Name: s.Name, Value: string(b)}
		})
	}
	return gopter.NewGenResult(c, func(v interface{}) gopter.Shrink {
		c := v.(churn)
		return gen.SliceShrinker(shrinkStep)(c.Steps).Map(func(steps []churnStep) churn {
			return churn{Capacity: c.Capacity, IndexAll: c.IndexAll, Steps: steps}
		})
	})
}

// churnValue is a value of 0 to about capacity/2 octets, sometimes one of
// a few repeating ones.
func churnValue(rng *rand.Rand, capacity uint32) string {
	if rng.Intn(4) == 0 {
		return poolValues[rng.Intn(len(poolValues))]
	}
	return randomText(rng, rng.Intn(int(capacity)/2+1))
}

// modelChurnField applies one field to the model table as the encoder's
// policy does: a full match or an entry larger than the table changes
// nothing; otherwise the field is inserted (IndexAll), or inserted if the
// default policy lets it.
func modelChurnField(m *modelTable, indexAll bool, name, value string) {
	if m.hasField(name, value) {
		return
	}
	size := entrySize(name, value)
	if size > m.maxSize || (!indexAll && uint64(size)*100 > uint64(m.maxSize)*75) {
		return
	}
	m.add(name, value)
}

// encoderTable reads the encoder's dynamic table.
func encoderTable(enc *encoder.Encoder) (entries [][2]string) {
	for i := range enc.TableLen() {
		name, value := enc.TableEntry(i)
		entries = append(entries, [2]string{string(name), string(value)})
	}
	return entries
}

// compareTable describes how the encoder's table differs from m, or "".
func compareTable(enc *encoder.Encoder, m *modelTable) string {
	got := encoderTable(enc)
	if len(got) != len(m.entries) {
		return fmt.Sprintf("encoder has %d entries, model %d", len(got), len(m.entries))
	}
	for i, e := range got {
		if e[0] != m.entries[i].Name || e[1] != m.entries[i].Value {
			return fmt.Sprintf("entry %d: encoder has %s: %s, model %s: %s", i, short(e[0]), short(e[1]), short(m.entries[i].Name), short(m.entries[i].Value))
		}
	}
	if enc.TableSize() != m.size {
		return fmt.Sprintf("encoder TableSize %d, model %d", enc.TableSize(), m.size)
	}
	return ""
}

// TestCompactionKeepsTable: however long the churn through a tiny table,
// the encoder's logical table (TableLen, TableEntry, TableSize) is the
// model's after every field, and the strict decoder reads every block.
func TestCompactionKeepsTable(t *testing.T) {
	params := params(t, propConfig{runs: 300, maxSize: 100})
	check(t, params, forAll(func(c churn) error {
		cfg := encoder.Config{Capacity: c.Capacity}
		if c.IndexAll {
			cfg.Policy = encoder.IndexAllPolicy()
		}
		p := newPair(cfg)
		m := &modelTable{maxSize: c.Capacity}
		for i, s := range c.Steps {
			if s.SetSize {
				p.setSize(s.Size)
				m.setMaxSize(s.Size)
				continue
			}
			if _, _, err := p.block(genField{Name: s.Name, Value: s.Value}); err != nil {
				return fmt.Errorf("step %d (%v): %v", i, s, err)
			}
			modelChurnField(m, c.IndexAll, s.Name, s.Value)
			if d := compareTable(p.enc, m); d != "" {
				return fmt.Errorf("after step %d (%v): %s", i, s, d)
			}
		}
		return nil
	}, genChurn))
}

// giantCase is a churn followed by one field too large for the table.
type giantCase struct {
	Prefix    churn
	Name      string
	Extra     int // octets by which the entry exceeds the maximum size, minus one
	Sensitive bool
}

func genGiant(p *gopter.GenParameters) *gopter.GenResult {
	prefix := genChurn(p)
	c := giantCase{Prefix: prefix.Result.(churn), Extra: p.Rng.Intn(300), Sensitive: p.Rng.Intn(4) == 0}
	switch p.Rng.Intn(4) {
	case 0:
		c.Name = spec.StaticTable[p.Rng.Intn(spec.StaticTableLen)].Name
	case 1:
		c.Name = policyNames[p.Rng.Intn(len(policyNames))]
	case 2:
		c.Name = fmt.Sprintf("k%d", p.Rng.Intn(7)) // likely in the table
	default:
		c.Name = randomText(p.Rng, 1+p.Rng.Intn(20))
	}
	return gopter.NewGenResult(c, func(v interface{}) gopter.Shrink {
		c := v.(giantCase)
		return prefix.Shrinker(c.Prefix).Map(func(pc churn) giantCase {
			c.Prefix = pc
			return c
		})
	})
}

// TestGiantFieldLeavesTable: a field whose entry is larger than the
// maximum table size goes out as a literal without indexing (never indexed
// if sensitive or the policy says so), decodes right, and leaves the table
// bit for bit as it was: same entries, same sizes, and the same output for
// the next block as an encoder that never saw the giant field.
func TestGiantFieldLeavesTable(t *testing.T) {
	params := params(t, propConfig{runs: 500, maxSize: 30})
	check(t, params, forAll(func(c giantCase) error {
		cfg := encoder.Config{Capacity: c.Prefix.Capacity}
		if c.Prefix.IndexAll {
			cfg.Policy = encoder.IndexAllPolicy()
		}
		p, twin := newPair(cfg), newPair(cfg)
		var last []genField
		for i, s := range c.Prefix.Steps {
			for _, q := range []*pair{p, twin} {
				if s.SetSize {
					q.setSize(s.Size)
					continue
				}
				if _, _, err := q.block(genField{Name: s.Name, Value: s.Value}); err != nil {
					return fmt.Errorf("prefix step %d (%v): %v", i, s, err)
				}
			}
			if !s.SetSize {
				last = append(last, genField{Name: s.Name, Value: s.Value})
			}
		}
		// Flush pending size updates so that the giant field's block
		// holds nothing else.
		for _, q := range []*pair{p, twin} {
			if _, _, err := q.block(genField{Name: ":method", Value: "GET"}); err != nil {
				return err
			}
		}

		before := encoderTable(p.enc)
		size, maxSize := p.enc.TableSize(), p.enc.MaxTableSize()
		arena := snapshotBytes(p.enc)
		// At least one octet: no static entry has a value of g's, so the
		// field is never a full static match (which goes by index).
		valueLen := max(int(maxSize)-len(c.Name)-spec.EntryOverhead+1, 1) + c.Extra
		giant := genField{Name: c.Name, Value: strings.Repeat("g", valueLen), Sensitive: c.Sensitive}
		_, reps, err := p.block(giant)
		if err != nil {
			return fmt.Errorf("giant field %s (%d octets of value, max size %d): %v", short(c.Name), valueLen, maxSize, err)
		}
		want := repWithout
		shortCookie := c.Name == "cookie" && valueLen < 20
		if c.Sensitive || (!c.Prefix.IndexAll && (c.Name == "authorization" || c.Name == "proxy-authorization" || shortCookie)) {
			want = repNever
		}
		if len(reps) != 1 || reps[0].kind != want {
			kinds := make([]string, len(reps))
			for i, r := range reps {
				kinds[i] = r.kind.String()
			}
			return fmt.Errorf("giant field %s sent as %v; want one %s", short(c.Name), kinds, want)
		}
		if after := encoderTable(p.enc); fmt.Sprint(after) != fmt.Sprint(before) {
			return fmt.Errorf("giant field %s changed the table from %d entries %v to %d entries %v", short(c.Name), len(before), shortTable(before), len(after), shortTable(after))
		}
		if p.enc.TableSize() != size || p.enc.MaxTableSize() != maxSize {
			return fmt.Errorf("giant field changed TableSize %d -> %d, MaxTableSize %d -> %d", size, p.enc.TableSize(), maxSize, p.enc.MaxTableSize())
		}
		if after := snapshotBytes(p.enc); !bytes.Equal(after, arena) {
			return fmt.Errorf("giant field changed the bytes of the table entries")
		}
		// The next block: the last fields of the prefix again, and a new
		// one, must come out the same from both encoders.
		next := append(last[max(len(last)-6, 0):len(last):len(last)], genField{Name: "x-next", Value: "1"})
		w1, _, err := p.block(next...)
		if err != nil {
			return fmt.Errorf("block after the giant field: %v", err)
		}
		w1 = bytes.Clone(w1)
		w2, _, err := twin.block(next...)
		if err != nil {
			return fmt.Errorf("twin's block: %v", err)
		}
		if !bytes.Equal(w1, w2) {
			return fmt.Errorf("after the giant field the encoder writes %s; an encoder that never saw it writes %s", hexShort(w1), hexShort(w2))
		}
		return nil
	}, genGiant))
}

// snapshotBytes copies the bytes of every table entry, name then value.
func snapshotBytes(enc *encoder.Encoder) []byte {
	var b []byte
	for i := range enc.TableLen() {
		name, value := enc.TableEntry(i)
		b = append(append(b, name...), value...)
	}
	return b
}

// shortTable shows a table read by encoderTable compactly.
func shortTable(entries [][2]string) string {
	parts := make([]string, len(entries))
	for i, e := range entries {
		parts[i] = short(e[0]) + ": " + short(e[1])
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
