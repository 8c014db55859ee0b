//go:build nghttp2

#include <stdlib.h>
#include <string.h>

#include "deflate.h"

/* RFC 7541 Appendix A; dynamic entries start at index 62. */
#define STATIC_TABLE_LEN 61

/* Bytes held by every hcdef of the process. */
size_t hcdef_global_live(void) {
	return countmem_global_live();
}


hcdef *hcdef_new(size_t max_table) {
	hcdef *h;

	h = calloc(1, sizeof *h);
	if (h == NULL) {
		return NULL;
	}
	countmem_account(&h->heap, sizeof *h, 0);
	countmem_init(&h->mem, &h->heap);
	if (nghttp2_hd_deflate_new2(&h->deflater, max_table, &h->mem) != 0) {
		countmem_account(&h->heap, 0, sizeof *h);
		free(h);
		return NULL;
	}
	return h;
}

void hcdef_del(hcdef *h) {
	if (h == NULL) {
		return;
	}
	nghttp2_hd_deflate_del(h->deflater);
	countmem_free(h->nva, &h->heap);
	countmem_free(h->out.data, &h->heap);
	countmem_account(&h->heap, 0, sizeof *h);
	free(h);
}

static uint32_t get_le32(const uint8_t *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

ssize_t hcdef_encode(hcdef *h, const uint8_t *in, size_t inlen,
                     size_t nfields, uint8_t *dst, size_t dstcap) {
	size_t i, left = inlen;
	const uint8_t *p = in;

	if (nfields > h->nvcap) {
		nghttp2_nv *nva;

		if (nfields > SIZE_MAX / sizeof *nva) {
			return NGHTTP2_ERR_NOMEM;
		}
		nva = countmem_realloc(h->nva, nfields * sizeof *nva, &h->heap);
		if (nva == NULL) {
			return NGHTTP2_ERR_NOMEM;
		}
		h->nva = nva;
		h->nvcap = nfields;
	}
	for (i = 0; i < nfields; i++) {
		nghttp2_nv *nv = &h->nva[i];

		if (left < COUNTMEM_RECORD_HEADER) {
			return NGHTTP2_ERR_INVALID_ARGUMENT;
		}
		nv->namelen = get_le32(p);
		nv->valuelen = get_le32(p + 4);
		nv->flags = p[8];
		p += COUNTMEM_RECORD_HEADER;
		left -= COUNTMEM_RECORD_HEADER;
		if (left < nv->namelen || left - nv->namelen < nv->valuelen) {
			return NGHTTP2_ERR_INVALID_ARGUMENT;
		}
		/* nghttp2 reads, never writes, the fields, and copies what it
		   keeps in its table. */
		nv->name = (uint8_t *)p;
		nv->value = (uint8_t *)p + nv->namelen;
		p += nv->namelen + nv->valuelen;
		left -= nv->namelen + nv->valuelen;
	}
	return nghttp2_hd_deflate_hd(h->deflater, dst, dstcap, h->nva, nfields);
}

int hcdef_table(hcdef *h) {
	size_t n, i;
	int rv;

	h->out.len = 0;
	n = nghttp2_hd_deflate_get_num_table_entries(h->deflater);
	for (i = STATIC_TABLE_LEN + 1; i <= n; i++) {
		const nghttp2_nv *nv = nghttp2_hd_deflate_get_table_entry(h->deflater, i);
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
