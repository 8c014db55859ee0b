//go:build nghttp2

package bench

/*
#cgo pkg-config: libnghttp2
#include <nghttp2/nghttp2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// bench_workload is a workload copied into C memory: the fields of every
// block in order, block b being nv[block_start[b]:block_start[b+1]] and
// connection c being blocks [conn_start[c], conn_start[c+1]).
typedef struct {
	nghttp2_nv *nv;
	size_t *block_start;
	size_t *conn_start;
	size_t nblocks, nconns;
	uint8_t *out;   // scratch for one block's wire bytes
	size_t outcap;
	nghttp2_hd_deflater *steady;
	size_t next;    // next block of bench_steps
	nghttp2_mem mem; // counts what the deflaters allocate
	int64_t allocs, alloc_bytes;
} bench_workload;

static void *bench_malloc(size_t size, void *ud) {
	bench_workload *w = ud;
	w->allocs++;
	w->alloc_bytes += (int64_t)size;
	return malloc(size);
}

static void *bench_calloc(size_t n, size_t size, void *ud) {
	bench_workload *w = ud;
	w->allocs++;
	w->alloc_bytes += (int64_t)(n * size);
	return calloc(n, size);
}

static void *bench_realloc(void *p, size_t size, void *ud) {
	bench_workload *w = ud;
	w->allocs++;
	w->alloc_bytes += (int64_t)size;
	return realloc(p, size);
}

static void bench_mfree(void *p, void *ud) {
	(void)ud;
	free(p);
}

// bench_new_deflater makes a deflater with the default 4096-byte table
// whose allocations w counts.
static int bench_new_deflater(bench_workload *w, nghttp2_hd_deflater **d) {
	w->mem.mem_user_data = w;
	w->mem.malloc = bench_malloc;
	w->mem.free = bench_mfree;
	w->mem.calloc = bench_calloc;
	w->mem.realloc = bench_realloc;
	return nghttp2_hd_deflate_new2(d, 4096, &w->mem);
}

static ssize_t bench_block(nghttp2_hd_deflater *d, bench_workload *w, size_t b, uint8_t *out, size_t outcap) {
	return nghttp2_hd_deflate_hd(d, out, outcap, w->nv + w->block_start[b],
		w->block_start[b + 1] - w->block_start[b]);
}

// bench_steps encodes the next n blocks on the long-lived deflater and
// returns the wire bytes, or a negative nghttp2 error code.
static int64_t bench_steps(bench_workload *w, int64_t n) {
	int64_t total = 0;
	for (int64_t i = 0; i < n; i++) {
		size_t b = w->next;
		w->next = b + 1 == w->nblocks ? 0 : b + 1;
		ssize_t r = bench_block(w->steady, w, b, w->out, w->outcap);
		if (r < 0) return r;
		total += r;
	}
	return total;
}

// bench_passes encodes the whole workload n times, each connection on a
// new deflater, and returns the wire bytes
// or a negative nghttp2 error code.
static int64_t bench_passes(bench_workload *w, int64_t n) {
	int64_t total = 0;
	for (int64_t i = 0; i < n; i++) {
		for (size_t c = 0; c < w->nconns; c++) {
			nghttp2_hd_deflater *d;
			int rv = bench_new_deflater(w, &d);
			if (rv != 0) return rv;
			for (size_t b = w->conn_start[c]; b < w->conn_start[c + 1]; b++) {
				ssize_t r = bench_block(d, w, b, w->out, w->outcap);
				if (r < 0) {
					nghttp2_hd_deflate_del(d);
					return r;
				}
				total += r;
			}
			nghttp2_hd_deflate_del(d);
		}
	}
	return total;
}

// bench_wire encodes connection c on a new deflater into out, the blocks
// one after another, storing each block's length in lens. It returns the
// total or a negative nghttp2 error code.
static int64_t bench_wire(bench_workload *w, size_t c, uint8_t *out, size_t outcap, size_t *lens) {
	nghttp2_hd_deflater *d;
	int rv = bench_new_deflater(w, &d);
	if (rv != 0) return rv;
	size_t used = 0;
	for (size_t b = w->conn_start[c]; b < w->conn_start[c + 1]; b++) {
		ssize_t r = bench_block(d, w, b, out + used, outcap - used);
		if (r < 0) {
			nghttp2_hd_deflate_del(d);
			return r;
		}
		lens[b - w->conn_start[c]] = (size_t)r;
		used += (size_t)r;
	}
	nghttp2_hd_deflate_del(d);
	return (int64_t)used;
}

static void bench_free(bench_workload *w) {
	if (w->steady) nghttp2_hd_deflate_del(w->steady);
	free(w->nv);
	free(w->block_start);
	free(w->conn_start);
	free(w->out);
	free(w);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

var nghttp2Impl = Impl{
	Name:      "nghttp2",
	NewRunner: func(w *Workload) (Runner, error) { return NewNghttp2(w) },
}

// Nghttp2 runs libnghttp2's deflater (nghttp2_hd_deflate_hd). The workload
// is copied into C memory once; Steps and Passes are one cgo call each,
// whatever n, so the loop runs in C. A pass creates and deletes a deflater
// per connection, since nghttp2 has no way to reset one.
type Nghttp2 struct {
	w        *C.bench_workload
	text     unsafe.Pointer // names and values, pointed to by w.nv
	connLen  []int          // blocks per connection
	outBound []int          // wire bound of each connection
}

// blockBound bounds the wire bytes of b: every field a literal with a
// literal name and no Huffman coding, each of its two lengths taking at
// most 6 bytes as a 7-bit-prefix integer (RFC 7541 §5.1), plus a leading
// dynamic table size update.
func blockBound(b Block) int {
	n := 16
	for _, f := range b {
		n += 1 + 6 + len(f.Name) + 6 + len(f.Value)
	}
	return n
}

// NewNghttp2 returns a runner of libnghttp2's deflater over w.
func NewNghttp2(w *Workload) (*Nghttp2, error) {
	nfields, nblocks, textLen, maxBound := 0, 0, 0, 0
	for _, c := range w.Conns {
		for _, b := range c {
			nblocks++
			nfields += len(b)
			textLen += b.rawBytes()
			maxBound = max(maxBound, blockBound(b))
		}
	}
	cw := (*C.bench_workload)(C.calloc(1, C.size_t(unsafe.Sizeof(C.bench_workload{}))))
	cw.nv = (*C.nghttp2_nv)(C.calloc(C.size_t(max(nfields, 1)), C.size_t(unsafe.Sizeof(C.nghttp2_nv{}))))
	cw.block_start = (*C.size_t)(C.calloc(C.size_t(nblocks+1), C.size_t(unsafe.Sizeof(C.size_t(0)))))
	cw.conn_start = (*C.size_t)(C.calloc(C.size_t(len(w.Conns)+1), C.size_t(unsafe.Sizeof(C.size_t(0)))))
	cw.out = (*C.uint8_t)(C.malloc(C.size_t(maxBound)))
	cw.outcap = C.size_t(maxBound)
	cw.nblocks = C.size_t(nblocks)
	cw.nconns = C.size_t(len(w.Conns))
	r := &Nghttp2{w: cw, text: C.malloc(C.size_t(max(textLen, 1)))}

	nv := unsafe.Slice(cw.nv, max(nfields, 1))
	blockStart := unsafe.Slice(cw.block_start, nblocks+1)
	connStart := unsafe.Slice(cw.conn_start, len(w.Conns)+1)
	text := unsafe.Slice((*byte)(r.text), max(textLen, 1))
	field, block, used := 0, 0, 0
	put := func(s string) (*C.uint8_t, C.size_t) {
		p := (*C.uint8_t)(unsafe.Add(r.text, used))
		used += copy(text[used:], s)
		return p, C.size_t(len(s))
	}
	for c, conn := range w.Conns {
		connStart[c] = C.size_t(block)
		bound := 0
		for _, b := range conn {
			blockStart[block] = C.size_t(field)
			for _, f := range b {
				nv[field].name, nv[field].namelen = put(f.Name)
				nv[field].value, nv[field].valuelen = put(f.Value)
				nv[field].flags = C.NGHTTP2_NV_FLAG_NONE
				if f.Sensitive {
					nv[field].flags = C.NGHTTP2_NV_FLAG_NO_INDEX
				}
				field++
			}
			block++
			bound += blockBound(b)
		}
		r.connLen = append(r.connLen, len(conn))
		r.outBound = append(r.outBound, bound)
	}
	blockStart[block] = C.size_t(field)
	connStart[len(w.Conns)] = C.size_t(block)

	if rv := C.bench_new_deflater(cw, &cw.steady); rv != 0 {
		r.Close()
		return nil, fmt.Errorf("bench: nghttp2_hd_deflate_new2: %s", C.GoString(C.nghttp2_strerror(rv)))
	}
	return r, nil
}

// errClosed is what a runner's methods return after Close.
var errClosed = errors.New("bench: nghttp2 runner used after Close")

func nghttp2Result(what string, rv C.int64_t) (int, error) {
	if rv < 0 {
		return 0, fmt.Errorf("bench: nghttp2 %s: %s", what, C.GoString(C.nghttp2_strerror(C.int(rv))))
	}
	return int(rv), nil
}

// Steps implements Runner in one cgo call.
func (r *Nghttp2) Steps(n int) (int, error) {
	if r.w == nil {
		return 0, errClosed
	}
	return nghttp2Result("steps", C.bench_steps(r.w, C.int64_t(n)))
}

// Passes implements Runner in one cgo call.
func (r *Nghttp2) Passes(n int) (int, error) {
	if r.w == nil {
		return 0, errClosed
	}
	return nghttp2Result("passes", C.bench_passes(r.w, C.int64_t(n)))
}

// Wire implements Runner.
func (r *Nghttp2) Wire(c int) ([][]byte, error) {
	if r.w == nil {
		return nil, errClosed
	}
	out := C.malloc(C.size_t(max(r.outBound[c], 1)))
	defer C.free(out)
	lens := (*C.size_t)(C.calloc(C.size_t(max(r.connLen[c], 1)), C.size_t(unsafe.Sizeof(C.size_t(0)))))
	defer C.free(unsafe.Pointer(lens))
	total, err := nghttp2Result("wire", C.bench_wire(r.w, C.size_t(c), (*C.uint8_t)(out), C.size_t(r.outBound[c]), lens))
	if err != nil {
		return nil, err
	}
	wire := C.GoBytes(out, C.int(total))
	blocks := make([][]byte, r.connLen[c])
	for i, n := range unsafe.Slice(lens, max(r.connLen[c], 1))[:r.connLen[c]] {
		blocks[i], wire = wire[:n:n], wire[n:]
	}
	return blocks, nil
}

// CAllocs returns the calls of the deflaters so far to malloc, calloc and
// realloc, and the bytes they asked for: the C side's allocations, which
// the Go benchmark's allocs/op cannot see.
func (r *Nghttp2) CAllocs() (calls, bytes int64) {
	return int64(r.w.allocs), int64(r.w.alloc_bytes)
}

// Close implements Runner.
func (r *Nghttp2) Close() {
	if r.w != nil {
		C.bench_free(r.w)
		C.free(r.text)
		r.w = nil
	}
}
