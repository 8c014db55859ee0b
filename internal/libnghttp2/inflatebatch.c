//go:build nghttp2

#include <stdlib.h>
#include <string.h>

#include "inflatebatch.h"
#include "usablemem.h"

int hcinfbatch_new(hcinfbatch **bp, const uint8_t *in, size_t inlen,
                   const size_t *block_start, size_t nblocks,
                   const size_t *conn_start, size_t nconns,
                   size_t nvcap, size_t textcap, size_t outcap) {
	hcinfbatch *b;

	*bp = NULL;
	b = calloc(1, sizeof *b);
	if (b == NULL) {
		return NGHTTP2_ERR_NOMEM;
	}
	b->nblocks = nblocks;
	b->nconns = nconns;
	b->nvcap = nvcap;
	b->textcap = textcap;
	b->outcap = outcap;
	/* One more octet than asked, so that no size is 0. */
	b->wire = malloc(inlen + 1);
	b->block_start = calloc(nblocks + 1, sizeof *b->block_start);
	b->conn_start = calloc(nconns + 1, sizeof *b->conn_start);
	b->nv = calloc(nvcap + 1, sizeof *b->nv);
	b->text = malloc(textcap + 1);
	b->out = malloc(outcap + 1);
	if (b->wire == NULL || b->block_start == NULL || b->conn_start == NULL ||
	    b->nv == NULL || b->text == NULL || b->out == NULL) {
		hcinfbatch_del(b);
		return NGHTTP2_ERR_NOMEM;
	}
	memcpy(b->wire, in, inlen);
	memcpy(b->block_start, block_start, (nblocks + 1) * sizeof *block_start);
	memcpy(b->conn_start, conn_start, (nconns + 1) * sizeof *conn_start);
	*bp = b;
	return 0;
}

/* keep copies nv into the hop's room as the block's next field, since the
   inflater's views end at its next call; the never-indexed flag is kept
   so that the deflater sends the field never indexed again. */
static int keep(hcinfbatch *b, size_t *nfields, size_t *used, const nghttp2_nv *nv) {
	uint8_t *p;
	nghttp2_nv *out;

	if (*nfields == b->nvcap || b->textcap - *used < nv->namelen + nv->valuelen) {
		return HCINFB_ERR_ROOM;
	}
	p = b->text + *used;
	memcpy(p, nv->name, nv->namelen);
	memcpy(p + nv->namelen, nv->value, nv->valuelen);
	out = &b->nv[(*nfields)++];
	out->name = p;
	out->namelen = nv->namelen;
	out->value = p + nv->namelen;
	out->valuelen = nv->valuelen;
	out->flags = nv->flags & NGHTTP2_NV_FLAG_NO_INDEX;
	*used += nv->namelen + nv->valuelen;
	return 0;
}

/* inflate decodes block k with h into b->tally, and for a hop (nfields
   not NULL) copies its fields into the hop's room, *nfields of them. */
static int inflate(hcinfbatch *b, nghttp2_hd_inflater *h, size_t k, size_t *nfields) {
	const uint8_t *in = b->wire + b->block_start[k];
	size_t inlen = b->block_start[k + 1] - b->block_start[k];
	size_t used = 0;

	for (;;) {
		nghttp2_nv nv;
		int flags = 0;
		ssize_t n = nghttp2_hd_inflate_hd2(h, &nv, &flags, in, inlen, 1);
		if (n < 0) {
			return (int)n;
		}
		in += n;
		inlen -= (size_t)n;
		if (flags & NGHTTP2_HD_INFLATE_EMIT) {
			b->tally.fields++;
			b->tally.octets += (int64_t)(nv.namelen + nv.valuelen);
			if (nv.flags & NGHTTP2_NV_FLAG_NO_INDEX) {
				b->tally.sensitive++;
			}
			if (nfields != NULL) {
				int rv = keep(b, nfields, &used, &nv);
				if (rv != 0) {
					return rv;
				}
			}
		}
		if (flags & NGHTTP2_HD_INFLATE_FINAL) {
			nghttp2_hd_inflate_end_headers(h);
			return 0;
		}
		if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && n == 0) {
			return HCINFB_ERR_NO_PROGRESS;
		}
	}
}

/* loop runs n passes over every connection, each on a new inflater and,
   for a hop, a new deflater with the default 4096-octet table. */
static int loop(hcinfbatch *b, int64_t n, int hop) {
	memset(&b->tally, 0, sizeof b->tally);
	for (int64_t i = 0; i < n; i++) {
		for (size_t c = 0; c < b->nconns; c++) {
			nghttp2_hd_inflater *h;
			nghttp2_hd_deflater *d = NULL;
			int rv = nghttp2_hd_inflate_new2(&h, NULL);
			if (rv == 0 && hop) {
				rv = nghttp2_hd_deflate_new2(&d, 4096, NULL);
				if (rv != 0) nghttp2_hd_inflate_del(h);
			}
			if (rv != 0) {
				b->fail_conn = c;
				b->fail_block = 0;
				return rv;
			}
			for (size_t k = b->conn_start[c]; k < b->conn_start[c + 1] && rv == 0; k++) {
				size_t nfields = 0;
				rv = inflate(b, h, k, hop ? &nfields : NULL);
				if (rv == 0 && hop) {
					ssize_t w = nghttp2_hd_deflate_hd(d, b->out, b->outcap, b->nv, nfields);
					if (w < 0) {
						rv = (int)w;
					} else {
						b->tally.wire += w;
					}
				}
				if (rv != 0) {
					b->fail_conn = c;
					b->fail_block = k - b->conn_start[c];
				}
			}
			nghttp2_hd_inflate_del(h);
			if (d != NULL) nghttp2_hd_deflate_del(d);
			if (rv != 0) return rv;
		}
	}
	return 0;
}

int hcinfbatch_passes(hcinfbatch *b, int64_t n) { return loop(b, n, 0); }

int hcinfbatch_hops(hcinfbatch *b, int64_t n) { return loop(b, n, 1); }

int hcinfbatch_held(hcinfbatch *b, size_t n, int64_t *idle, int64_t *used) {
	nghttp2_mem mem;
	int64_t live = 0;
	nghttp2_hd_inflater **hs;
	size_t made = 0;
	int rv = 0;

	if (b->nconns == 0) {
		return NGHTTP2_ERR_INVALID_ARGUMENT;
	}
	usablemem_init(&mem, &live);
	hs = calloc(n + 1, sizeof *hs);
	if (hs == NULL) {
		return NGHTTP2_ERR_NOMEM;
	}
	for (; made < n && rv == 0; made++) {
		rv = nghttp2_hd_inflate_new2(&hs[made], &mem);
	}
	if (rv != 0) {
		made--; /* the failed one was not made */
	}
	*idle = live;
	for (size_t i = 0; i < made && rv == 0; i++) {
		size_t c = i % b->nconns;
		for (size_t k = b->conn_start[c]; k < b->conn_start[c + 1] && rv == 0; k++) {
			rv = inflate(b, hs[i], k, NULL);
			if (rv != 0) {
				b->fail_conn = c;
				b->fail_block = k - b->conn_start[c];
			}
		}
	}
	*used = live;
	for (size_t i = 0; i < made; i++) {
		nghttp2_hd_inflate_del(hs[i]);
	}
	free(hs);
	return rv;
}

void hcinfbatch_del(hcinfbatch *b) {
	free(b->wire);
	free(b->block_start);
	free(b->conn_start);
	free(b->nv);
	free(b->text);
	free(b->out);
	free(b);
}
