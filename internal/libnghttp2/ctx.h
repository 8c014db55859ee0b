//go:build nghttp2

/*
 * hcctx is what a deflater (hcdef) and an inflater (hcinf) of this package
 * share, as the first member of each, so that Go frees and measures both
 * through it: the allocator, the heap it counts into, the records handed to
 * Go, and how to free the nghttp2 object.
 */
#ifndef HPACKCERT_CTX_H
#define HPACKCERT_CTX_H

#include <stddef.h>

#include <nghttp2/nghttp2.h>

#include "countmem.h"
#include "records.h"

/* RFC 7541 Appendix A; dynamic entries start at index 62. */
#define STATIC_TABLE_LEN 61

typedef struct hcctx {
	/* nghttp2's HPACK context keeps a pointer to its allocator (despite
	   what nghttp2.h says of the _new2 functions), so the allocator lives
	   here, as long as the context. */
	nghttp2_mem mem;
	countmem_heap heap; /* what the owner holds through the allocator */
	records out;        /* records of the last block or table read */
	size_t size;        /* of the owner, which hcctx begins */
	/* frees what the owner holds beyond this struct; NULL until its
	   nghttp2 object exists */
	void (*release)(struct hcctx *c);
} hcctx;

/* hcctx_new allocates a zeroed owner of size bytes that begins with an
   hcctx, counted on its own heap, with the allocator ready; NULL when
   memory is exhausted. */
hcctx *hcctx_new(size_t size);
void hcctx_del(hcctx *c);

/* hcctx_table replaces c->out with the dynamic table entries of an HPACK
   context holding n entries in all (static ones included), newest first,
   read through get; 0 or NGHTTP2_ERR_NOMEM. */
int hcctx_table(hcctx *c, size_t n, const nghttp2_nv *(*get)(void *hd, size_t i), void *hd);

#endif
