//go:build nghttp3

/*
 * The C half of the Decoder: a libnghttp3 QPACK decoder with what an
 * nghttp3_conn adds around it — the blocked sections (their stream
 * contexts and the octets not yet read), the SETTINGS_QPACK_BLOCKED_STREAMS
 * and SETTINGS_MAX_FIELD_SECTION_SIZE limits — and the buffers the decoded
 * fields and the decoder-stream octets are handed over in.
 */
#ifndef HPACKCERT_NGHTTP3_DECODER_H
#define HPACKCERT_NGHTTP3_DECODER_H

#include "mem.h"

/* The results of hc3dec_decode and hc3dec_resume besides libnghttp3's
   error codes. */
#define HC3_DECODED 0
#define HC3_BLOCKED 1
/* hc3dec_resume: no blocked section can be decoded yet. */
#define HC3_NONE 2
/* The header list grew over SETTINGS_MAX_FIELD_SECTION_SIZE; chosen
   outside libnghttp3's codes. */
#define HC3_ERR_FIELD_SECTION_TOO_LARGE (-10000)

/* A field record in hc3dec.fields: two native uint32 lengths and a flags
   octet, then the name and the value. */
#define HC3_RECORD_HEADER 9

typedef struct hc3blocked {
	int64_t stream;
	nghttp3_qpack_stream_context *sctx;
	hc3bytes rest; /* the section's octets libnghttp3 has not read */
	struct hc3blocked *next;
} hc3blocked;

typedef struct hc3dec {
	nghttp3_qpack_decoder *dec;
	uint64_t max_blocked, max_section;
	hc3blocked *blocked; /* in the order they blocked */
	uint64_t nblocked;
	hc3bytes fields;  /* the records of the section decoded last */
	hc3bytes decoder; /* what hc3dec_flush wrote */
} hc3dec;

/* hc3dec_new returns the decoder of a connection that sent the three
   settings (max_section 0: none); NULL when out of memory. */
hc3dec *hc3dec_new(uint64_t max_capacity, uint64_t max_blocked, uint64_t max_section);
void hc3dec_del(hc3dec *d);
/* hc3dec_decode decodes the field section of stream into d->fields:
   HC3_DECODED, HC3_BLOCKED (the section is kept), or an error code. */
int hc3dec_decode(hc3dec *d, int64_t stream, const uint8_t *src, size_t len);
/* hc3dec_read_encoder reads encoder-stream octets: 0 or an error code. */
int hc3dec_read_encoder(hc3dec *d, const uint8_t *src, size_t len);
/* hc3dec_resume decodes the oldest blocked section the inserts received
   so far unblock into d->fields and sets *stream: HC3_DECODED, HC3_NONE
   or an error code. */
int hc3dec_resume(hc3dec *d, int64_t *stream);
/* hc3dec_cancel abandons a blocked section of stream and writes a Stream
   Cancellation: 0 or an error code. */
int hc3dec_cancel(hc3dec *d, int64_t stream);
/* hc3dec_flush puts the decoder-stream octets owed into d->decoder: 0 or
   an error code. */
int hc3dec_flush(hc3dec *d);

#endif
