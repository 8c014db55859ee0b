// Package xnet is the oracle backed by golang.org/x/net/http2/hpack, the
// decoder inside Go's HTTP/2 client and server. It registers itself with
// package oracle as "x/net".
//
// Settings. SetMaxDynamicTableSize maps to the library's
// SetAllowedMaxDynamicTableSize: the acknowledged SETTINGS_HEADER_TABLE_SIZE
// is the bound the library checks dynamic table size updates against
// (RFC 7541 §6.3). The table's current maximum changes only through
// updates on the wire, as in Go's HTTP/2 stack.
//
// Limits. The library's maximum string length is left at 0 (unlimited) and
// emission is always enabled, so giant fields decode in full; header-list
// limits (the HPACK-bomb defence) belong to the strict oracle.
//
// Reading the table. The library has no table accessor. Every block and
// every setting is fed to two decoders, the one whose verdicts DecodeBlock
// returns and a shadow. Table probes the shadow with indexed header field
// representations 62, 63, ... (RFC 7541 §2.3.3), collecting the emitted
// fields until the first index the library rejects, then closes the
// shadow's block. An indexed representation never changes the dynamic
// table, and probes never touch the decoder that gives verdicts, so reading
// the table cannot change what later blocks decode to. DecodeBlock checks
// that both decoders agree on every block and reports a harness error if
// they ever diverge.
//
// What the library accepts that RFC 7541 forbids (each entry is recorded in
// oracle.KnownLeniencies and checked by the agreement tests):
//
//   - A dynamic table size update after a header field representation, as
//     long as the dynamic table is empty at that point (§4.2 requires updates
//     at the beginning of the block).
//   - A block without a size update after the acknowledged setting fell
//     below the table's maximum size (§4.2). The library is not told the
//     history of settings, only the current bound, so it cannot see this.
//
// What it rejects that RFC 7541 allows: a second dynamic table size update at
// the start of a block when the first left entries in the table, such as the
// "smallest, then final" pair §4.2 asks for after a setting went down to a
// non-zero size and back up. Integers are accepted with up to nine
// continuation octets; the strict oracle's limit is lower (§5.1 lets each
// implementation choose).
//
// As in HTTP/2, where any decoding error is a connection error
// (COMPRESSION_ERROR), a decoder that has returned an error returns
// ErrBroken from every later DecodeBlock.
package xnet

import (
	"errors"
	"fmt"
	"slices"

	"github.com/hpackcert/hpackcert/oracle"
	"golang.org/x/net/http2/hpack"
)

// Name is the name the decoder registers under and returns from Name.
const Name = "x/net"

// ErrBroken is returned by DecodeBlock after an earlier block failed to
// decode: the compression context is no longer defined.
var ErrBroken = errors.New("hpack: decoding context broken by an earlier error")

func init() {
	oracle.Register(Name, func() oracle.Decoder { return New() })
}

// initialTableSize is the initial SETTINGS_HEADER_TABLE_SIZE (RFC 9113
// §6.5.2) and the initial maximum size of the dynamic table.
const initialTableSize = 4096

// DefaultMaxHeaderListSize is the header list size a new Decoder accepts in
// one block, counted as HTTP/2 counts SETTINGS_MAX_HEADER_LIST_SIZE (name +
// value + 32 octets per field), as the strict and nghttp2 oracles do.
const DefaultMaxHeaderListSize = 64 << 10

// Decoder is one decoding context of golang.org/x/net/http2/hpack.
type Decoder struct {
	verdict *hpack.Decoder // gives DecodeBlock its results
	shadow  *hpack.Decoder // fed the same input; probed by Table
	err     error          // first decoding error, sticky
	maxList int            // header-list limit; <= 0: none
}

// New returns a decoder with a fresh context: a dynamic table of maximum
// size 4096, an acknowledged SETTINGS_HEADER_TABLE_SIZE of 4096 and a
// header-list limit of DefaultMaxHeaderListSize.
func New() *Decoder {
	return &Decoder{
		verdict: newLibraryDecoder(),
		shadow:  newLibraryDecoder(),
		maxList: DefaultMaxHeaderListSize,
	}
}

// SetMaxHeaderListSize sets how large one block may decode, counted as
// name + value + 32 octets per field; n <= 0 removes the limit. The
// library has no such limit: the decoder counts the fields it emits and,
// past the limit, keeps none of them and fails the block. This bounds the
// memory an HPACK bomb (RFC 7541 §7.3: a short block referring many times
// to a large entry) can take.
func (d *Decoder) SetMaxHeaderListSize(n int) { d.maxList = n }

