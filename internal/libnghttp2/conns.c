//go:build nghttp2

#include <stdlib.h>

#include "conns.h"
#include "records.h"
#include "usablemem.h"

hcconns *hcconns_new(size_t nvcap, size_t outcap) {
	hcconns *m = calloc(1, sizeof *m);
	if (m == NULL) return NULL;
	usablemem_init(&m->mem, &m->live);
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
