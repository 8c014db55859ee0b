package fuzz

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// CheckEncodeRoundTrip is the body of the round-trip target. It runs the
// script decoded from data through the reference encoder and hands every
// header block to a fresh decoder from each factory in oracles. Each
// decoder must accept each block, decode it to the script's fields (a
// sensitive field as "Literal Header Field Never Indexed", RFC 7541 §6.2.3),
// and hold the encoder's dynamic table afterwards. The error, if any,
// ends with the script.
func CheckEncodeRoundTrip(data []byte, oracles []func() oracle.Decoder) error {
	return newChecker(oracles).encodeRoundTrip(data)
}

func (c *checker) encodeRoundTrip(data []byte) error {
	s := &c.script
	s.parse(data)
	if err := c.runEncodeRoundTrip(s); err != nil {
		return errScript(s, err)
	}
	return nil
}

func (c *checker) runEncodeRoundTrip(s *Script) error {
	policy := encoder.DefaultPolicy
	if s.IndexAll {
		policy = encoder.IndexAllPolicy()
	}
	policy.Huffman = s.Huffman
	enc := c.encoder(encoder.Config{Capacity: s.Capacity, Policy: policy})
	capacity := s.Capacity
	if capacity == 0 {
		capacity = spec.DefaultTableSize
	}
	rt := &roundTrip{c: c, enc: enc, conn: 1, capacity: capacity}
	rt.newConnection()
	for _, op := range s.Ops {
		var err error
		switch op.Kind {
		case OpField:
			rt.block = enc.AppendFieldString(rt.block, op.Name, op.Value, op.Sensitive)
			rt.want = append(rt.want, op)
		case OpTableSize:
			err = rt.endBlock(false)
			rt.setMaxDynamicTableSize(op.Size)
		case OpEndBlock:
			if len(rt.want) == 0 {
				// A block without fields carries the pending size
				// updates, if any (§4.2).
				rt.block = enc.AppendSizeUpdates(rt.block)
			}
			err = rt.endBlock(true)
		case OpReset:
			err = rt.endBlock(false)
			enc.Reset()
			rt.conn++
			rt.newConnection()
		}
		if err != nil {
			return err
		}
	}
	return rt.endBlock(false)
}

type roundTrip struct {
	c        *checker
	enc      *encoder.Encoder
	decoders []oracle.Decoder
	// ref is the strict oracle whose verdict and Updates() the others are
	// held to, which tells a known leniency of another oracle from a bug:
	// the strict decoder among the oracles, which then decodes each block
	// once, or the checker's reference decoder when there is none.
	ref      *strict.Decoder
	block    []byte
	want     []Op
	conn     int // connection number, from 1
	blockNum int // block number within the connection, from 1, as Script.String counts
	// The model of the size updates due (§4.2), kept apart from the
	// encoder's own: capacity is the encoder's Config.Capacity (4096 for
	// 0), signalled the last size signalled or implied (4096 at the start
	// of a connection), and sizes the maximum table sizes, min(setting,
	// capacity), since the last block sent.
	capacity  uint32
	signalled uint32
	sizes     []uint32
}

func (rt *roundTrip) newConnection() {
	rt.decoders = rt.c.decoders(rt.decoders[:0])
	rt.ref = nil
	for _, d := range rt.decoders {
		if ref, ok := d.(*strict.Decoder); ok {
			rt.ref = ref
			break
		}
	}
	if rt.ref == nil {
		rt.ref = rt.c.reference()
	}
	rt.blockNum = 1
	rt.signalled = spec.DefaultTableSize
	rt.sizes = rt.sizes[:0]
	if rt.capacity < spec.DefaultTableSize {
		rt.sizes = append(rt.sizes, rt.capacity)
	}
}

// wantUpdates returns the dynamic table size updates the next block must
// start with (§4.2, §6.3): the smallest maximum size since the last block,
// then the final one if different; only the final one when they are the
// same and it differs from the size last signalled; none otherwise.
func (rt *roundTrip) wantUpdates() []uint32 {
	if len(rt.sizes) == 0 {
		return nil
	}
	final := rt.sizes[len(rt.sizes)-1]
	smallest := slices.Min(rt.sizes)
	switch {
	case smallest != final:
		return []uint32{smallest, final}
	case final != rt.signalled:
		return []uint32{final}
	}
	return nil
}

func (rt *roundTrip) setMaxDynamicTableSize(n uint32) {
	rt.enc.SetMaxDynamicTableSize(n)
	rt.sizes = append(rt.sizes, min(n, rt.capacity))
	rt.ref.SetMaxDynamicTableSize(n)
	for _, d := range rt.decoders {
		if d != oracle.Decoder(rt.ref) {
			d.SetMaxDynamicTableSize(n)
		}
	}
}

