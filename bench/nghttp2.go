//go:build nghttp2

package bench

import "github.com/hpackcert/hpackcert/internal/libnghttp2"

var nghttp2Impl = Impl{
	Name:      "nghttp2",
	NewRunner: func(w *Workload) (Runner, error) { return NewNghttp2(w) },
}

// Nghttp2 runs libnghttp2's deflater (nghttp2_hd_deflate_hd) through
// internal/libnghttp2's Batch: the workload is copied into C memory once;
// Steps and Passes are one cgo call each, whatever n, so the loop runs in
// C. A pass creates and deletes a deflater per connection, since nghttp2
// has no way to reset one.
type Nghttp2 = libnghttp2.Batch

// NewNghttp2 returns a runner of libnghttp2's deflater over w.
func NewNghttp2(w *Workload) (*Nghttp2, error) { return libnghttp2.NewBatch(w.Conns) }

func init() {
	createNghttp2 = libnghttp2.CreateDeflaters
	newNghttp2Conns = func(tableSize uint32, maxBlock int) (connSet, error) {
		// Blocks of the workloads have at most a few hundred fields.
		const maxFields = 4096
		s, err := libnghttp2.NewConns(tableSize, maxFields, maxBlock)
		return nghttp2Conns{s}, err
	}
}

// nghttp2Conns is a set of libnghttp2 deflaters, one per connection,
// whose C heap internal/libnghttp2 counts.
type nghttp2Conns struct{ *libnghttp2.Conns }

func (s nghttp2Conns) open(n int) error            { return s.Open(n) }
func (s nghttp2Conns) encode(c int, b Block) error { return s.Encode(c, b) }
func (s nghttp2Conns) cHeap() int64                { return s.CHeap() }
func (s nghttp2Conns) close()                      { s.Close() }
