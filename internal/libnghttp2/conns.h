//go:build nghttp2

/*
 * The C half of Conns: a set of deflaters, one per connection, whose heap
 * is counted as malloc_usable_size reports it (malloc's rounding included,
 * as Go's heap figures include its size classes), for bench's memory per
 * connection.
 */
#ifndef HPACKCERT_CONNS_H
#define HPACKCERT_CONNS_H

#include <stddef.h>
#include <stdint.h>

#include <nghttp2/nghttp2.h>

typedef struct hcconns {
	nghttp2_mem mem;
	int64_t live; /* bytes the deflaters hold */
	nghttp2_hd_deflater **d;
	size_t n;
	nghttp2_nv *nv; /* the fields of the block being encoded */
	size_t nvcap;
	uint8_t *out;
	size_t outcap;
} hcconns;

/* hcconns_new returns an empty set for blocks of at most nvcap fields and
   outcap wire bytes, or NULL when memory is exhausted. */
hcconns *hcconns_new(size_t nvcap, size_t outcap);
/* hcconns_open creates n deflaters that never use more than table bytes
   of dynamic table and, when table is not 4096, raises their table to it
   as a peer's SETTINGS_HEADER_TABLE_SIZE would; 0 or an nghttp2 error. */
int hcconns_open(hcconns *m, size_t n, size_t table);
/* hcconns_encode encodes the nfields records of in (see records.h) as the
   next block of deflater c; the wire bytes or an nghttp2 error code. */
int64_t hcconns_encode(hcconns *m, size_t c, const uint8_t *in, size_t inlen, size_t nfields);
/* hcconns_create creates and deletes a deflater n times, as hcconns_open
   makes them, for the time it takes; 0 or an nghttp2 error code. */
int hcconns_create(hcconns *m, size_t table, int64_t n);
void hcconns_del(hcconns *m);

#endif
