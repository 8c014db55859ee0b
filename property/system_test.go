package property

import (
	"fmt"
	"runtime/debug"
	"slices"

	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
	_ "github.com/hpackcert/hpackcert/oracle/all"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/leanovate/gopter/commands"
)

// system is the system under test: an encoder, the pool it round-trips
// through, and on the other end of the connection one decoder of every
// registered oracle and the reference decoder (refdecoder_test.go).
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
	ref      *decoder.Decoder
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
	s.ref = newRefDecoder(s.capacity)
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

// decoding is one decoder's view after a command: the oracles' in the
// order of system.decoders, then the reference decoder's.
type decoding struct {
	name    string
	retired bool
	fields  []oracle.Field
	err     error
	table   []oracle.Field
	// exact is set for the reference decoder, which reports its table's
	// entry count, size and maximum size, and must not evict early.
	exact         bool
	tableLen      int
	size, maxSize uint32
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

// observe reads the encoder's table and every decoder's table into obs,
// the reference decoder's last.
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
	if len(obs.decoded) == len(s.decoders) {
		obs.decoded = append(obs.decoded, decoding{})
	}
	refObserve(s.ref, s.capacity, &obs.decoded[len(s.decoders)])
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
		obs.decoded = append(obs.decoded, refDecode(s.ref, obs.wire))
	}
}

// setSizes acks each size to the decoders and the encoder, in order.
func (s *system) setSizes(sizes []uint32) func(*observation) {
	return func(*observation) {
		for _, n := range sizes {
			for _, d := range s.decoders {
				d.SetMaxDynamicTableSize(n)
			}
			refAck(s.ref, n)
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
