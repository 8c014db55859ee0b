//go:build nghttp3

#include <string.h>

#include "encodebatch.h"

/* copy returns a copy through hc3mem of n elements of size octets. */
static void *copy(const void *src, size_t n, size_t size) {
	void *p;

	if (size != 0 && n > SIZE_MAX / size) {
		return NULL;
	}
	p = hc3mem.malloc(n * size + 1, NULL);
	if (p != NULL && n != 0) {
		memcpy(p, src, n * size);
	}
	return p;
}

hc3batch *hc3batch_new(const uint8_t *data, size_t datalen, const size_t *lens, const uint8_t *flags, size_t nfields,
                       const size_t *list_len, size_t nlists, const size_t *conn_len, size_t nconns) {
	hc3batch *b = hc3mem.calloc(1, sizeof *b, NULL);
	uint8_t *p;
	size_t i;

	if (b == NULL) {
		return NULL;
	}
	b->data = copy(data, datalen, 1);
	b->nva = hc3mem.calloc(nfields + 1, sizeof *b->nva, NULL);
	b->list_len = copy(list_len, nlists, sizeof *list_len);
	b->conn_len = copy(conn_len, nconns, sizeof *conn_len);
	b->nconns = nconns;
	if (b->data == NULL || b->nva == NULL || b->list_len == NULL || b->conn_len == NULL) {
		hc3batch_del(b);
		return NULL;
	}
	for (p = b->data, i = 0; i < nfields; i++) {
		nghttp3_nv *nv = &b->nva[i];

		nv->name = p;
		nv->namelen = lens[2 * i];
		nv->value = p + nv->namelen;
		nv->valuelen = lens[2 * i + 1];
		nv->flags = flags[i];
		p += nv->namelen + nv->valuelen;
	}
	return b;
}

void hc3batch_del(hc3batch *b) {
	hc3mem.free(b->data, NULL);
	hc3mem.free(b->nva, NULL);
	hc3mem.free(b->list_len, NULL);
	hc3mem.free(b->conn_len, NULL);
	hc3mem.free(b, NULL);
}

/* section_ack writes the Section Acknowledgment of stream (RFC 9204
   §4.4.1: 1 and a 7-bit prefix integer) into out; its length. */
static size_t section_ack(uint8_t *out, uint64_t stream) {
	size_t n = 0;

	if (stream < 0x7f) {
		out[n++] = (uint8_t)(0x80 | stream);
		return n;
	}
	out[n++] = 0xff;
	for (stream -= 0x7f; stream >= 0x80; stream >>= 7) {
		out[n++] = (uint8_t)(0x80 | (stream & 0x7f));
	}
	out[n++] = (uint8_t)stream;
	return n;
}

/* pass_conn encodes the lists of one connection from *nva and *list_len on
   a fresh encoder, adding its octets to *octets. */
static int pass_conn(nghttp3_nv **nva, const size_t **list_len, size_t lists, size_t *octets) {
	hc3enc *h = hc3enc_new(4096, 4096, 100);
	size_t i;
	int rv = 0;

	if (h == NULL) {
		return NGHTTP3_ERR_NOMEM;
	}
	for (i = 0; i < lists; i++) {
		uint8_t ack[16];
		int64_t stream = (int64_t)(4 * i);
		nghttp3_ssize n;

		rv = hc3enc_encode_nv(h, stream, *nva, **list_len);
		if (rv != 0) {
			break;
		}
		*octets += nghttp3_buf_len(&h->prefix) + nghttp3_buf_len(&h->lines) + nghttp3_buf_len(&h->stream);
		*nva += **list_len;
		(*list_len)++;
		/* A Required Insert Count of 0 is the one prefix whose first
		   octet is 0 (§4.5.1.1). */
		if (*h->prefix.pos != 0) {
			n = nghttp3_qpack_encoder_read_decoder(h->enc, ack, section_ack(ack, (uint64_t)stream));
			if (n < 0) {
				rv = (int)n;
				break;
			}
		}
	}
	hc3enc_del(h);
	return rv;
}

int hc3batch_passes(hc3batch *b, size_t n, size_t *octets) {
	size_t pass, c;
	int rv;

	for (pass = 0; pass < n; pass++) {
		nghttp3_nv *nva = b->nva;
		const size_t *list_len = b->list_len;

		*octets = 0;
		for (c = 0; c < b->nconns; c++) {
			if ((rv = pass_conn(&nva, &list_len, b->conn_len[c], octets)) != 0) {
				return rv;
			}
		}
	}
	return 0;
}
