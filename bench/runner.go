package bench

import (
	"bytes"
	"io"

	"golang.org/x/net/http2/hpack"
)

// Runner encodes a workload with one implementation. It is not safe for
// concurrent use.
type Runner interface {
	// Steps encodes the next n blocks of the workload on one long-lived
	// context, cycling through the blocks of every connection in order,
	// and returns the wire bytes produced.
	Steps(n int) (int, error)
	// Passes encodes the whole workload n times, every connection on a
	// context fresh for it, and returns the wire bytes produced.
	Passes(n int) (int, error)
	// Wire returns the encoded blocks of connection c, on a fresh context.
	Wire(c int) ([][]byte, error)
	// Close releases what the runner holds outside the Go heap.
	Close()
}

// Impl names an implementation and builds its runners.
type Impl struct {
	Name      string // "ours", "xnet" or "nghttp2": the impl= key of benchmark names
	NewRunner func(w *Workload) (Runner, error)
}

// Impls returns every implementation built into this binary: ours, x/net's
// and, with the nghttp2 build tag, libnghttp2's.
func Impls() []Impl {
	impls := []Impl{
		{Name: "ours", NewRunner: func(w *Workload) (Runner, error) { return NewOurs(w), nil }},
		{Name: "xnet", NewRunner: func(w *Workload) (Runner, error) { return NewXNet(w), nil }},
	}
	if nghttp2Impl.Name != "" {
		impls = append(impls, nghttp2Impl)
	}
	return impls
}

// XNet runs golang.org/x/net/http2/hpack's Encoder. Its fields are
// converted to hpack.HeaderField once, up front; a pass makes a new Encoder
// per connection, since x/net has no way to reset one.
type XNet = fieldWriterRunner[hpack.HeaderField, *hpack.Encoder]

// NewXNet returns a runner of x/net's encoder over w.
func NewXNet(w *Workload) *XNet {
	return newFieldWriterRunner[hpack.HeaderField](w, hpack.NewEncoder)
}

// headerField is the underlying type of x/net's HeaderField and of package
// hpack's, which share it.
type headerField interface {
	~struct {
		Name, Value string
		Sensitive   bool
	}
}

// fieldWriterRunner runs an encoder with x/net's API: WriteField of F into
// a bytes.Buffer, a new encoder from newEncoder per connection of a pass.
// XNet and Compat are its two instances.
type fieldWriterRunner[F headerField, E interface{ WriteField(F) error }] struct {
	blocks     [][]F
	connStart  []int // blocks[connStart[c]:connStart[c+1]] belong to connection c
	newEncoder func(io.Writer) E
	buf        bytes.Buffer
	steady     E
	next       int
}

// newFieldWriterRunner converts w's fields to F once, up front, and returns
// its runner.
func newFieldWriterRunner[F headerField, E interface{ WriteField(F) error }](w *Workload, newEncoder func(io.Writer) E) *fieldWriterRunner[F, E] {
	r := &fieldWriterRunner[F, E]{connStart: []int{0}, newEncoder: newEncoder}
	for _, c := range w.Conns {
		for _, b := range c {
			fields := make([]F, len(b))
			for i, f := range b {
				fields[i] = F{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}
			}
			r.blocks = append(r.blocks, fields)
		}
		r.connStart = append(r.connStart, len(r.blocks))
	}
	r.steady = newEncoder(&r.buf)
	return r
}

// writeBlock writes the fields of one block to enc.
func writeBlock[F headerField, E interface{ WriteField(F) error }](enc E, fields []F) error {
	for _, f := range fields {
		if err := enc.WriteField(f); err != nil {
			return err
		}
	}
	return nil
}

// Steps implements Runner.
func (r *fieldWriterRunner[F, E]) Steps(n int) (int, error) {
	total := 0
	for range n {
		fields := r.blocks[r.next]
		r.next++
		if r.next == len(r.blocks) {
			r.next = 0
		}
		r.buf.Reset()
		if err := writeBlock(r.steady, fields); err != nil {
			return total, err
		}
		total += r.buf.Len()
	}
	return total, nil
}

// Passes implements Runner.
func (r *fieldWriterRunner[F, E]) Passes(n int) (int, error) {
	total := 0
	for range n {
		for c := range len(r.connStart) - 1 {
			enc := r.newEncoder(&r.buf)
			for _, fields := range r.blocks[r.connStart[c]:r.connStart[c+1]] {
				r.buf.Reset()
				if err := writeBlock(enc, fields); err != nil {
					return total, err
				}
				total += r.buf.Len()
			}
		}
	}
	return total, nil
}

// Wire implements Runner.
func (r *fieldWriterRunner[F, E]) Wire(c int) ([][]byte, error) {
	var buf bytes.Buffer
	enc := r.newEncoder(&buf)
	var out [][]byte
	for _, fields := range r.blocks[r.connStart[c]:r.connStart[c+1]] {
		buf.Reset()
		if err := writeBlock(enc, fields); err != nil {
			return nil, err
		}
		out = append(out, bytes.Clone(buf.Bytes()))
	}
	return out, nil
}

// Close implements Runner.
func (r *fieldWriterRunner[F, E]) Close() {}

// appendHuffmanXNet appends the Huffman coding of each of values with
// x/net's hpack.AppendHuffmanString, as workload (d) measures it.
func appendHuffmanXNet(dst []byte, values []string) []byte {
	for _, v := range values {
		dst = hpack.AppendHuffmanString(dst, v)
	}
	return dst
}
