//go:build nghttp3

#include <string.h>

#include "encoder.h"

hc3enc *hc3enc_new(size_t max_capacity, uint64_t peer_capacity, uint64_t blocked_streams) {
	hc3enc *h;

	h = hc3mem.calloc(1, sizeof *h, NULL);
	if (h == NULL) {
		return NULL;
	}
	if (nghttp3_qpack_encoder_new(&h->enc, max_capacity, &hc3mem) != 0) {
		hc3mem.free(h, NULL);
		return NULL;
	}
	/* Both settings are 62-bit integers; libnghttp3 takes a size_t and
	   truncates the capacity to max_capacity itself. */
	nghttp3_qpack_encoder_set_max_dtable_capacity(h->enc, peer_capacity < max_capacity ? (size_t)peer_capacity : max_capacity);
	nghttp3_qpack_encoder_set_max_blocked_streams(h->enc, blocked_streams > SIZE_MAX ? SIZE_MAX : (size_t)blocked_streams);
	return h;
}

void hc3enc_del(hc3enc *h) {
	nghttp3_qpack_encoder_del(h->enc);
	nghttp3_buf_free(&h->prefix, &hc3mem);
	nghttp3_buf_free(&h->lines, &hc3mem);
	nghttp3_buf_free(&h->stream, &hc3mem);
	hc3mem.free(h->nva, NULL);
	hc3mem.free(h, NULL);
}

int hc3enc_encode(hc3enc *h, int64_t stream, const uint8_t *data, const size_t *lens, const uint8_t *flags,
                  size_t n) {
	size_t i;

	if (n > h->nvcap) {
		nghttp3_nv *nva;

		if (n > SIZE_MAX / sizeof *nva) {
			return NGHTTP3_ERR_NOMEM;
		}
		nva = hc3mem.realloc(h->nva, n * sizeof *nva, NULL);
		if (nva == NULL) {
			return NGHTTP3_ERR_NOMEM;
		}
		h->nva = nva;
		h->nvcap = n;
	}
	for (i = 0; i < n; i++) {
		nghttp3_nv *nv = &h->nva[i];

		/* libnghttp3 copies what it keeps: the casts drop a const it
		   honours. */
		nv->name = (uint8_t *)data;
		nv->namelen = lens[2 * i];
		data += nv->namelen;
		nv->value = (uint8_t *)data;
		nv->valuelen = lens[2 * i + 1];
		data += nv->valuelen;
		nv->flags = flags[i];
	}
	return hc3enc_encode_nv(h, stream, h->nva, n);
}

int hc3enc_encode_nv(hc3enc *h, int64_t stream, const nghttp3_nv *nva, size_t n) {
	nghttp3_buf_reset(&h->prefix);
	nghttp3_buf_reset(&h->lines);
	nghttp3_buf_reset(&h->stream);
	return nghttp3_qpack_encoder_encode(h->enc, &h->prefix, &h->lines, &h->stream, stream, nva, n);
}
