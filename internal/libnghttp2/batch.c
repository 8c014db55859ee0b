//go:build nghttp2

#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "records.h"

static void *batch_malloc(size_t size, void *ud) {
	hcbatch *b = ud;
	b->allocs++;
	b->alloc_bytes += (int64_t)size;
	return malloc(size);
}

static void *batch_calloc(size_t n, size_t size, void *ud) {
	hcbatch *b = ud;
	b->allocs++;
	b->alloc_bytes += (int64_t)(n * size);
	return calloc(n, size);
}

static void *batch_realloc(void *p, size_t size, void *ud) {
	hcbatch *b = ud;
	b->allocs++;
	b->alloc_bytes += (int64_t)size;
	return realloc(p, size);
}

static void batch_free(void *p, void *ud) {
	(void)ud;
	free(p);
}

/* new_deflater makes a deflater with the default 4096-byte table whose
   allocations b counts. */
static int new_deflater(hcbatch *b, nghttp2_hd_deflater **d) {
	return nghttp2_hd_deflate_new2(d, 4096, &b->mem);
}

int hcbatch_new(hcbatch **bp, const uint8_t *in, size_t inlen, size_t nfields,
                const size_t *block_start, size_t nblocks,
                const size_t *conn_start, size_t nconns, size_t outcap) {
	hcbatch *b;
	int rv;

	*bp = NULL;
	b = calloc(1, sizeof *b);
	if (b == NULL) {
		return NGHTTP2_ERR_NOMEM;
	}
	b->mem.mem_user_data = b;
	b->mem.malloc = batch_malloc;
	b->mem.free = batch_free;
	b->mem.calloc = batch_calloc;
	b->mem.realloc = batch_realloc;
	b->nblocks = nblocks;
	b->nconns = nconns;
	b->outcap = outcap;
	b->text = malloc(inlen + 1);
	b->nv = calloc(nfields + 1, sizeof *b->nv);
	b->block_start = calloc(nblocks + 1, sizeof *b->block_start);
	b->conn_start = calloc(nconns + 1, sizeof *b->conn_start);
	b->out = malloc(outcap + 1);
	if (b->text == NULL || b->nv == NULL || b->block_start == NULL ||
	    b->conn_start == NULL || b->out == NULL) {
		hcbatch_del(b);
		return NGHTTP2_ERR_NOMEM;
	}
	memcpy(b->text, in, inlen);
	memcpy(b->block_start, block_start, (nblocks + 1) * sizeof *block_start);
	memcpy(b->conn_start, conn_start, (nconns + 1) * sizeof *conn_start);
	rv = records_parse(b->nv, nfields, b->text, inlen);
	if (rv == 0) {
		rv = new_deflater(b, &b->steady);
	}
	if (rv != 0) {
		hcbatch_del(b);
		return rv;
	}
	*bp = b;
	return 0;
}

static ssize_t encode(nghttp2_hd_deflater *d, hcbatch *b, size_t i, uint8_t *out, size_t outcap) {
	return nghttp2_hd_deflate_hd(d, out, outcap, b->nv + b->block_start[i],
	                             b->block_start[i + 1] - b->block_start[i]);
}

int64_t hcbatch_steps(hcbatch *b, int64_t n) {
	int64_t total = 0;
	for (int64_t i = 0; i < n; i++) {
		size_t k = b->next;
		b->next = k + 1 == b->nblocks ? 0 : k + 1;
		ssize_t r = encode(b->steady, b, k, b->out, b->outcap);
		if (r < 0) return r;
		total += r;
	}
	return total;
}

int64_t hcbatch_passes(hcbatch *b, int64_t n) {
	int64_t total = 0;
	for (int64_t i = 0; i < n; i++) {
		for (size_t c = 0; c < b->nconns; c++) {
			nghttp2_hd_deflater *d;
			int rv = new_deflater(b, &d);
			if (rv != 0) return rv;
			for (size_t k = b->conn_start[c]; k < b->conn_start[c + 1]; k++) {
				ssize_t r = encode(d, b, k, b->out, b->outcap);
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

int64_t hcbatch_wire(hcbatch *b, size_t c, uint8_t *out, size_t outcap, size_t *lens) {
	nghttp2_hd_deflater *d;
	int rv = new_deflater(b, &d);
	if (rv != 0) return rv;
	size_t used = 0;
	for (size_t k = b->conn_start[c]; k < b->conn_start[c + 1]; k++) {
		ssize_t r = encode(d, b, k, out + used, outcap - used);
		if (r < 0) {
			nghttp2_hd_deflate_del(d);
			return r;
		}
		lens[k - b->conn_start[c]] = (size_t)r;
		used += (size_t)r;
	}
	nghttp2_hd_deflate_del(d);
	return (int64_t)used;
}

void hcbatch_del(hcbatch *b) {
	if (b->steady) nghttp2_hd_deflate_del(b->steady);
	free(b->text);
	free(b->nv);
	free(b->block_start);
	free(b->conn_start);
	free(b->out);
	free(b);
}
