package property

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
)

// The commands of the state machine. Each is a value; its NextState never
// changes the state it is given.
type (
	encodeCmd struct{ fields []genField }
	sizesCmd  struct{ sizes []uint32 }
	resetCmd  struct{}
	poolCmd   struct{}
)

func (c encodeCmd) Run(s commands.SystemUnderTest) commands.Result {
	sys := s.(*system)
	return sys.run(c, sys.encode(c.fields))
}

func (c encodeCmd) NextState(st commands.State) commands.State {
	return st.(*connState).encodeBlock(c.fields)
}

func (c encodeCmd) PreCondition(commands.State) bool { return true }

func (c encodeCmd) PostCondition(st commands.State, r commands.Result) *gopter.PropResult {
	return verdict(c, st.(*connState), r.(*observation))
}

func (c encodeCmd) String() string {
	parts := make([]string, len(c.fields))
	for i, f := range c.fields {
		parts[i] = fieldString(oracle.Field{Name: f.Name, Value: f.Value})
		if f.Sensitive {
			parts[i] += " (sensitive)"
		}
	}
	return "encode[" + strings.Join(parts, ", ") + "]"
}

func (c sizesCmd) Run(s commands.SystemUnderTest) commands.Result {
	sys := s.(*system)
	return sys.run(c, sys.setSizes(c.sizes))
}

func (c sizesCmd) NextState(st commands.State) commands.State {
	return st.(*connState).setSizes(c.sizes)
}

func (c sizesCmd) PreCondition(commands.State) bool { return len(c.sizes) > 0 }

func (c sizesCmd) PostCondition(st commands.State, r commands.Result) *gopter.PropResult {
	return verdict(c, st.(*connState), r.(*observation))
}

func (c sizesCmd) String() string { return fmt.Sprintf("sizes%v", c.sizes) }

func (c resetCmd) Run(s commands.SystemUnderTest) commands.Result {
	sys := s.(*system)
	return sys.run(c, sys.reset)
}

func (c resetCmd) NextState(st commands.State) commands.State {
	old := st.(*connState)
	return newConnState(old.cfg)
}

func (c resetCmd) PreCondition(commands.State) bool { return true }

func (c resetCmd) PostCondition(st commands.State, r commands.Result) *gopter.PropResult {
	return verdict(c, st.(*connState), r.(*observation))
}

func (c resetCmd) String() string { return "reset" }

func (c poolCmd) Run(s commands.SystemUnderTest) commands.Result {
	sys := s.(*system)
	return sys.run(c, sys.poolTrip)
}

func (c poolCmd) NextState(st commands.State) commands.State {
	old := st.(*connState)
	return newConnState(old.cfg)
}

func (c poolCmd) PreCondition(commands.State) bool { return true }

func (c poolCmd) PostCondition(st commands.State, r commands.Result) *gopter.PropResult {
	return verdict(c, st.(*connState), r.(*observation))
}

func (c poolCmd) String() string { return "pool-round-trip" }

// capacities are the Config.Capacity values connections start with: tiny
// ones force eviction and compaction, 0 means the default.
var capacities = []uint32{0, 40, 64, 100, 256, 512, 1000, 4096, 6000, 16384}

// machine is the gopter description of the state machine. onFailure gets
// the failing (by then shrunk) command sequence each time a run fails.
type machine struct {
	onFailure func(initial *connState, history []commands.Command, failure string)
	coverage  map[string]int
}

func (m *machine) NewSystemUnderTest(initial commands.State) commands.SystemUnderTest {
	if m.coverage == nil {
		m.coverage = map[string]int{}
	}
	return newSystem(initial.(*connState), m.coverage)
}

func (m *machine) DestroySystemUnderTest(s commands.SystemUnderTest) {
	sys := s.(*system)
	if sys.failure != "" && m.onFailure != nil {
		m.onFailure(newConnState(sys.cfg), slices.Clone(sys.history), sys.failure)
	}
}

func (m *machine) GenInitialState() gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		cfg := encoder.Config{Capacity: capacities[p.Rng.Intn(len(capacities))]}
		if p.Rng.Intn(3) == 0 {
			cfg.Policy = encoder.IndexAllPolicy()
		}
		switch p.Rng.Intn(6) {
		case 0:
			cfg.Policy.Huffman = encoder.HuffmanNotLonger
		case 1:
			cfg.Policy.Huffman = encoder.HuffmanNever
		}
		return gopter.NewGenResult(newConnState(cfg), gopter.NoShrinker)
	}
}

func (m *machine) InitialPreCondition(commands.State) bool { return true }

// commandType is the type gopter sees for generated commands.
var commandType = reflect.TypeOf((*commands.Command)(nil)).Elem()

func (m *machine) GenCommand(s commands.State) gopter.Gen {
	st := s.(*connState)
	return func(p *gopter.GenParameters) *gopter.GenResult {
		switch r := p.Rng.Intn(100); {
		case r < 62:
			return genEncode(p.Rng, st)
		case r < 88:
			sizes := genSizes(p.Rng, st.capacity)
			res := gopter.NewGenResult(commands.Command(sizesCmd{sizes}), func(v interface{}) gopter.Shrink {
				return shrinkSizes(v.(sizesCmd).sizes).Map(func(s []uint32) commands.Command { return sizesCmd{s} })
			})
			res.ResultType = commandType
			return res
		case r < 94:
			return commandResult(resetCmd{})
		default:
			return commandResult(poolCmd{})
		}
	}
}

func commandResult(c commands.Command) *gopter.GenResult {
	res := gopter.NewGenResult(c, gopter.NoShrinker)
	res.ResultType = commandType
	return res
}

// genEncode draws a block of up to 8 fields for the connection in st.
func genEncode(rng *rand.Rand, st *connState) *gopter.GenResult {
	src := fieldSource{capacity: st.capacity, maxSize: st.encMax(), table: st.encTable().entries}
	fields := make([]genField, rng.Intn(9))
	for i := range fields {
		fields[i] = src.field(rng)
		// Later fields may repeat earlier ones of the same block.
		if i > 0 && rng.Intn(8) == 0 {
			fields[i] = fields[rng.Intn(i)]
		}
	}
	res := gopter.NewGenResult(commands.Command(encodeCmd{fields}), func(v interface{}) gopter.Shrink {
		return shrinkFields(v.(encodeCmd).fields).Map(func(fs []genField) commands.Command { return encodeCmd{fs} })
	})
	res.ResultType = commandType
	return res
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
