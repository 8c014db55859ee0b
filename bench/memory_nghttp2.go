//go:build nghttp2

package bench

/*
#cgo pkg-config: libnghttp2
#include <nghttp2/nghttp2.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// mem_conns is a set of deflaters whose allocations it counts: live is
// the bytes they hold, as malloc_usable_size reports them (malloc's
// rounding included, as Go's heap figures include its size classes).
typedef struct {
	nghttp2_mem mem;
	int64_t live;
	nghttp2_hd_deflater **d;
	size_t n;
	nghttp2_nv *nv;
	size_t nvcap;
	uint8_t *out;
	size_t outcap;
} mem_conns;

static void *mc_malloc(size_t size, void *ud) {
	mem_conns *m = ud;
	void *p = malloc(size);
	if (p != NULL) m->live += (int64_t)malloc_usable_size(p);
	return p;
}

static void mc_free(void *p, void *ud) {
	mem_conns *m = ud;
	if (p == NULL) return;
	m->live -= (int64_t)malloc_usable_size(p);
	free(p);
}

static void *mc_calloc(size_t n, size_t size, void *ud) {
	mem_conns *m = ud;
	void *p = calloc(n, size);
	if (p != NULL) m->live += (int64_t)malloc_usable_size(p);
	return p;
}

static void *mc_realloc(void *p, size_t size, void *ud) {
	mem_conns *m = ud;
	int64_t old = p != NULL ? (int64_t)malloc_usable_size(p) : 0;
	void *q = realloc(p, size);
	if (q != NULL) {
		m->live += (int64_t)malloc_usable_size(q) - old;
	} else if (size == 0) {
		m->live -= old;
	}
	return q;
}

static mem_conns *mc_new(size_t nvcap, size_t outcap) {
	mem_conns *m = calloc(1, sizeof *m);
	if (m == NULL) return NULL;
	m->mem.mem_user_data = m;
	m->mem.malloc = mc_malloc;
	m->mem.free = mc_free;
	m->mem.calloc = mc_calloc;
	m->mem.realloc = mc_realloc;
	m->nv = calloc(nvcap, sizeof *m->nv);
	m->nvcap = nvcap;
	m->out = malloc(outcap);
	m->outcap = outcap;
	if (m->nv == NULL || m->out == NULL) {
		free(m->nv);
		free(m->out);
		free(m);
		return NULL;
	}
	return m;
}

// mc_open creates n deflaters that never use more than table bytes of
// dynamic table and, when table is not 4096, raises their table to it as
// a peer's SETTINGS_HEADER_TABLE_SIZE would.
static int mc_open(mem_conns *m, size_t n, size_t table) {
	m->d = calloc(n, sizeof *m->d);
	if (m->d == NULL) return NGHTTP2_ERR_NOMEM;
	for (; m->n < n; m->n++) {
		int rv = nghttp2_hd_deflate_new2(&m->d[m->n], table, &m->mem);
		if (rv == 0 && table != 4096) rv = nghttp2_hd_deflate_change_table_size(m->d[m->n], table);
		if (rv != 0) return rv;
	}
	return 0;
}

static uint32_t mc_le32(const uint8_t *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

// mc_encode encodes the nfields fields of in, records of name length and
// value length (4 bytes each, little endian), flags (1 byte), name and
// value, as the next block of deflater c. nghttp2 reads the fields during
// the call only, and copies what it keeps.
static int64_t mc_encode(mem_conns *m, size_t c, const uint8_t *in, size_t nfields) {
	if (nfields > m->nvcap) return NGHTTP2_ERR_INVALID_ARGUMENT;
	for (size_t i = 0; i < nfields; i++) {
		nghttp2_nv *nv = &m->nv[i];
		nv->namelen = mc_le32(in);
		nv->valuelen = mc_le32(in + 4);
		nv->flags = in[8];
		nv->name = (uint8_t *)in + 9;
		nv->value = nv->name + nv->namelen;
		in = nv->value + nv->valuelen;
	}
	return nghttp2_hd_deflate_hd(m->d[c], m->out, m->outcap, m->nv, nfields);
}

// mc_create creates and deletes a deflater n times, as mc_open makes
// them, for the time it takes.
static int mc_create(mem_conns *m, size_t table, int64_t n) {
	for (int64_t i = 0; i < n; i++) {
		nghttp2_hd_deflater *d;
		int rv = nghttp2_hd_deflate_new2(&d, table, &m->mem);
		if (rv == 0 && table != 4096) rv = nghttp2_hd_deflate_change_table_size(d, table);
		if (rv != 0) return rv;
		nghttp2_hd_deflate_del(d);
	}
	return 0;
}

static void mc_free_all(mem_conns *m) {
	for (size_t i = 0; i < m->n; i++) nghttp2_hd_deflate_del(m->d[i]);
	free(m->d);
	free(m->nv);
	free(m->out);
	free(m);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

func init() {
	createNghttp2 = func(tableSize uint32, n int) error {
		m := C.mc_new(1, 1)
		if m == nil {
			return errors.New("bench: out of C memory")
		}
		defer C.mc_free_all(m)
		if rv := C.mc_create(m, C.size_t(tableSize), C.int64_t(n)); rv != 0 {
			return fmt.Errorf("bench: nghttp2_hd_deflate_new2: %s", C.GoString(C.nghttp2_strerror(rv)))
		}
		return nil
	}
	newNghttp2Conns = func(tableSize uint32, maxBlock int) (connSet, error) {
		// Blocks of the workloads have at most a few hundred fields.
		const maxFields = 4096
		m := C.mc_new(maxFields, C.size_t(maxBlock))
		if m == nil {
			return nil, errors.New("bench: out of C memory")
		}
		return &nghttp2Conns{m: m, tableSize: tableSize, in: make([]byte, 0, maxBlock+9*maxFields)}, nil
	}
}

// nghttp2Conns is a set of libnghttp2 deflaters, one per connection.
type nghttp2Conns struct {
	m         *C.mem_conns
	tableSize uint32
	in        []byte // the records of the block being encoded
}

func (s *nghttp2Conns) open(n int) error {
	if rv := C.mc_open(s.m, C.size_t(n), C.size_t(s.tableSize)); rv != 0 {
		return fmt.Errorf("bench: nghttp2_hd_deflate_new2: %s", C.GoString(C.nghttp2_strerror(rv)))
	}
	return nil
}

func (s *nghttp2Conns) encode(c int, b Block) error {
	in := s.in[:0]
	for _, f := range b {
		var flags byte
		if f.Sensitive {
			flags = C.NGHTTP2_NV_FLAG_NO_INDEX
		}
		in = append(in, byte(len(f.Name)), byte(len(f.Name)>>8), byte(len(f.Name)>>16), byte(len(f.Name)>>24),
			byte(len(f.Value)), byte(len(f.Value)>>8), byte(len(f.Value)>>16), byte(len(f.Value)>>24), flags)
		in = append(in, f.Name...)
		in = append(in, f.Value...)
	}
	s.in = in
	// in is Go memory without pointers, read by C during the call only.
	if rv := C.mc_encode(s.m, C.size_t(c), (*C.uint8_t)(unsafe.SliceData(in)), C.size_t(len(b))); rv < 0 {
		return fmt.Errorf("bench: nghttp2_hd_deflate_hd: %s", C.GoString(C.nghttp2_strerror(C.int(rv))))
	}
	return nil
}

func (s *nghttp2Conns) cHeap() int64 { return int64(s.m.live) }

func (s *nghttp2Conns) close() {
	if s.m != nil {
		C.mc_free_all(s.m)
		s.m = nil
	}
}
