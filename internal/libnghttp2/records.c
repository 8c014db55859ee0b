//go:build nghttp2

#include <string.h>

#include "records.h"

static void put_le32(uint8_t *p, uint32_t v) {
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p) {
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int records_append(records *r, countmem_heap *heap, const nghttp2_nv *nv) {
	size_t n, cap;
	uint8_t *p;

	if (nv->namelen > UINT32_MAX || nv->valuelen > UINT32_MAX) {
		return NGHTTP2_ERR_INVALID_ARGUMENT;
	}
	n = RECORD_HEADER + nv->namelen + nv->valuelen;
	if (n > r->cap - r->len) {
		cap = r->cap != 0 ? r->cap : 256;
		while (cap - r->len < n) {
			if (cap > SIZE_MAX / 2) {
				return NGHTTP2_ERR_NOMEM;
			}
			cap *= 2;
		}
		p = countmem_realloc(r->data, cap, heap);
		if (p == NULL) {
			return NGHTTP2_ERR_NOMEM;
		}
		r->data = p;
		r->cap = cap;
	}
	p = r->data + r->len;
	put_le32(p, (uint32_t)nv->namelen);
	put_le32(p + 4, (uint32_t)nv->valuelen);
	p[8] = nv->flags;
	p += RECORD_HEADER;
	if (nv->namelen != 0) {
		memcpy(p, nv->name, nv->namelen);
	}
	if (nv->valuelen != 0) {
		memcpy(p + nv->namelen, nv->value, nv->valuelen);
	}
	r->len += n;
	return 0;
}

int records_parse(nghttp2_nv *nva, size_t nfields, const uint8_t *in, size_t inlen) {
	size_t i, left = inlen;
	const uint8_t *p = in;

	for (i = 0; i < nfields; i++) {
		nghttp2_nv *nv = &nva[i];

		if (left < RECORD_HEADER) {
			return NGHTTP2_ERR_INVALID_ARGUMENT;
		}
		nv->namelen = get_le32(p);
		nv->valuelen = get_le32(p + 4);
		nv->flags = p[8];
		p += RECORD_HEADER;
		left -= RECORD_HEADER;
		if (left < nv->namelen || left - nv->namelen < nv->valuelen) {
			return NGHTTP2_ERR_INVALID_ARGUMENT;
		}
		nv->name = (uint8_t *)p;
		nv->value = (uint8_t *)p + nv->namelen;
		p += nv->namelen + nv->valuelen;
		left -= nv->namelen + nv->valuelen;
	}
	return 0;
}
