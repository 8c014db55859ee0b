//go:build nghttp2

/*
 * The C half of the Inflater: an HPACK inflater whose memory goes through
 * the counting allocator, and a loop that decodes a whole header block into
 * records in one call, so that each Go method crosses into C once.
 */
#ifndef HPACKCERT_INFLATE_H
#define HPACKCERT_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#include <nghttp2/nghttp2.h>

#include "ctx.h"

/* Returned by hcinf_block beside nghttp2's own (negative) error codes. */
enum {
	HCINF_ERR_LIST_LIMIT = 1,  /* the header list grew past list_limit */
	HCINF_ERR_NO_PROGRESS = 2, /* nghttp2 neither consumed input nor finished */
};

typedef struct hcinf {
	hcctx ctx; /* first: Go frees and measures an hcinf through it */
	nghttp2_hd_inflater *hd;
	size_t consumed; /* bytes of the last block up to the end of the last field taken */
	size_t nfields;  /* fields of the last block emitted so far */
} hcinf;

hcinf *hcinf_new(void);
/* hcinf_reset replaces h's inflater with a new one, as of a new connection,
   keeping h and its record buffer; 0 or an nghttp2 error code. */
int hcinf_reset(hcinf *h);
int hcinf_block(hcinf *h, const uint8_t *in, size_t inlen, size_t list_limit);

#endif
