package bench

import (
	"bytes"

	"github.com/hpackcert/hpackcert/hpack"
)

// Compat runs the reference encoder through package hpack, the x/net
// Encoder API over it: the same calls as XNet (WriteField into a
// bytes.Buffer, a new Encoder per connection of a pass), so the two
// compare what a program gets by changing its import.
type Compat struct {
	blocks    [][]hpack.HeaderField
	connStart []int // blocks[connStart[c]:connStart[c+1]] belong to connection c
	buf       bytes.Buffer
	steady    *hpack.Encoder
	next      int
}

// NewCompat returns a runner of package hpack's Encoder over w.
func NewCompat(w *Workload) *Compat {
	r := &Compat{}
	r.blocks, r.connStart = headerFieldBlocks[hpack.HeaderField](w)
	r.steady = hpack.NewEncoder(&r.buf)
	return r
}

// Steps implements Runner.
func (r *Compat) Steps(n int) (int, error) {
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
func (r *Compat) Passes(n int) (int, error) {
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
func (r *Compat) Wire(c int) ([][]byte, error) {
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
func (r *Compat) Close() {}

// CompatImpls returns the implementations of the compat workloads: package
// hpack (named "hpack", in the place of ours) and x/net's Encoder, driven
// by the same calls.
func CompatImpls() []Impl {
	return []Impl{
		{Name: "hpack", NewRunner: func(w *Workload) (Runner, error) { return NewCompat(w), nil }},
		{Name: "xnet", NewRunner: func(w *Workload) (Runner, error) { return NewXNet(w), nil }},
	}
}
