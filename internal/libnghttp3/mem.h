//go:build nghttp3

/*
 * The allocator every libnghttp3 object of this package is made with (an
 * nghttp3_mem counting the bytes held by the whole process, so that tests
 * can show that closing frees everything), and the growable byte buffer
 * the encoder and decoder glue hand their output over in. Plain C with no
 * cgo in it: adapters/nghttp3-qpack compiles these files too.
 */
#ifndef HPACKCERT_NGHTTP3_MEM_H
#define HPACKCERT_NGHTTP3_MEM_H

#include <stddef.h>
#include <stdint.h>

#include <nghttp3/nghttp3.h>

/* hc3mem is the counting allocator; it lives as long as the process, as
   the nghttp3_rcbuf values a decoder emits require. */
extern const nghttp3_mem hc3mem;

/* hc3mem_live returns the bytes held through hc3mem now. */
size_t hc3mem_live(void);

/* hc3bytes is a buffer of len octets in cap, allocated through hc3mem. */
typedef struct hc3bytes {
	uint8_t *p;
	size_t len, cap;
} hc3bytes;

/* hc3bytes_reserve makes room for extra more octets; 0 or NGHTTP3_ERR_NOMEM. */
int hc3bytes_reserve(hc3bytes *b, size_t extra);
/* hc3bytes_append appends n octets of src; 0 or NGHTTP3_ERR_NOMEM. */
int hc3bytes_append(hc3bytes *b, const void *src, size_t n);
void hc3bytes_free(hc3bytes *b);

#endif
