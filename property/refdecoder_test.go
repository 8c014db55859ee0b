package property

import (
	"github.com/hpackcert/hpackcert/decoder"
	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/oracle"
)

// The state machine's chain encoder → reference decoder → model: every
// block the encoder writes is decoded by a decoder.Decoder as well as by
// the oracles, told of each acknowledged setting through SetTableSize, and
// its fields and dynamic table (read through TableEntry and TableSize)
// must equal the model's after every command. Unlike some oracles it may
// not evict early for an acknowledged setting: it evicts at the size
// updates of the next block, as the model's decoder table does.

// refName names the reference decoder in the machine's failures.
const refName = "decoder.Decoder"

// newRefDecoder returns the reference decoder of a new connection whose
// encoder has the given Capacity: the protocol's initial 4096-octet table,
// no header list limit (a block of several giant fields is legal HPACK),
// and a MaxStringLength above the longest string the generators draw
// (giantValue: the capacity plus at most 64 octets), which
// DefaultMaxStringLength alone is not.
func newRefDecoder(capacity uint32) *decoder.Decoder {
	return decoder.New(refConfig(capacity))
}

// refConfig is newRefDecoder's configuration.
func refConfig(capacity uint32) decoder.Config {
	return decoder.Config{
		TableSize:       spec.DefaultTableSize,
		MaxStringLength: max(decoder.DefaultMaxStringLength, int(capacity)+2*spec.EntryOverhead),
	}
}

// refAck tells the reference decoder that setting n was acknowledged. The
// machine acks up to 2^32-1 to test the encoder's Capacity: the decoder
// takes it as it is, its table's memory following the entries.
func refAck(d *decoder.Decoder, n uint32) {
	d.SetTableSize(n)
}

// refDecode decodes block with d, copying every field out of the views
// emit receives.
func refDecode(d *decoder.Decoder, block []byte) decoding {
	out := decoding{name: refName}
	out.err = d.Decode(block, func(name, value []byte, sensitive bool) error {
		out.fields = append(out.fields, oracle.Field{Name: string(name), Value: string(value), Sensitive: sensitive})
		return nil
	})
	return out
}

// refObserve reads d's dynamic table, newest first, and its sizes into
// obs. A table of maximum size at most max(capacity, 4096) holds fewer
// entries than that over 32; a broken count must not make the loop run for
// ever.
func refObserve(d *decoder.Decoder, capacity uint32, obs *decoding) {
	obs.name, obs.exact, obs.table = refName, true, nil
	for i := range min(d.TableLen(), int(max(capacity, spec.DefaultTableSize)/spec.EntryOverhead)+1) {
		name, value := d.TableEntry(i)
		obs.table = append(obs.table, oracle.Field{Name: string(name), Value: string(value)})
	}
	obs.size, obs.maxSize = d.TableSize()
	obs.tableLen = d.TableLen()
}
