package bench

import (
	"fmt"
	"runtime"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/decoder"
)

// DecoderMemory is the memory one decoder holds per connection, with the
// default 4096-octet table: new, and after decoding a whole story.
type DecoderMemory struct {
	Impl         string
	New, Decoded float64 // bytes per connection
}

// DecoderMemoryImpls returns the decoders MeasureDecoderMemory can measure
// in this binary: ours, ours-scratch (ours with one decoder.Scratch shared
// by every connection, as one event loop's connections may share it),
// xnet and, with the nghttp2 build tag, nghttp2.
func DecoderMemoryImpls() []string {
	impls := []string{"ours", "ours-scratch", "xnet"}
	if nghttp2DecoderHeld != nil {
		impls = append(impls, "nghttp2")
	}
	return impls
}

// nghttp2DecoderHeld is set by the nghttp2 build (nghttp2decode.go): the C
// heap conns libnghttp2 inflaters hold new and after inflater i has
// decoded connection i modulo their number of rec.
var nghttp2DecoderHeld func(rec wireRecording, conns int) (idle, used int64, err error)

// MeasureDecoderMemory holds conns decoders of impl at once and reports
// the bytes each holds new and after decoder c has decoded connection c
// (modulo their number) of w, as x/net's Encoder recorded it
// (recordWire): for ours (decoder.New with the defaults) and x/net
// (hpack.NewDecoder(4096, ...), whose table keeps the strings it decoded)
// the growth of the Go heap after a full collection, for nghttp2 the
// bytes its inflaters hold through their nghttp2_mem, malloc's rounding
// included (malloc_usable_size), as for the encoders (MeasureMemory).
func MeasureDecoderMemory(w *Workload, impl string, conns int) (DecoderMemory, error) {
	rec := recordWire(w)
	m := DecoderMemory{Impl: impl}
	if len(rec.conns) == 0 || conns < 1 {
		return m, fmt.Errorf("bench: decoder memory of %s: no connection to decode", w.Name)
	}
	var decode func(i int, block []byte) error
	base := goHeap()
	switch impl {
	case "ours", "ours-scratch":
		var cfg decoder.Config
		if impl == "ours-scratch" {
			// The one Scratch is charged to the connections too.
			cfg.Scratch = decoder.NewScratch(0)
		}
		decs := make([]*decoder.Decoder, conns)
		for i := range decs {
			decs[i] = decoder.New(cfg)
		}
		emit := func(name, value []byte, sensitive bool) error { return nil }
		decode = func(i int, block []byte) error { return decs[i].Decode(block, emit) }
		defer runtime.KeepAlive(decs)
	case "xnet":
		decs := make([]*hpack.Decoder, conns)
		for i := range decs {
			decs[i] = hpack.NewDecoder(4096, func(hpack.HeaderField) {})
		}
		decode = func(i int, block []byte) error {
			_, err := decs[i].DecodeFull(block)
			return err
		}
		defer runtime.KeepAlive(decs)
	case "nghttp2":
		if nghttp2DecoderHeld != nil {
			idle, used, err := nghttp2DecoderHeld(rec, conns)
			m.New, m.Decoded = float64(idle)/float64(conns), float64(used)/float64(conns)
			return m, err
		}
		fallthrough
	default:
		return m, fmt.Errorf("bench: decoder %q not built in", impl)
	}
	m.New = float64(goHeap()-base) / float64(conns)
	for i := range conns {
		c := i % len(rec.conns)
		for b, block := range rec.conns[c] {
			if err := decode(i, block); err != nil {
				return m, fmt.Errorf("bench: %s decoder %d, connection %d block %d: %w", impl, i, c, b, err)
			}
		}
	}
	m.Decoded = float64(goHeap()-base) / float64(conns)
	// The recording was on the heap at base: it must still be at the end.
	runtime.KeepAlive(rec)
	return m, nil
}
