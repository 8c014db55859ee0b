//go:build nghttp3

/*
 * The C half of the Encoder: a libnghttp3 QPACK encoder with the buffers
 * it writes a field section and its encoder-stream octets into, taking a
 * header list as one flat buffer of names and values in one call.
 */
#ifndef HPACKCERT_NGHTTP3_ENCODER_H
#define HPACKCERT_NGHTTP3_ENCODER_H

#include "mem.h"

typedef struct hc3enc {
	nghttp3_qpack_encoder *enc;
	/* What the last hc3enc_encode wrote: the section's prefix, its field
	   lines and the encoder-stream instructions. libnghttp3 grows them. */
	nghttp3_buf prefix, lines, stream;
	nghttp3_nv *nva; /* the fields of the section being encoded */
	size_t nvcap;
} hc3enc;

/* hc3enc_new returns an encoder that never uses more than max_capacity
   octets of table, whatever the peer allows, under the peer's
   SETTINGS_QPACK_MAX_TABLE_CAPACITY and SETTINGS_QPACK_BLOCKED_STREAMS;
   NULL when out of memory. */
hc3enc *hc3enc_new(size_t max_capacity, uint64_t peer_capacity, uint64_t blocked_streams);
void hc3enc_del(hc3enc *h);
/* hc3enc_encode encodes the n fields whose names and values lie one after
   the other in data, lens[2i] and lens[2i+1] long, with flags[i], as the
   section of stream; 0 or a libnghttp3 error code. */
int hc3enc_encode(hc3enc *h, int64_t stream, const uint8_t *data, const size_t *lens, const uint8_t *flags,
                  size_t n);
/* hc3enc_encode_nv encodes the n fields of nva as the section of stream;
   0 or a libnghttp3 error code. */
int hc3enc_encode_nv(hc3enc *h, int64_t stream, const nghttp3_nv *nva, size_t n);

#endif