func newLibraryDecoder() *hpack.Decoder {
	d := hpack.NewDecoder(initialTableSize, nil)
	d.SetMaxStringLength(0) // unlimited: giant fields must decode
	d.SetEmitEnabled(true)
	return d
}

// Name returns "x/net".
func (d *Decoder) Name() string { return Name }

// SetMaxDynamicTableSize records n as the acknowledged
// SETTINGS_HEADER_TABLE_SIZE: the upper bound for dynamic table size
// updates in later blocks (RFC 7541 §6.3).
func (d *Decoder) SetMaxDynamicTableSize(n uint32) {
	d.verdict.SetAllowedMaxDynamicTableSize(n)
	d.shadow.SetAllowedMaxDynamicTableSize(n)
}

// DecodeBlock decodes one complete header block. Sensitive is set from
// the library's HeaderField.Sensitive, which it sets for the "Literal
// Header Field Never Indexed" representation (RFC 7541 §6.2.3).
func (d *Decoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	if d.err != nil {
		return nil, fmt.Errorf("%w (first error: %v)", ErrBroken, d.err)
	}
	got, err := d.decode(d.verdict, block)
	shadowGot, shadowErr := d.decode(d.shadow, block)
	if (err == nil) != (shadowErr == nil) || !slices.Equal(got, shadowGot) {
		d.err = fmt.Errorf("xnet: shadow decoder diverged (verdict error %v, shadow error %v)", err, shadowErr)
		return nil, d.err
	}
	if err != nil {
		d.err = err
		return nil, err
	}
	fields := make([]oracle.Field, len(got))
	for i, f := range got {
		fields[i] = oracle.Field{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}
	}
	return fields, nil
}

// decode decodes one block with dec, as hpack.Decoder.DecodeFull does,
// but keeps the fields only up to the header-list limit.
func (d *Decoder) decode(dec *hpack.Decoder, block []byte) ([]hpack.HeaderField, error) {
	var fields []hpack.HeaderField
	size, over := 0, false
	dec.SetEmitFunc(func(f hpack.HeaderField) {
		if over {
			return
		}
		size += len(f.Name) + len(f.Value) + 32
		if d.maxList > 0 && size > d.maxList {
			over, fields = true, nil
			return
		}
		fields = append(fields, f)
	})
	defer dec.SetEmitFunc(func(hpack.HeaderField) {})
	if _, err := dec.Write(block); err != nil {
		return nil, err
	}
	if err := dec.Close(); err != nil {
		return nil, err
	}
	if over {
		return nil, fmt.Errorf("hpack: decoded header list exceeds %d octets (name + value + 32 per field), the header-list limit set by SetMaxHeaderListSize; this limit is the HPACK-bomb defence of RFC 7541 §7.3, not a rule of its own", d.maxList)
	}
	return fields, nil
}

// firstDynamicIndex is the index of the newest dynamic table entry: the
// static table holds indices 1 to 61 (RFC 7541 §2.3.3).
const firstDynamicIndex = 62

// Table returns the dynamic table, newest entry first, read from the shadow
// decoder by probing indices 62, 63, ... until the library rejects one.
func (d *Decoder) Table() []oracle.Field {
	var table []oracle.Field
	d.shadow.SetEmitFunc(func(f hpack.HeaderField) {
		table = append(table, oracle.Field{Name: f.Name, Value: f.Value})
	})
	var probe []byte
	for index := uint64(firstDynamicIndex); ; index++ {
		probe = appendIndexed(probe[:0], index)
		if _, err := d.shadow.Write(probe); err != nil {
			break
		}
	}
	// Close ends the probe "block": the shadow's next block starts fresh,
	// exactly as the verdict decoder's does. Its error only says that the
	// last probe was rejected, which is how the loop ended.
	_ = d.shadow.Close()
	d.shadow.SetEmitFunc(func(hpack.HeaderField) {})
	return table
}

// appendIndexed appends the "Indexed Header Field" representation of index
// (RFC 7541 §6.1): a 7-bit prefix integer (§5.1) with the high bit set.
func appendIndexed(dst []byte, index uint64) []byte {
	const prefixMax = 1<<7 - 1
	if index < prefixMax {
		return append(dst, 0x80|byte(index))
	}
	dst = append(dst, 0x80|prefixMax)
	for index -= prefixMax; index >= 0x80; index >>= 7 {
		dst = append(dst, 0x80|byte(index&0x7f))
	}
	return append(dst, byte(index))
}
