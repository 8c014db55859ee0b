//go:build nghttp2

/*
 * The C half of package nghttp2deflate: HPACK deflaters whose memory goes
 * through a counting allocator, a per-block entry point that reads the
 * fields from one flat buffer, and a workload runner that encodes many
 * blocks in one call.
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

/* Bytes of a record before its name and value. */
#define HCDEF_RECORD_HEADER 9


typedef struct hcdef {
	nghttp2_hd_deflater *deflater;
	/* nghttp2's HPACK context keeps a pointer to its allocator, so the
	   allocator lives as long as the deflater. */
	nghttp2_mem mem;
	countmem_heap heap;
	nghttp2_nv *nva; /* the fields of the block being encoded */
	size_t nvcap;
	uint8_t *out; /* table records */
	size_t outlen;
	size_t outcap;
} hcdef;

hcdef *hcdef_new(size_t max_table);
void hcdef_del(hcdef *h);
ssize_t hcdef_encode(hcdef *h, const uint8_t *in, size_t inlen,
                     size_t nfields, uint8_t *dst, size_t dstcap);
int hcdef_table(hcdef *h);

/* One block of a workload: nva[first_nv, first_nv+nvlen) encoded after
   nghttp2_hd_deflate_change_table_size with each of
   sizes[first_size, first_size+nsizes). */
typedef struct hcdef_wblock {
	size_t first_nv;
	size_t nvlen;
	size_t first_size;
	size_t nsizes;
} hcdef_wblock;

/* A workload: story i is blocks[story_ends[i-1], story_ends[i]). The
   arrays are allocated by hcdef_workload_new and filled by the caller;
   every nva entry points into data. */
typedef struct hcdef_workload {
	nghttp2_mem mem;
	countmem_heap heap;
	size_t max_table;
	int reuse; /* one deflater for the whole run, not one per story */
	uint8_t *data;
	nghttp2_nv *nva;
	uint32_t *sizes;
	hcdef_wblock *blocks;
	size_t nblocks;
	size_t *story_ends;
	size_t nstories;
	uint8_t *out; /* room for the largest block */
	size_t outcap;
	uint64_t wire;       /* bytes encoded by the last hcdef_workload_run */
	/* Where the last hcdef_workload_run failed: a story and a block of
	   it, counted from 0. */
	size_t failed_story;
	size_t failed_block;
} hcdef_workload;

hcdef_workload *hcdef_workload_new(size_t datalen, size_t nnv, size_t nsizes,
                                   size_t nblocks, size_t nstories,
                                   size_t outcap);
void hcdef_workload_del(hcdef_workload *w);
int hcdef_workload_run(hcdef_workload *w, size_t passes);

size_t hcdef_global_live(void);

#endif
