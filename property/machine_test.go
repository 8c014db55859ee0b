package property

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
	_ "github.com/hpackcert/hpackcert/oracle/all"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/oracle/xnet"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
)

// system is the system under test: an encoder, the pool it round-trips
// through, and one decoder of every registered oracle on the other end of
// the connection.
type system struct {
	cfg  encoder.Config
	pool *encoder.Pool
	enc  *encoder.Encoder
	// twin is a new encoder made when the connection started and given
	// the same calls: after Reset or a Pool round trip, and whatever its
	// hash seed, enc must write exactly the same octets.
	twin     *encoder.Encoder
	twinBuf  []byte
	decoders []oracle.Decoder
	// retired names decoders that stopped judging this connection after
	// a rejection their package documents; a new connection restores them.
	retired map[string]bool
	buf     []byte

	// history is every command run so far, for the regression story;
	// failure is the first failed check, after which commands are only
	// skipped.
	history []commands.Command
	failure string
	// capacity is the encoder's effective Capacity.
	capacity uint32
	// coverage counts what the commands exercised, for every system of
	// one test.
	coverage map[string]int
}

func newSystem(st *connState, coverage map[string]int) *system {
	cfg := st.cfg
	s := &system{cfg: cfg, pool: &encoder.Pool{Config: cfg}, enc: encoder.New(cfg), capacity: st.capacity, coverage: coverage}
	s.newConnection()
	return s
}

// newConnection gives the connection a new twin and fresh decoders, as a
// new connection has. Header-list limits are lifted: a block of several
// giant fields is legal HPACK.
func (s *system) newConnection() {
	s.twin = encoder.New(s.cfg)
	s.decoders = s.decoders[:0]
	for _, newDecoder := range oracle.Available() {
		d := newDecoder()
		if l, ok := d.(interface{ SetMaxHeaderListSize(int) }); ok {
			l.SetMaxHeaderListSize(0)
		}
		s.decoders = append(s.decoders, d)
	}
	s.retired = map[string]bool{}
}

// observation is what one command did to the system.
type observation struct {
	sys      *system
	skipped  bool   // an earlier command failed
	panicked string // the panic and its stack, if the command panicked
	block    bool   // the command encoded a block
	wire     []byte
	twinWire []byte // what the connection's twin wrote for the block
	// grew is how many octets each field's append added, with the
	// bound MaxFieldLen gives for it.
	grew, bound []int
	decoded     []decoding
	updates     []uint32
	warnings    []strict.Warning
	encTable    []oracle.Field
	tableLen    int
	tableSize   uint32
	maxSize     uint32
}

// decoding is one decoder's view after a command.
type decoding struct {
	name    string
	retired bool
	fields  []oracle.Field
	err     error
	table   []oracle.Field
}

