package bench

import (
	"bytes"

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
type XNet struct {
	blocks    [][]hpack.HeaderField
	connStart []int // blocks[connStart[c]:connStart[c+1]] belong to connection c
	buf       bytes.Buffer
	steady    *hpack.Encoder
	next      int
}

// NewXNet returns a runner of x/net's encoder over w.
func NewXNet(w *Workload) *XNet {
	r := &XNet{}
	r.blocks, r.connStart = headerFieldBlocks[hpack.HeaderField](w)
	r.steady = hpack.NewEncoder(&r.buf)
	return r
}

// headerFieldBlocks converts w's fields to F (x/net's HeaderField or
// package hpack's, which share their underlying type) once, up front, and
// returns its blocks with connStart, where blocks[connStart[c]:connStart[c+1]]
// belong to connection c.
func headerFieldBlocks[F ~struct {
	Name, Value string
	Sensitive   bool
}](w *Workload) (blocks [][]F, connStart []int) {
	connStart = []int{0}
	for _, c := range w.Conns {
		for _, b := range c {
			fields := make([]F, len(b))
			for i, f := range b {
				fields[i] = F{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}
			}
			blocks = append(blocks, fields)
		}
		connStart = append(connStart, len(blocks))
	}
	return blocks, connStart
}

// Steps implements Runner.
func (r *XNet) Steps(n int) (int, error) {
	total := 0
	for range n {
		fields := r.blocks[r.next]
		r.next++
		if r.next == len(r.blocks) {
			r.next = 0
		}
		r.buf.Reset()
		for _, f := range fields {
			if err := r.steady.WriteField(f); err != nil {
				return total, err
			}
		}
		total += r.buf.Len()
	}
	return total, nil
}

// Passes implements Runner.
func (r *XNet) Passes(n int) (int, error) {
	total := 0
	for range n {
		for c := range len(r.connStart) - 1 {
			enc := hpack.NewEncoder(&r.buf)
			for _, fields := range r.blocks[r.connStart[c]:r.connStart[c+1]] {
				r.buf.Reset()
				for _, f := range fields {
					if err := enc.WriteField(f); err != nil {
						return total, err
					}
				}
				total += r.buf.Len()
			}
		}
	}
	return total, nil
}

// Wire implements Runner.
func (r *XNet) Wire(c int) ([][]byte, error) {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	var out [][]byte
	for _, fields := range r.blocks[r.connStart[c]:r.connStart[c+1]] {
		buf.Reset()
		for _, f := range fields {
			if err := enc.WriteField(f); err != nil {
				return nil, err
			}
		}
		out = append(out, bytes.Clone(buf.Bytes()))
	}
	return out, nil
}

// Close implements Runner.
func (r *XNet) Close() {}

// appendHuffmanXNet appends the Huffman coding of each of values with
// x/net's hpack.AppendHuffmanString, as workload (d) measures it.
func appendHuffmanXNet(dst []byte, values []string) []byte {
	for _, v := range values {
		dst = hpack.AppendHuffmanString(dst, v)
	}
	return dst
}
