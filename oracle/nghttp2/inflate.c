//go:build nghttp2

#include <stdlib.h>
#include <string.h>

#include "inflate.h"

/* RFC 7541 Appendix A; dynamic entries start at index 62. */
#define STATIC_TABLE_LEN 61

/* RFC 7541 §4.1 entry overhead, also the per-field overhead of the header
   list size in RFC 9113 §6.5.2. */
#define ENTRY_OVERHEAD 32

/* Bytes held by every hcinf of the process. */
size_t hcinf_global_live(void) {
	return countmem_global_live();
}

hcinf *hcinf_new(void) {
	hcinf *h;

	h = calloc(1, sizeof *h);
	if (h == NULL) {
		return NULL;
	}
	countmem_account(&h->heap, sizeof *h, 0);
	countmem_init(&h->mem, &h->heap);
	if (nghttp2_hd_inflate_new2(&h->inflater, &h->mem) != 0) {
		countmem_account(&h->heap, 0, sizeof *h);
		free(h);
		return NULL;
	}
	return h;
}

void hcinf_del(hcinf *h) {
	if (h == NULL) {
		return;
	}
	nghttp2_hd_inflate_del(h->inflater);
	countmem_free(h->out.data, &h->heap);
	countmem_account(&h->heap, 0, sizeof *h);
	free(h);
}

int hcinf_reset(hcinf *h) {
	nghttp2_hd_inflater *inflater;
	int rv;

	/* The new inflater first, so that h keeps a working one on failure. */
	rv = nghttp2_hd_inflate_new2(&inflater, &h->mem);
	if (rv != 0) {
		return rv;
	}
	nghttp2_hd_inflate_del(h->inflater);
	h->inflater = inflater;
	h->out.len = 0;
	h->consumed = 0;
	h->nfields = 0;
	return 0;
}

int hcinf_block(hcinf *h, const uint8_t *in, size_t inlen, size_t list_limit) {
	size_t list = 0;

	h->out.len = 0;
	h->consumed = 0;
	h->nfields = 0;
	for (;;) {
		nghttp2_nv nv;
		int flags = 0;
		ssize_t n;
		int rv;

		n = nghttp2_hd_inflate_hd2(h->inflater, &nv, &flags,
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
			rv = countmem_records_append(&h->out, &h->heap, &nv);
			if (rv != 0) {
				return rv;
			}
			h->nfields++;
		}
		h->consumed += (size_t)n;
		if (flags & NGHTTP2_HD_INFLATE_FINAL) {
			nghttp2_hd_inflate_end_headers(h->inflater);
			return 0;
		}
		if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && n == 0) {
			return HCINF_ERR_NO_PROGRESS;
		}
	}
}

int hcinf_table(hcinf *h) {
	size_t n, i;
	int rv;

	h->out.len = 0;
	n = nghttp2_hd_inflate_get_num_table_entries(h->inflater);
	for (i = STATIC_TABLE_LEN + 1; i <= n; i++) {
		const nghttp2_nv *nv = nghttp2_hd_inflate_get_table_entry(h->inflater, i);
		if (nv == NULL) {
			break;
		}
		rv = countmem_records_append(&h->out, &h->heap, nv);
		if (rv != 0) {
			return rv;
		}
	}
	return 0;
}
