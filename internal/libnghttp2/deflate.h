//go:build nghttp2

/*
 * The C half of the Deflater: an HPACK deflater whose memory goes through
 * the counting allocator, encoding a block given as records in one call.
 */
#ifndef HPACKCERT_DEFLATE_H
#define HPACKCERT_DEFLATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <nghttp2/nghttp2.h>

#include "ctx.h"

typedef struct hcdef {
	hcctx ctx; /* first: Go frees and measures an hcdef through it */
	nghttp2_hd_deflater *hd;
	nghttp2_nv *nva; /* the fields of the block being encoded */
	size_t nvcap;
} hcdef;

hcdef *hcdef_new(size_t max_table);
/* hcdef_encode encodes the nfields records of in as the next block into
   dst; the bytes written or an nghttp2 error code. */
ssize_t hcdef_encode(hcdef *h, const uint8_t *in, size_t inlen,
                     size_t nfields, uint8_t *dst, size_t dstcap);

#endif
