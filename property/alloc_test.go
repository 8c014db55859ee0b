package property

import (
	"fmt"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
	"github.com/leanovate/gopter/gen"
)

// allocRuns is the run count of testing.AllocsPerRun; it calls the
// function once more to warm up.
const allocRuns = 100

// allocStep is one call on the encoder's public API.
type allocStep struct {
	Kind        string // "field", "size", "reset" or "pool"
	Field       genField
	name, value []byte // Field's octets for AppendField
	Size        uint32
}

func (s allocStep) String() string {
	switch s.Kind {
	case "field":
		api := "AppendFieldString"
		if s.Field.Bytes {
			api = "AppendField"
		}
		return fmt.Sprintf("%s(%s: %s, sensitive %v)", api, short(s.Field.Name), short(s.Field.Value), s.Field.Sensitive)
	case "size":
		return fmt.Sprintf("SetMaxDynamicTableSize(%d)", s.Size)
	}
	return s.Kind
}

// allocSequence is a generated sequence of API calls on one configuration.
type allocSequence struct {
	Config encoder.Config
	Steps  []allocStep
}

// genCommands draws a configuration and p.MaxSize commands from the state
// machine's generators, each drawn for the state the earlier ones leave.
func genCommands(p *gopter.GenParameters) (encoder.Config, []commands.Command) {
	m := &machine{}
	st := m.GenInitialState()(p).Result.(*connState)
	cfg := st.cfg
	cmds := make([]commands.Command, 0, p.MaxSize)
	for range p.MaxSize {
		c := m.GenCommand(st)(p).Result.(commands.Command)
		cmds = append(cmds, c)
		st = c.NextState(st).(*connState)
	}
	return cfg, cmds
}

// genAllocSequence draws sequences from the state machine's command
// generator, flattened into single calls.
func genAllocSequence(p *gopter.GenParameters) *gopter.GenResult {
	cfg, cmds := genCommands(p)
	seq := allocSequence{Config: cfg}
	for _, c := range cmds {
		switch c := c.(type) {
		case encodeCmd:
			for _, f := range c.fields {
				seq.Steps = append(seq.Steps, allocStep{Kind: "field", Field: f, name: []byte(f.Name), value: []byte(f.Value)})
			}
		case sizesCmd:
			for _, n := range c.sizes {
				seq.Steps = append(seq.Steps, allocStep{Kind: "size", Size: n})
			}
		case resetCmd:
			seq.Steps = append(seq.Steps, allocStep{Kind: "reset"})
		case poolCmd:
			seq.Steps = append(seq.Steps, allocStep{Kind: "pool"})
		}
	}
	return gopter.NewGenResult(seq, func(v interface{}) gopter.Shrink {
		s := v.(allocSequence)
		return gen.SliceShrinker(gopter.NoShrinker)(s.Steps).Map(func(steps []allocStep) allocSequence {
			return allocSequence{Config: s.Config, Steps: steps}
		})
	})
}

// tableConsistent checks what an encoder says about its table against
// itself: TableLen within what Capacity allows, TableSize the sum of the
// entries' sizes (RFC 7541 §4.1), TableSize <= MaxTableSize <= Capacity.
func tableConsistent(enc *encoder.Encoder, cfg encoder.Config) error {
	capacity := cfg.Capacity
	if capacity == 0 {
		capacity = spec.DefaultTableSize
	}
	n := enc.TableLen()
	if n > int(capacity/spec.EntryOverhead) {
		return fmt.Errorf("TableLen %d: more entries than Capacity %d can hold", n, capacity)
	}
	var sum uint32
	for i := range n {
		name, value := enc.TableEntry(i)
		sum += entrySize(string(name), string(value))
	}
	if enc.TableSize() != sum {
		return fmt.Errorf("TableSize %d; the %d entries add up to %d", enc.TableSize(), n, sum)
	}
	if !(enc.TableSize() <= enc.MaxTableSize() && enc.MaxTableSize() <= capacity) {
		return fmt.Errorf("TableSize %d, MaxTableSize %d, Capacity %d: want TableSize <= MaxTableSize <= Capacity", enc.TableSize(), enc.MaxTableSize(), capacity)
	}
	return nil
}

// TestZeroAllocation: no call of a generated sequence allocates, whether
// it encodes a field (string or []byte API, into a buffer sized by
// MaxFieldLen), sets a table size, resets, or round-trips through a Pool;
// but a table size larger than any before allocates the table's new
// memory, and in the purego build an AppendField call allocates at most
// the copies of its name and value.
// Each step is measured on its own: allocRuns+1 encoders are driven in
// lockstep, and AllocsPerRun's calls each advance a different one by that
// step, so every measured call does exactly what the sequence does.
func TestZeroAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are meaningless under -race")
	}
	params := params(t, propConfig{runs: 60, maxSize: 30})
	check(t, params, forAll(func(seq allocSequence) error {
		cfg := seq.Config
		pool := &encoder.Pool{Config: cfg}
		bufLen := 0
		for _, s := range seq.Steps {
			bufLen = max(bufLen, encoder.MaxFieldLen(len(s.Field.Name), len(s.Field.Value)))
		}
		encs := make([]*encoder.Encoder, allocRuns+1)
		bufs := make([][]byte, len(encs))
		for k := range encs {
			encs[k] = encoder.New(cfg)
			bufs[k] = make([]byte, 0, bufLen)
		}
		// The table size the encoders' memory is sized for (see the
		// package doc): raising the table size past it allocates.
		capacity := newConnState(cfg).capacity
		sized := min(spec.DefaultTableSize, capacity)
		for i, s := range seq.Steps {
			k := 0
			allocs := testing.AllocsPerRun(allocRuns, func() {
				e := encs[k]
				switch s.Kind {
				case "field":
					if s.Field.Bytes {
						bufs[k] = e.AppendField(bufs[k][:0], s.name, s.value, s.Field.Sensitive)
					} else {
						bufs[k] = e.AppendFieldString(bufs[k][:0], s.Field.Name, s.Field.Value, s.Field.Sensitive)
					}
				case "size":
					e.SetMaxDynamicTableSize(s.Size)
				case "reset":
					e.Reset()
				case "pool":
					pool.Put(e)
					encs[k] = pool.Get()
				}
				k++
			})
			if k != len(encs) {
				return fmt.Errorf("AllocsPerRun called the step %d times; want %d", k, len(encs))
			}
			var want float64
			switch {
			case s.Kind == "size" && min(s.Size, capacity) > sized:
				// The new memory: the ring and one block for the
				// indexes and the arena, two in the purego build.
				want = 2
				if purego {
					want = 3
				}
				sized = min(s.Size, capacity)
			case purego && s.Kind == "field" && s.Field.Bytes:
				// The purego build copies AppendField's []byte
				// arguments.
				want = 2
			}
			if allocs > want {
				return fmt.Errorf("step %d, %v, allocates %v times per call; want at most %v", i, s, allocs, want)
			}
			// An inconsistent table can send the next step into an
			// endless eviction loop; stop here instead.
			if err := tableConsistent(encs[0], cfg); err != nil {
				return fmt.Errorf("after step %d, %v: %v", i, s, err)
			}
		}
		return nil
	}, genAllocSequence))
}
