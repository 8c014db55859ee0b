//go:build nghttp3

#include <string.h>

#include "decoder.h"

static size_t clamp(uint64_t v) { return v > SIZE_MAX ? SIZE_MAX : (size_t)v; }

hc3dec *hc3dec_new(uint64_t max_capacity, uint64_t max_blocked, uint64_t max_section) {
	hc3dec *d;

	d = hc3mem.calloc(1, sizeof *d, NULL);
	if (d == NULL) {
		return NULL;
	}
	if (nghttp3_qpack_decoder_new(&d->dec, clamp(max_capacity), clamp(max_blocked), &hc3mem) != 0) {
		hc3mem.free(d, NULL);
		return NULL;
	}
	d->max_blocked = max_blocked;
	d->max_section = max_section;
	return d;
}

static void blocked_del(hc3blocked *b) {
	nghttp3_qpack_stream_context_del(b->sctx);
	hc3bytes_free(&b->rest);
	hc3mem.free(b, NULL);
}

void hc3dec_del(hc3dec *d) {
	while (d->blocked != NULL) {
		hc3blocked *b = d->blocked;

		d->blocked = b->next;
		blocked_del(b);
	}
	nghttp3_qpack_decoder_del(d->dec);
	hc3bytes_free(&d->fields);
	hc3bytes_free(&d->decoder);
	hc3mem.free(d, NULL);
}

/* put_field appends nv to d->fields as a record, adding its size (RFC 9114
   §4.2.2: name + value + 32) to *size. */
static int put_field(hc3dec *d, const nghttp3_qpack_nv *nv, uint64_t *size) {
	nghttp3_vec name = nghttp3_rcbuf_get_buf(nv->name), value = nghttp3_rcbuf_get_buf(nv->value);
	uint32_t lens[2];
	int rv;

	*size += (uint64_t)name.len + value.len + 32;
	if (d->max_section != 0 && *size > d->max_section) {
		return HC3_ERR_FIELD_SECTION_TOO_LARGE;
	}
	if (name.len > UINT32_MAX || value.len > UINT32_MAX) {
		return NGHTTP3_ERR_QPACK_HEADER_TOO_LARGE;
	}
	lens[0] = (uint32_t)name.len;
	lens[1] = (uint32_t)value.len;
	if ((rv = hc3bytes_reserve(&d->fields, HC3_RECORD_HEADER + name.len + value.len)) != 0) {
		return rv;
	}
	hc3bytes_append(&d->fields, lens, sizeof lens);
	hc3bytes_append(&d->fields, &nv->flags, 1);
	hc3bytes_append(&d->fields, name.base, name.len);
	hc3bytes_append(&d->fields, value.base, value.len);
	return 0;
}

/* run reads the section of sctx from *src (the whole rest of it) until it
   is decoded or blocks, advancing *src and *len past what libnghttp3
   read. */
static int run(hc3dec *d, nghttp3_qpack_stream_context *sctx, const uint8_t **src, size_t *len) {
	uint64_t size = 0;

	d->fields.len = 0;
	for (;;) {
		nghttp3_qpack_nv nv;
		uint8_t flags = 0;
		nghttp3_ssize n;
		int rv = 0;

		n = nghttp3_qpack_decoder_read_request(d->dec, sctx, &nv, &flags, *src, *len, 1);
		if (n < 0) {
			return (int)n;
		}
		*src += n;
		*len -= (size_t)n;
		if (flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT) {
			rv = put_field(d, &nv, &size);
			nghttp3_rcbuf_decref(nv.name);
			nghttp3_rcbuf_decref(nv.value);
			if (rv != 0) {
				return rv;
			}
		}
		if (flags & NGHTTP3_QPACK_DECODE_FLAG_FINAL) {
			return HC3_DECODED;
		}
		if (flags & NGHTTP3_QPACK_DECODE_FLAG_BLOCKED) {
			return HC3_BLOCKED;
		}
		/* A section cut short: libnghttp3 waits for more octets that
		   the end of the stream says will not come. */
		if (n == 0 && !(flags & NGHTTP3_QPACK_DECODE_FLAG_EMIT)) {
			return NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED;
		}
	}
}

