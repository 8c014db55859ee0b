package bench

import "strconv"

// Compression is the wire size of one workload under each implementation,
// one connection per row, every connection on a fresh context.
type Compression struct {
	Impls []string // implementation names, the columns
	Rows  []CompressionRow
}

// CompressionRow is one connection of a Compression table.
type CompressionRow struct {
	Conn   string // the workload's name for the connection, or its index
	Blocks int
	Raw    int   // octets of names and values
	Wire   []int // wire bytes, one per implementation, in the order of Impls
}

// Totals returns the sums of every column: blocks, raw bytes and the wire
// bytes of each implementation.
func (t *Compression) Totals() (blocks, raw int, wire []int) {
	wire = make([]int, len(t.Impls))
	for _, r := range t.Rows {
		blocks += r.Blocks
		raw += r.Raw
		for i, n := range r.Wire {
			wire[i] += n
		}
	}
	return blocks, raw, wire
}

// MeasureCompression encodes every connection of w with every one of impls
// and counts the bytes.
func MeasureCompression(w *Workload, impls []Impl) (*Compression, error) {
	t := &Compression{Rows: make([]CompressionRow, len(w.Conns))}
	for c, conn := range w.Conns {
		raw := 0
		for _, b := range conn {
			raw += b.rawBytes()
		}
		name := strconv.Itoa(c)
		if c < len(w.ConnNames) {
			name = w.ConnNames[c]
		}
		t.Rows[c] = CompressionRow{Conn: name, Blocks: len(conn), Raw: raw}
	}
	for _, impl := range impls {
		t.Impls = append(t.Impls, impl.Name)
		r, err := impl.NewRunner(w)
		if err != nil {
			return nil, err
		}
		for c := range w.Conns {
			blocks, err := r.Wire(c)
			if err != nil {
				r.Close()
				return nil, err
			}
			n := 0
			for _, b := range blocks {
				n += len(b)
			}
			t.Rows[c].Wire = append(t.Rows[c].Wire, n)
		}
		r.Close()
	}
	return t, nil
}
