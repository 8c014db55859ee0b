//go:build nghttp2

package libnghttp2

// #include "conns.h"
// #include "records.h"
import "C"

import (
	"errors"
	"unsafe"
)

// Conns is a set of libnghttp2 deflaters, one per connection, whose C heap
// is counted as malloc_usable_size reports it, for a measure of memory per
// connection. Its C memory is freed only by Close.
type Conns struct {
	c         *C.hcconns
	tableSize uint32
	in        []byte // the records of the block being encoded
}

// NewConns returns an empty set of deflaters, with room for blocks of at
// most maxFields fields and maxBlock wire bytes, that Open makes with a
// dynamic table of tableSize bytes.
func NewConns(tableSize uint32, maxFields, maxBlock int) (*Conns, error) {
	c := C.hcconns_new(C.size_t(maxFields), C.size_t(maxBlock))
	if c == nil {
		return nil, errors.New("nghttp2: out of C memory")
	}
	// in is sized up front, so that encoding adds nothing to the Go heap
	// a measurement counts.
	return &Conns{c: c, tableSize: tableSize, in: make([]byte, 0, maxBlock+C.RECORD_HEADER*maxFields)}, nil
}

// Open creates n deflaters that never use more than the set's table size
// and, when it is not 4096, raises their table to it as a peer's
// SETTINGS_HEADER_TABLE_SIZE would.
func (s *Conns) Open(n int) error {
	if rv := C.hcconns_open(s.c, C.size_t(n), C.size_t(s.tableSize)); rv != 0 {
		return deflateError("Conns.Open", int(rv))
	}
	return nil
}

// Encode encodes fields as the next block of connection c.
func (s *Conns) Encode(c int, fields []Field) error {
	in, err := appendRecords(s.in[:0], fields)
	s.in = in
	if err != nil {
		return err
	}
	// in is Go memory without pointers, read by C during the call only.
	if rv := C.hcconns_encode(s.c, C.size_t(c), (*C.uint8_t)(unsafe.SliceData(in)), C.size_t(len(in)), C.size_t(len(fields))); rv < 0 {
		return deflateError("Conns.Encode", int(rv))
	}
	return nil
}

// CHeap returns the bytes the deflaters hold, malloc's rounding included.
func (s *Conns) CHeap() int64 { return int64(s.c.live) }

// Close frees the deflaters. It is safe to call more than once.
func (s *Conns) Close() {
	if s.c != nil {
		C.hcconns_del(s.c)
		s.c = nil
	}
}

// CreateDeflaters creates and deletes a deflater n times in a loop in C, as
// Conns.Open makes them, for the time it takes.
func CreateDeflaters(tableSize uint32, n int) error {
	c := C.hcconns_new(1, 1)
	if c == nil {
		return errors.New("nghttp2: out of C memory")
	}
	defer C.hcconns_del(c)
	if rv := C.hcconns_create(c, C.size_t(tableSize), C.int64_t(n)); rv != 0 {
		return deflateError("CreateDeflaters", int(rv))
	}
	return nil
}