// run runs one command's effect on the system and observes the result.
// A panic becomes part of the observation so that shrinking goes on.
//
// A command that never returns (an encoder stuck in a loop) is not timed
// out here: no wall-clock limit decides a result of this suite. The test
// binary's own -timeout ends it, with every goroutine's stack, the stuck
// loop's among them.
func (s *system) run(cmd commands.Command, effect func(*observation)) (obs *observation) {
	if s.failure != "" {
		return &observation{sys: s, skipped: true}
	}
	s.history = append(s.history, cmd)
	obs = &observation{sys: s}
	defer func() {
		if r := recover(); r != nil {
			obs.panicked = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	effect(obs)
	s.observe(obs)
	return obs
}

// observe reads the encoder's table and every decoder's table into obs.
func (s *system) observe(obs *observation) {
	obs.maxSize = s.enc.MaxTableSize()
	obs.tableSize = s.enc.TableSize()
	obs.tableLen = s.enc.TableLen()
	// A table cannot hold more than Capacity/32 entries; a broken count
	// must not make the reading loop run for ever.
	for i := range min(obs.tableLen, int(s.capacity/spec.EntryOverhead)+1) {
		name, value := s.enc.TableEntry(i)
		obs.encTable = append(obs.encTable, oracle.Field{Name: string(name), Value: string(value)})
	}
	for i, d := range s.decoders {
		if i >= len(obs.decoded) {
			obs.decoded = append(obs.decoded, decoding{name: d.Name()})
		}
		if obs.decoded[i].retired = s.retired[d.Name()]; !obs.decoded[i].retired {
			obs.decoded[i].table = d.Table()
		}
	}
}

// encode encodes fields as one block and has every decoder decode it.
func (s *system) encode(fields []genField) func(*observation) {
	return func(obs *observation) {
		obs.block = true
		s.buf, s.twinBuf = s.buf[:0], s.twinBuf[:0]
		for _, f := range fields {
			s.twinBuf = s.twin.AppendFieldString(s.twinBuf, f.Name, f.Value, f.Sensitive)
			before := len(s.buf)
			if f.Bytes {
				s.buf = s.enc.AppendField(s.buf, []byte(f.Name), []byte(f.Value), f.Sensitive)
			} else {
				s.buf = s.enc.AppendFieldString(s.buf, f.Name, f.Value, f.Sensitive)
			}
			obs.grew = append(obs.grew, len(s.buf)-before)
			obs.bound = append(obs.bound, encoder.MaxFieldLen(len(f.Name), len(f.Value)))
		}
		obs.wire = slices.Clone(s.buf)
		obs.twinWire = slices.Clone(s.twinBuf)
		if len(fields) == 0 {
			return // nothing to send: no HEADERS frame, no block
		}
		for _, d := range s.decoders {
			dec := decoding{name: d.Name(), retired: s.retired[d.Name()]}
			if !dec.retired {
				dec.fields, dec.err = d.DecodeBlock(obs.wire)
			}
			if sd, ok := d.(*strict.Decoder); ok && dec.err == nil {
				obs.updates = slices.Clone(sd.Updates())
				obs.warnings = slices.Clone(sd.Warnings())
			}
			obs.decoded = append(obs.decoded, dec)
		}
	}
}

// setSizes acks each size to the decoders and the encoder, in order.
func (s *system) setSizes(sizes []uint32) func(*observation) {
	return func(*observation) {
		for _, n := range sizes {
			for _, d := range s.decoders {
				d.SetMaxDynamicTableSize(n)
			}
			s.enc.SetMaxDynamicTableSize(n)
			s.twin.SetMaxDynamicTableSize(n)
		}
	}
}

// reset starts a new connection with the same encoder.
func (s *system) reset(*observation) {
	s.enc.Reset()
	s.newConnection()
}

// poolTrip starts a new connection with an encoder from the pool, after
// giving the current one back.
func (s *system) poolTrip(*observation) {
	s.pool.Put(s.enc)
	s.enc = s.pool.Get()
	s.newConnection()
}

// verdict checks an observation against the model state after the
// command. The first failure is kept on the system for the story file.
func verdict(cmd commands.Command, st *connState, obs *observation) *gopter.PropResult {
	if obs.skipped {
		return &gopter.PropResult{Status: gopter.PropTrue}
	}
	msg := obs.problem(st)
	if msg == "" {
		obs.sys.count(cmd, st, obs)
		return &gopter.PropResult{Status: gopter.PropTrue}
	}
	obs.sys.failure = fmt.Sprintf("after command %d %v: %s", len(obs.sys.history), cmd, msg)
	return &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{obs.sys.failure}}
}

// count adds what a passing command exercised to the coverage counts.
func (s *system) count(cmd commands.Command, st *connState, obs *observation) {
	switch cmd.(type) {
	case resetCmd:
		s.coverage["reset"]++
	case poolCmd:
		s.coverage["pool round trip"]++
	case sizesCmd:
		s.coverage["sizes acked"]++
	case encodeCmd:
		if len(st.expect.fields) == 0 {
			s.coverage["empty block"]++
		}
		for _, f := range st.expect.features {
			s.coverage[f]++
		}
		for _, d := range obs.decoded {
			if d.retired && d.name == xnet.Name {
				s.coverage["x/net sits out"]++
			}
		}
	}
}

// problem returns the first way obs differs from the model, or "".
func (obs *observation) problem(st *connState) string {
	if obs.panicked != "" {
		return obs.panicked
	}
	if !(obs.tableSize <= obs.maxSize && obs.maxSize <= st.capacity) {
		return fmt.Sprintf("TableSize %d, MaxTableSize %d, Capacity %d: want TableSize <= MaxTableSize <= Capacity", obs.tableSize, obs.maxSize, st.capacity)
	}
	if obs.tableLen != len(obs.encTable) {
		return fmt.Sprintf("TableLen %d: more entries than a table of Capacity %d can hold", obs.tableLen, st.capacity)
	}
	want := st.encTable()
	if obs.maxSize != want.maxSize {
		return fmt.Sprintf("MaxTableSize %d; model says %d", obs.maxSize, want.maxSize)
	}
	if d := diffTables("model", want.entries, "encoder", obs.encTable); d != "" {
		return "encoder table differs from the model: " + d
	}
	if obs.tableSize != want.size {
		return fmt.Sprintf("encoder TableSize %d; model says %d", obs.tableSize, want.size)
	}
	if obs.block {
		if p := obs.blockProblem(st.expect); p != "" {
			return p
		}
	}
	for _, d := range obs.decoded {
		if d.retired {
			continue
		}
		diff := diffTables("model", st.dec.entries, d.name, d.table)
		if diff != "" && diffTables("model", st.eagerDecTable().entries, d.name, d.table) == "" {
			diff = "" // evicted for an acked size before the block that signals it
		}
		if diff != "" {
			return fmt.Sprintf("decoder %s table differs from the model: %s", d.name, diff)
		}
	}
	return ""
}

// blockProblem checks one encoded block against what the model expects.
func (obs *observation) blockProblem(exp *blockExpect) string {
	for i := range obs.grew {
		if obs.grew[i] > obs.bound[i] {
			return fmt.Sprintf("field %d appended %d octets; MaxFieldLen promised at most %d", i, obs.grew[i], obs.bound[i])
		}
	}
	if !bytes.Equal(obs.wire, obs.twinWire) {
		return fmt.Sprintf("the encoder writes %s; a new encoder given the same calls since the connection started writes %s", hexShort(obs.wire), hexShort(obs.twinWire))
	}
	if len(exp.fields) == 0 {
		if len(obs.wire) != 0 {
			return fmt.Sprintf("no fields, but the encoder wrote %s", hexShort(obs.wire))
		}
		return ""
	}
	reps, err := walkBlock(obs.wire)
	if err != nil {
		return fmt.Sprintf("block %s: %v", hexShort(obs.wire), err)
	}
	plain := make([][2]string, len(exp.fields))
	for i, f := range exp.fields {
		plain[i] = [2]string{f.Name, f.Value}
	}
	if err := checkForm(reps, plain, obs.sys.cfg.Policy.Huffman); err != nil {
		return fmt.Sprintf("block %s: %v", hexShort(obs.wire), err)
	}
	i := 0
	for _, r := range reps {
		if r.kind == repSizeUpdate {
			continue
		}
		if r.kind != exp.kinds[i] {
			return fmt.Sprintf("block %s: field %d (%s) sent as %s; the policy says %s", hexShort(obs.wire), i, fieldString(exp.fields[i]), r.kind, exp.kinds[i])
		}
		if r.kind != repIndexed && (r.name == nil) != exp.byName[i] {
			return fmt.Sprintf("block %s: field %d (%s) sent as %s with name index %d; a table has the name: %v (names go by index whenever a table has them)", hexShort(obs.wire), i, fieldString(exp.fields[i]), r.kind, r.index.value, exp.byName[i])
		}
		i++
	}
	// Report the strict decoder's verdict first: it names the offset and
	// the RFC section.
	order := make([]int, len(obs.decoded))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return boolInt(obs.decoded[b].name == strict.Name) - boolInt(obs.decoded[a].name == strict.Name)
	})
	for _, i := range order {
		d := obs.decoded[i]
		switch {
		case d.retired:
			continue
		case d.err != nil && d.name == xnet.Name && exp.xnetRejects:
			// A documented rejection of a legal block: x/net sits out
			// the rest of this connection.
			obs.sys.retired[d.name] = true
			obs.decoded[i].retired = true
			continue
		case d.err != nil:
			return fmt.Sprintf("decoder %s rejects block %s: %v", d.name, hexShort(obs.wire), d.err)
		case !slices.Equal(d.fields, exp.fields):
			return fmt.Sprintf("decoder %s decodes block %s to %s; want %s", d.name, hexShort(obs.wire), fieldsString(d.fields), fieldsString(exp.fields))
		}
	}
	if !slices.Equal(obs.updates, exp.updates) {
		return fmt.Sprintf("block %s starts with size updates %v; want %v (RFC 7541 §4.2)", hexShort(obs.wire), obs.updates, exp.updates)
	}
	if len(obs.warnings) > 0 {
		return fmt.Sprintf("block %s: strict decoder warns: %v", hexShort(obs.wire), obs.warnings)
	}
	return ""
}

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
