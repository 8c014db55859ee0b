//go:build nghttp2

#include "deflate.h"

static void del(hcctx *c) {
	hcdef *h = (hcdef *)c;

	nghttp2_hd_deflate_del(h->hd);
	countmem_free(h->nva, &c->heap);
}

HCCTX_OPS(deflate_ops, hcdef, deflate, del);

hcdef *hcdef_new(size_t max_table) {
	hcdef *h;

	h = (hcdef *)hcctx_new(sizeof *h);
	if (h == NULL) {
		return NULL;
	}
	if (nghttp2_hd_deflate_new2(&h->hd, max_table, &h->ctx.mem) != 0) {
		hcctx_del(&h->ctx);
		return NULL;
	}
	h->ctx.ops = &deflate_ops;
	return h;
}

ssize_t hcdef_encode(hcdef *h, const uint8_t *in, size_t inlen,
                     size_t nfields, uint8_t *dst, size_t dstcap) {
	int rv;

	if (nfields > h->nvcap) {
		nghttp2_nv *nva;

		if (nfields > SIZE_MAX / sizeof *nva) {
			return NGHTTP2_ERR_NOMEM;
		}
		nva = countmem_realloc(h->nva, nfields * sizeof *nva, &h->ctx.heap);
		if (nva == NULL) {
			return NGHTTP2_ERR_NOMEM;
		}
		h->nva = nva;
		h->nvcap = nfields;
	}
	rv = records_parse(h->nva, nfields, in, inlen);
	if (rv != 0) {
		return rv;
	}
	return nghttp2_hd_deflate_hd(h->hd, dst, dstcap, h->nva, nfields);
}
