//go:build nghttp2

#include "inflate.h"

/* RFC 7541 §4.1 entry overhead, also the per-field overhead of the header
   list size in RFC 9113 §6.5.2. */
#define ENTRY_OVERHEAD 32

static void del(hcctx *c) {
	nghttp2_hd_inflate_del(((hcinf *)c)->hd);
}

HCCTX_OPS(inflate_ops, hcinf, inflate, del);

hcinf *hcinf_new(void) {
	hcinf *h;

	h = (hcinf *)hcctx_new(sizeof *h);
	if (h == NULL) {
		return NULL;
	}
	if (nghttp2_hd_inflate_new2(&h->hd, &h->ctx.mem) != 0) {
		hcctx_del(&h->ctx);
		return NULL;
	}
	h->ctx.ops = &inflate_ops;
	return h;
}

int hcinf_reset(hcinf *h) {
	nghttp2_hd_inflater *inflater;
	int rv;

	/* The new inflater first, so that h keeps a working one on failure. */
	rv = nghttp2_hd_inflate_new2(&inflater, &h->ctx.mem);
	if (rv != 0) {
		return rv;
	}
	nghttp2_hd_inflate_del(h->hd);
	h->hd = inflater;
	h->ctx.out.len = 0;
	h->consumed = 0;
	h->nfields = 0;
	return 0;
}

int hcinf_block(hcinf *h, const uint8_t *in, size_t inlen, size_t list_limit) {
	size_t list = 0;

	h->ctx.out.len = 0;
	h->consumed = 0;
	h->nfields = 0;
	for (;;) {
		nghttp2_nv nv;
		int flags = 0;
		ssize_t n;
		int rv;

		n = nghttp2_hd_inflate_hd2(h->hd, &nv, &flags,
		                           in == NULL ? in : in + h->consumed,
		                           inlen - h->consumed, 1);
		if (n < 0) {
			return (int)n;
		}
		if (flags & NGHTTP2_HD_INFLATE_EMIT) {
			/* consumed stays at the start of a field that fails. */
			list += nv.namelen + nv.valuelen + ENTRY_OVERHEAD;
			if (list_limit != 0 && list > list_limit) {
				return HCINF_ERR_LIST_LIMIT;
			}
			rv = records_append(&h->ctx.out, &h->ctx.heap, &nv);
			if (rv != 0) {
				return rv;
			}
			h->nfields++;
		}
		h->consumed += (size_t)n;
		if (flags & NGHTTP2_HD_INFLATE_FINAL) {
			nghttp2_hd_inflate_end_headers(h->hd);
			return 0;
		}
		if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && n == 0) {
			return HCINF_ERR_NO_PROGRESS;
		}
	}
}
