//go:build nghttp2

/*
 * The C half of package nghttp2: an HPACK inflater whose memory goes
 * through a counting allocator, and loops that decode a whole header block
 * or read the whole dynamic table in one call, so that each Go method
 * crosses into C once.
 *
 * Decoded fields and table entries are written to a growable buffer, one
 * record per field: name length (4 bytes, little endian), value length
 * (4 bytes, little endian), nghttp2_nv flags (1 byte), name, value.
 */
#ifndef HPACKCERT_INFLATE_H
#define HPACKCERT_INFLATE_H

#include <stddef.h>
#include <stdint.h>
#include <nghttp2/nghttp2.h>

#include "countmem.h"

/* Returned by hcinf_block beside nghttp2's own (negative) error codes. */
enum {
	HCINF_ERR_LIST_LIMIT = 1,  /* the header list grew past list_limit */
	HCINF_ERR_NO_PROGRESS = 2, /* nghttp2 neither consumed input nor finished */
};


typedef struct hcinf {
	nghttp2_hd_inflater *inflater;
	/* The allocator of the inflater. nghttp2's HPACK context keeps a
	   pointer to it (despite what nghttp2.h says of
	   nghttp2_hd_inflate_new2), so it lives here, as long as the
	   inflater. */
	nghttp2_mem mem;
	countmem_heap heap; /* what this object holds through the counting allocator */
	countmem_records out; /* records of the last block or table read */
	size_t consumed; /* bytes of the last block up to the end of the last field taken */
	size_t nfields;  /* fields of the last block emitted so far */
} hcinf;

hcinf *hcinf_new(void);
void hcinf_del(hcinf *h);
/* hcinf_reset replaces h's inflater with a new one, as of a new connection,
   keeping h and its record buffer; 0 or an nghttp2 error code. */
int hcinf_reset(hcinf *h);
int hcinf_block(hcinf *h, const uint8_t *in, size_t inlen, size_t list_limit);
int hcinf_table(hcinf *h);
size_t hcinf_global_live(void);

#endif
