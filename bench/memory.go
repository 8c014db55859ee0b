package bench

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/encoder"
)

// MemoryCase is one implementation and table size whose memory per
// connection MeasureMemory measures.
type MemoryCase struct {
	Impl string // "ours", "xnet" or "nghttp2"
	// Capacity is ours' Config.Capacity (0 for the peers).
	Capacity uint32
	// TableSize is the peer's SETTINGS_HEADER_TABLE_SIZE the encoder is
	// told after it is created: 4096 leaves the default.
	TableSize uint32
}

func (c MemoryCase) String() string {
	if c.Capacity != 0 {
		return fmt.Sprintf("%s, Capacity %d, table %d", c.Impl, c.Capacity, c.TableSize)
	}
	return fmt.Sprintf("%s, table %d", c.Impl, c.TableSize)
}

// MemoryCases returns the cases of BENCHMARKS.md's memory table that this
// binary can run: ours at Capacity 4096, 16384 and 65536, each with the
// table raised to its Capacity, and at Capacity 65536 with the table left
// at 4096; x/net and (with the nghttp2 build tag) nghttp2 at tables of
// 4096, 16384 and 65536.
func MemoryCases() []MemoryCase {
	cases := []MemoryCase{
		{"ours", 4096, 4096},
		{"ours", 16384, 16384},
		{"ours", 65536, 65536},
		{"ours", 65536, 4096},
	}
	for _, impl := range Impls()[1:] {
		for _, size := range []uint32{4096, 16384, 65536} {
			cases = append(cases, MemoryCase{Impl: impl.Name, TableSize: size})
		}
	}
	return cases
}

// connSet is live connections of one implementation, each with its own
// encoder.
type connSet interface {
	// open creates n encoders, one per connection, as told by the case.
	open(n int) error
	// encode encodes b as the next block of connection c.
	encode(c int, b Block) error
	// cHeap returns the bytes the encoders hold outside the Go heap.
	cHeap() int64
	close()
}

// newConnSet returns an empty set of connections of mc, with its buffers
// for blocks of up to maxBlock bytes (blockLen) allocated.
func newConnSet(mc MemoryCase, maxBlock int) (connSet, error) {
	switch mc.Impl {
	case "ours":
		return &oursConns{capacity: mc.Capacity, tableSize: mc.TableSize, dst: make([]byte, 0, maxBlock)}, nil
	case "xnet":
		s := &xnetConns{tableSize: mc.TableSize}
		s.buf.Grow(maxBlock)
		return s, nil
	case "nghttp2":
		if newNghttp2Conns != nil {
			return newNghttp2Conns(mc.TableSize, maxBlock)
		}
	}
	return nil, fmt.Errorf("bench: implementation %q not built in", mc.Impl)
}

type oursConns struct {
	capacity, tableSize uint32
	encs                []*encoder.Encoder
	dst                 []byte
}

func (s *oursConns) open(n int) error {
	s.encs = make([]*encoder.Encoder, n)
	for i := range s.encs {
		s.encs[i] = encoder.New(encoder.Config{Capacity: s.capacity})
		if s.tableSize != 4096 {
			s.encs[i].SetMaxDynamicTableSize(s.tableSize)
		}
	}
	return nil
}

func (s *oursConns) encode(c int, b Block) error {
	s.dst = appendBlock(s.encs[c], s.dst[:0], b)
	return nil
}

func (s *oursConns) cHeap() int64 { return 0 }
func (s *oursConns) close()       {}

type xnetConns struct {
	tableSize uint32
	encs      []*hpack.Encoder
	buf       bytes.Buffer
}

func (s *xnetConns) open(n int) error {
	s.encs = make([]*hpack.Encoder, n)
	for i := range s.encs {
		s.encs[i] = hpack.NewEncoder(&s.buf)
		if s.tableSize != 4096 {
			s.encs[i].SetMaxDynamicTableSizeLimit(s.tableSize)
			s.encs[i].SetMaxDynamicTableSize(s.tableSize)
		}
	}
	return nil
}

func (s *xnetConns) encode(c int, b Block) error {
	s.buf.Reset()
	for _, f := range b {
		if err := s.encs[c].WriteField(hpack.HeaderField{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive}); err != nil {
			return err
		}
	}
	return nil
}

func (s *xnetConns) cHeap() int64 { return 0 }
func (s *xnetConns) close()       {}

// newNghttp2Conns and createNghttp2 are set by the nghttp2 build
// (nghttp2.go). createNghttp2 creates and deletes a deflater n
// times in a loop in C, as newNghttp2Conns makes them.
var (
	newNghttp2Conns func(tableSize uint32, maxBlock int) (connSet, error)
	createNghttp2   func(tableSize uint32, n int) error
)

// MemoryPoint is the memory of one case after some blocks of traffic.
type MemoryPoint struct {
	Blocks       int
	BytesPerConn float64 // Go heap plus, for nghttp2, its C heap
}

// MeasureMemory creates conns connections of mc and reports the heap bytes
// held per connection after each count of blocks of traffic in after
// (ascending), the garbage collected. Connection c encodes the blocks of
// w's connections one after another, cycling, starting at block 97c, each
// block a fresh copy of its names and values, as a proxy forwards strings
// it has just decoded: x/net keeps the strings of its table entries, the
// others copy what they keep.
func MeasureMemory(w *Workload, mc MemoryCase, conns int, after []int) ([]MemoryPoint, error) {
	var stream []Block
	for _, c := range w.Conns {
		stream = append(stream, c...)
	}
	if len(stream) == 0 {
		return nil, fmt.Errorf("bench: workload %s has no blocks", w.Name)
	}
	maxBlock := 0
	for _, b := range stream {
		maxBlock = max(maxBlock, blockLen(b))
	}
	set, err := newConnSet(mc, maxBlock)
	if err != nil {
		return nil, err
	}
	defer set.close()
	base, cBase := goHeap(), set.cHeap()
	if err := set.open(conns); err != nil {
		return nil, err
	}
	var points []MemoryPoint
	done := 0
	for _, blocks := range after {
		for c := range conns {
			for i := done; i < blocks; i++ {
				if err := set.encode(c, cloneBlock(stream[(97*c+i)%len(stream)])); err != nil {
					return nil, fmt.Errorf("bench: %v, connection %d, block %d: %v", mc, c, i, err)
				}
			}
		}
		done = blocks
		held := goHeap() - base + set.cHeap() - cBase
		points = append(points, MemoryPoint{Blocks: blocks, BytesPerConn: float64(held) / float64(conns)})
	}
	runtime.KeepAlive(set)
	return points, nil
}

// goHeap returns the bytes of live Go heap objects after a complete
// garbage collection.
func goHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

func cloneBlock(b Block) Block {
	c := make(Block, len(b))
	for i, f := range b {
		c[i] = Field{Name: strings.Clone(f.Name), Value: strings.Clone(f.Value), Sensitive: f.Sensitive}
	}
	return c
}
