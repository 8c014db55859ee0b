//go:build unix

package encoder

import (
	"os"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"
)

// guarded is memory followed by an inaccessible page.
type guarded struct {
	mem []byte // the accessible pages
}

func newGuarded(t testing.TB, size int) *guarded {
	t.Helper()
	page := os.Getpagesize()
	pages := (size + page - 1) / page
	mem, err := syscall.Mmap(-1, 0, (pages+1)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	if err := syscall.Mprotect(mem[pages*page:], syscall.PROT_NONE); err != nil {
		syscall.Munmap(mem)
		t.Skipf("mprotect: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	return &guarded{mem: mem[:pages*page]}
}

// tail returns the last n accessible bytes, with no capacity beyond.
func (g *guarded) tail(n int) []byte {
	return g.mem[len(g.mem)-n : len(g.mem) : len(g.mem)]
}

// str copies s to the end of g and returns that copy.
func (g *guarded) str(s string) string {
	if len(s) == 0 {
		return ""
	}
	b := g.tail(len(s))
	copy(b, s)
	return unsafe.String(&b[0], len(b))
}

// catchFault runs f, turning a fault (a read or store in the guard page)
// into a test failure that names the input.
func catchFault(t *testing.T, what func() string, f func()) {
	old := debug.SetPanicOnFault(true)
	defer debug.SetPanicOnFault(old)
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: %v", what(), r)
		}
	}()
	f()
}
