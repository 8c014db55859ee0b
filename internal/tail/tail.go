// Package tail keeps the end of a stream: the last octets a program wrote
// to its standard error or output, for a report or an error message,
// within a bound whatever the program writes.
package tail

import (
	"fmt"
	"sync"
)

// Buffer is an io.Writer that keeps the last Limit octets written to it,
// in one buffer allocated at the first write, and counts the octets it
// dropped. It is safe for concurrent use; the zero value keeps nothing.
type Buffer struct {
	mu      sync.Mutex
	limit   int
	buf     []byte
	dropped int
}

// New returns a Buffer that keeps the last limit octets.
func New(limit int) *Buffer { return &Buffer{limit: limit} }

// Write keeps the end of p; it never fails.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf == nil {
		b.buf = make([]byte, 0, b.limit)
	}
	n := len(p)
	if len(p) > b.limit {
		b.dropped += len(p) - b.limit
		p = p[len(p)-b.limit:]
	}
	if over := len(b.buf) + len(p) - b.limit; over > 0 {
		b.dropped += over
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	b.buf = append(b.buf, p...)
	return n, nil
}

// Bytes returns a copy of the octets kept.
func (b *Buffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte(nil), b.buf...)
}

// Dropped returns how many earlier octets were dropped.
func (b *Buffer) Dropped() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.dropped
}

// String returns the octets kept, after a line saying how many were
// dropped when some were.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped > 0 {
		return fmt.Sprintf("[%d earlier octets dropped]\n%s", b.dropped, b.buf)
	}
	return string(b.buf)
}

// Reset empties the buffer, keeping its memory.
func (b *Buffer) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf, b.dropped = b.buf[:0], 0
}