// endBlock decodes the block written so far with every decoder. A block
// without fields is sent only when it holds size updates (written by
// AppendSizeUpdates at an end-of-block op, explicit); one without either
// is not sent, and fails when explicit and the model expects updates. The strict oracle must accept every block, and its Updates() must
// be the updates the model expects (wantUpdates). An oracle that rejects
// the block where oracle.KnownLeniencies says it wrongly rejects what
// strict accepts leaves the connection.
func (rt *roundTrip) endBlock(explicit bool) error {
	defer func() { rt.blockNum++ }()
	if len(rt.want) == 0 && len(rt.block) == 0 {
		if !explicit {
			return nil
		}
		if want := rt.wantUpdates(); len(want) > 0 {
			return fmt.Errorf("connection %d, block %d: AppendSizeUpdates wrote nothing; want the size updates %v", rt.conn, rt.blockNum, want)
		}
		// AppendSizeUpdates had nothing to write: the sizes set since the
		// last block sent never went below the size signalled last and end
		// at it, so the next block owes none of them.
		rt.sizes = rt.sizes[:0]
		return nil
	}
	where := blockPlace{rt.conn, rt.blockNum}
	var ref outcome
	ref.fields, ref.err = rt.ref.DecodeBlock(rt.block)
	wantUpdates := rt.wantUpdates()
	rt.sizes = rt.sizes[:0]
	if len(wantUpdates) > 0 {
		rt.signalled = wantUpdates[len(wantUpdates)-1]
	}
	switch {
	case ref.err != nil:
		return fmt.Errorf("%s: strict rejects the encoder's block %x: %v", where, rt.block, ref.err)
	case !slices.Equal(rt.ref.Updates(), wantUpdates):
		return fmt.Errorf("%s: the encoder's block %x starts with the size updates %v; want %v", where, rt.block, rt.ref.Updates(), wantUpdates)
	}
	kept := rt.decoders[:0]
	for _, d := range rt.decoders {
		got, err := ref.fields, ref.err
		if d != oracle.Decoder(rt.ref) {
			got, err = d.DecodeBlock(rt.block)
		}
		if err != nil {
			if _, known := knownLeniency(d.Name(), outcome{err: err}, ref, len(rt.ref.Updates())); known {
				continue
			}
			return fmt.Errorf("%s: %s rejects the encoder's block %x: %v", where, d.Name(), rt.block, err)
		}
		if err := compareFields(got, rt.want); err != nil {
			return fmt.Errorf("%s: %s decodes the encoder's block %x: %v", where, d.Name(), rt.block, err)
		}
		if err := compareEncoderTable(d.Table(), rt.enc); err != nil {
			return fmt.Errorf("%s: after block %x, %s's dynamic table differs from the encoder's: %v", where, rt.block, d.Name(), err)
		}
		kept = append(kept, d)
	}
	rt.decoders = kept
	rt.block = rt.block[:0]
	rt.want = rt.want[:0]
	return nil
}

// blockPlace names a block in failure messages, formatted only when one
// is written.
type blockPlace struct{ conn, block int }

func (p blockPlace) String() string { return fmt.Sprintf("connection %d, block %d", p.conn, p.block) }

// compareEncoderTable checks a decoder's dynamic table against the
// encoder's, entry by entry, and describes a difference as compareTables
// does.
func compareEncoderTable(got []oracle.Field, enc *encoder.Encoder) error {
	same := len(got) == enc.TableLen()
	for i := 0; same && i < len(got); i++ {
		name, value := enc.TableEntry(i)
		same = got[i].Name == string(name) && got[i].Value == string(value)
	}
	if same {
		return nil
	}
	return compareTables(got, encoderTable(enc))
}

func encoderTable(enc *encoder.Encoder) []oracle.Field {
	table := make([]oracle.Field, enc.TableLen())
	for i := range table {
		name, value := enc.TableEntry(i)
		table[i] = oracle.Field{Name: string(name), Value: string(value)}
	}
	return table
}

// compareFields checks that a decoder produced the script's fields, and
// that sensitive ones arrived never indexed.
func compareFields(got []oracle.Field, want []Op) error {
	for i := 0; i < len(got) || i < len(want); i++ {
		switch {
		case i >= len(got):
			return fmt.Errorf("%d fields, missing field %d %s: %s", len(got), i, quoteShort(want[i].Name), quoteShort(want[i].Value))
		case i >= len(want):
			return fmt.Errorf("%d fields; want %d", len(got), len(want))
		case got[i].Name != want[i].Name || got[i].Value != want[i].Value:
			return fmt.Errorf("field %d is %s: %s; want %s: %s", i, quoteShort(got[i].Name), quoteShort(got[i].Value), quoteShort(want[i].Name), quoteShort(want[i].Value))
		case want[i].Sensitive && !got[i].Sensitive:
			return fmt.Errorf("field %d %s is sensitive but was not sent as never indexed (RFC 7541 §6.2.3)", i, quoteShort(want[i].Name))
		}
	}
	return nil
}

// compareTables checks two dynamic tables, newest entry first.
func compareTables(got, want []oracle.Field) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d entries %s; want %d entries %s", len(got), tableString(got), len(want), tableString(want))
	}
	for i := range got {
		if got[i].Name != want[i].Name || got[i].Value != want[i].Value {
			return fmt.Errorf("entry %d is %s: %s; want %s: %s", i, quoteShort(got[i].Name), quoteShort(got[i].Value), quoteShort(want[i].Name), quoteShort(want[i].Value))
		}
	}
	return nil
}

// maxListed is how many fields or entries tableString prints.
const maxListed = 16

// tableString prints a list of fields or a dynamic table, the first
// maxListed entries of it.
func tableString(t []oracle.Field) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, f := range t[:min(len(t), maxListed)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteShort(f.Name) + ": " + quoteShort(f.Value))
	}
	if len(t) > maxListed {
		fmt.Fprintf(&b, ", ... %d more", len(t)-maxListed)
	}
	b.WriteByte(']')
	return b.String()
}
