package bench

import "github.com/hpackcert/hpackcert/encoder"

// Ours runs the reference encoder. Steps and Passes allocate nothing: dst
// is sized once with encoder.MaxFieldLen, and a pass takes its encoders
// from an encoder.Pool (or, for NewOursUnpooled, makes each with
// encoder.New).
type Ours struct {
	blocks    []Block
	lists     [][]encoder.Field // blocks as AppendBlock takes them, for NewOursBlock
	connStart []int             // blocks[connStart[c]:connStart[c+1]] belong to connection c
	unpooled  bool
	pool      encoder.Pool
	steady    *encoder.Encoder
	dst       []byte
	next      int
}

// NewOurs returns a runner of the reference encoder over w whose passes
// take a pooled encoder for each connection and put it back after.
func NewOurs(w *Workload) *Ours {
	r := &Ours{connStart: []int{0}}
	largest := 0
	for _, c := range w.Conns {
		for _, b := range c {
			r.blocks = append(r.blocks, b)
			largest = max(largest, blockLen(b))
		}
		r.connStart = append(r.connStart, len(r.blocks))
	}
	r.steady = encoder.New(encoder.Config{})
	r.dst = make([]byte, 0, largest)
	return r
}

// NewOursUnpooled is NewOurs with passes that make every connection's
// encoder with encoder.New and drop it after: a connection set up without a
// pool.
func NewOursUnpooled(w *Workload) *Ours {
	r := NewOurs(w)
	r.unpooled = true
	return r
}

// NewOursBlock is NewOurs with each block encoded by one AppendBlock call
// (encoder's block API) instead of a call a field; its fields are converted
// to encoder.Field once, up front.
func NewOursBlock(w *Workload) *Ours {
	r := NewOurs(w)
	r.lists = make([][]encoder.Field, len(r.blocks))
	for i, b := range r.blocks {
		r.lists[i] = make([]encoder.Field, len(b))
		for j, f := range b {
			r.lists[i][j] = encoder.Field{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}
		}
	}
	return r
}

// encode appends block i of the workload with e, by AppendBlock for a
// runner of NewOursBlock, else a call a field.
func (r *Ours) encode(e *encoder.Encoder, dst []byte, i int) []byte {
	if r.lists != nil {
		return e.AppendBlock(dst, r.lists[i])
	}
	return appendBlock(e, dst, r.blocks[i])
}

// blockLen bounds the bytes one block appends, by encoder.MaxFieldLen.
func blockLen(b Block) int {
	n := 0
	for _, f := range b {
		n += encoder.MaxFieldLen(len(f.Name), len(f.Value))
	}
	return n
}

func appendBlock(e *encoder.Encoder, dst []byte, b Block) []byte {
	for i := range b {
		f := &b[i] // not a copy of the field: the harness stays out of the measure
		dst = e.AppendFieldString(dst, f.Name, f.Value, f.Sensitive)
	}
	return dst
}

// Steps implements Runner.
func (r *Ours) Steps(n int) (int, error) {
	total := 0
	for range n {
		i := r.next
		r.next++
		if r.next == len(r.blocks) {
			r.next = 0
		}
		r.dst = r.encode(r.steady, r.dst[:0], i)
		total += len(r.dst)
	}
	return total, nil
}

// Passes implements Runner.
func (r *Ours) Passes(n int) (int, error) {
	total := 0
	for range n {
		for c := range len(r.connStart) - 1 {
			var e *encoder.Encoder
			if r.unpooled {
				e = encoder.New(encoder.Config{})
			} else {
				e = r.pool.Get()
			}
			for i := r.connStart[c]; i < r.connStart[c+1]; i++ {
				r.dst = r.encode(e, r.dst[:0], i)
				total += len(r.dst)
			}
			if !r.unpooled {
				r.pool.Put(e)
			}
		}
	}
	return total, nil
}

// Wire implements Runner.
func (r *Ours) Wire(c int) ([][]byte, error) {
	e := encoder.New(encoder.Config{})
	var out [][]byte
	for i := r.connStart[c]; i < r.connStart[c+1]; i++ {
		out = append(out, r.encode(e, nil, i))
	}
	return out, nil
}

// Close implements Runner.
func (r *Ours) Close() {}

// appendHuffmanOurs appends the Huffman coding (RFC 7541 §5.2) of each of
// values with encoder.AppendHuffmanString, as workload (d) measures it.
func appendHuffmanOurs(dst []byte, values []string) []byte {
	for _, v := range values {
		dst = encoder.AppendHuffmanString(dst, v)
	}
	return dst
}
