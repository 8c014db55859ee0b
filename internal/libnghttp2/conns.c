//go:build nghttp2

#include <stdlib.h>

/* Every binary built with the nghttp2 tag links this file, so it names
   the usable size of a block as each C library does. */
#if defined(__APPLE__)
#include <malloc/malloc.h>
#define usable_size malloc_size
#else
#include <malloc.h>
#define usable_size malloc_usable_size
#endif

#include "conns.h"
#include "records.h"

static void *conns_malloc(size_t size, void *ud) {
	hcconns *m = ud;
	void *p = malloc(size);
	if (p != NULL) m->live += (int64_t)usable_size(p);
	return p;
}

static void conns_free(void *p, void *ud) {
	hcconns *m = ud;
	if (p == NULL) return;
	m->live -= (int64_t)usable_size(p);
	free(p);
}

static void *conns_calloc(size_t n, size_t size, void *ud) {
	hcconns *m = ud;
	void *p = calloc(n, size);
	if (p != NULL) m->live += (int64_t)usable_size(p);
	return p;
}

static void *conns_realloc(void *p, size_t size, void *ud) {
	hcconns *m = ud;
	int64_t old = p != NULL ? (int64_t)usable_size(p) : 0;
	void *q = realloc(p, size);
	if (q != NULL) {
		m->live += (int64_t)usable_size(q) - old;
	} else if (size == 0) {
		m->live -= old;
	}
	return q;
}

hcconns *hcconns_new(size_t nvcap, size_t outcap) {
	hcconns *m = calloc(1, sizeof *m);
	if (m == NULL) return NULL;
	m->mem.mem_user_data = m;
	m->mem.malloc = conns_malloc;
	m->mem.free = conns_free;
	m->mem.calloc = conns_calloc;
	m->mem.realloc = conns_realloc;
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

static int new_deflater(hcconns *m, size_t table, nghttp2_hd_deflater **d) {
	int rv = nghttp2_hd_deflate_new2(d, table, &m->mem);
	if (rv == 0 && table != 4096) {
		rv = nghttp2_hd_deflate_change_table_size(*d, table);
		if (rv != 0) nghttp2_hd_deflate_del(*d);
	}
	return rv;
}

int hcconns_open(hcconns *m, size_t n, size_t table) {
	m->d = calloc(n, sizeof *m->d);
	if (m->d == NULL) return NGHTTP2_ERR_NOMEM;
	for (; m->n < n; m->n++) {
		int rv = new_deflater(m, table, &m->d[m->n]);
		if (rv != 0) return rv;
	}
	return 0;
}

int64_t hcconns_encode(hcconns *m, size_t c, const uint8_t *in, size_t inlen, size_t nfields) {
	int rv;

	if (nfields > m->nvcap) return NGHTTP2_ERR_INVALID_ARGUMENT;
	rv = records_parse(m->nv, nfields, in, inlen);
	if (rv != 0) return rv;
	return nghttp2_hd_deflate_hd(m->d[c], m->out, m->outcap, m->nv, nfields);
}

int hcconns_create(hcconns *m, size_t table, int64_t n) {
	for (int64_t i = 0; i < n; i++) {
		nghttp2_hd_deflater *d;
		int rv = new_deflater(m, table, &d);
		if (rv != 0) return rv;
		nghttp2_hd_deflate_del(d);
	}
	return 0;
}

void hcconns_del(hcconns *m) {
	for (size_t i = 0; i < m->n; i++) nghttp2_hd_deflate_del(m->d[i]);
	free(m->d);
	free(m->nv);
	free(m->out);
	free(m);
}
