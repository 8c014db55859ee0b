//go:build nghttp2

/*
 * The C half of package nghttp2deflate: HPACK deflaters whose memory goes
 * through a counting allocator (internal/countmem), and a per-block entry
 * point that reads the fields from one flat buffer.
 *
 * Fields are passed, and table entries returned, as records: name length
 * (4 bytes, little endian), value length (4 bytes, little endian),
 * nghttp2_nv flags (1 byte), name, value.
 */
#ifndef HPACKCERT_DEFLATE_H
#define HPACKCERT_DEFLATE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <nghttp2/nghttp2.h>

#include "countmem.h"



typedef struct hcdef {
	nghttp2_hd_deflater *deflater;
	/* nghttp2's HPACK context keeps a pointer to its allocator, so the
	   allocator lives as long as the deflater. */
	nghttp2_mem mem;
	countmem_heap heap;
	nghttp2_nv *nva; /* the fields of the block being encoded */
	size_t nvcap;
	countmem_records out; /* table records */
} hcdef;

hcdef *hcdef_new(size_t max_table);
void hcdef_del(hcdef *h);
ssize_t hcdef_encode(hcdef *h, const uint8_t *in, size_t inlen,
                     size_t nfields, uint8_t *dst, size_t dstcap);
int hcdef_table(hcdef *h);

size_t hcdef_global_live(void);

#endif