int hc3dec_decode(hc3dec *d, int64_t stream, const uint8_t *src, size_t len) {
	nghttp3_qpack_stream_context *sctx;
	hc3blocked *b, **tail;
	int rv;

	for (tail = &d->blocked; *tail != NULL; tail = &(*tail)->next) {
		if ((*tail)->stream == stream) {
			return NGHTTP3_ERR_STREAM_IN_USE;
		}
	}
	if ((rv = nghttp3_qpack_stream_context_new(&sctx, stream, &hc3mem)) != 0) {
		return rv;
	}
	rv = run(d, sctx, &src, &len);
	if (rv != HC3_BLOCKED) {
		nghttp3_qpack_stream_context_del(sctx);
		return rv;
	}
	/* RFC 9204 §2.1.2: a section that would block one stream more than
	   the decoder allows is a connection error, as nghttp3_conn has it. */
	if (d->nblocked >= d->max_blocked) {
		nghttp3_qpack_stream_context_del(sctx);
		return NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED;
	}
	b = hc3mem.calloc(1, sizeof *b, NULL);
	if (b == NULL || hc3bytes_append(&b->rest, src, len) != 0) {
		nghttp3_qpack_stream_context_del(sctx);
		hc3mem.free(b, NULL);
		return NGHTTP3_ERR_NOMEM;
	}
	b->stream = stream;
	b->sctx = sctx;
	*tail = b;
	d->nblocked++;
	return HC3_BLOCKED;
}

int hc3dec_read_encoder(hc3dec *d, const uint8_t *src, size_t len) {
	nghttp3_ssize n = nghttp3_qpack_decoder_read_encoder(d->dec, src, len);

	return n < 0 ? (int)n : 0;
}

int hc3dec_resume(hc3dec *d, int64_t *stream) {
	uint64_t inserts = nghttp3_qpack_decoder_get_icnt(d->dec);
	hc3blocked **link, *b;
	const uint8_t *src;
	size_t len;
	int rv;

	for (link = &d->blocked; *link != NULL; link = &(*link)->next) {
		if (nghttp3_qpack_stream_context_get_ricnt((*link)->sctx) <= inserts) {
			break;
		}
	}
	if (*link == NULL) {
		return HC3_NONE;
	}
	b = *link;
	*link = b->next;
	d->nblocked--;
	*stream = b->stream;
	src = b->rest.p;
	len = b->rest.len;
	rv = run(d, b->sctx, &src, &len);
	blocked_del(b);
	/* Its inserts are in: libnghttp3 cannot block the section again. */
	return rv == HC3_BLOCKED ? NGHTTP3_ERR_QPACK_FATAL : rv;
}

int hc3dec_cancel(hc3dec *d, int64_t stream) {
	hc3blocked **link;

	for (link = &d->blocked; *link != NULL; link = &(*link)->next) {
		if ((*link)->stream == stream) {
			hc3blocked *b = *link;

			*link = b->next;
			d->nblocked--;
			blocked_del(b);
			break;
		}
	}
	return nghttp3_qpack_decoder_cancel_stream(d->dec, stream);
}

int hc3dec_flush(hc3dec *d) {
	nghttp3_buf buf;
	size_t n = nghttp3_qpack_decoder_get_decoder_streamlen(d->dec);
	int rv;

	d->decoder.len = 0;
	if (n == 0) {
		return 0;
	}
	if ((rv = hc3bytes_reserve(&d->decoder, n)) != 0) {
		return rv;
	}
	buf.begin = buf.pos = buf.last = d->decoder.p;
	buf.end = d->decoder.p + d->decoder.cap;
	nghttp3_qpack_decoder_write_decoder(d->dec, &buf);
	d->decoder.len = (size_t)(buf.last - buf.pos);
	return 0;
}
