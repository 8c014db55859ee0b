//go:build nghttp2

/*
 * The C half of Batch: a workload copied into C memory once and encoded by
 * loops that run inside C, one cgo call per loop whatever its length, so
 * that the benchmarks charge no cgo crossing to nghttp2.
 */
#ifndef HPACKCERT_BATCH_H
#define HPACKCERT_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include <nghttp2/nghttp2.h>

/* hcbatch holds the fields of every block in order, block b being
   nv[block_start[b]:block_start[b+1]] and connection c being blocks
   [conn_start[c], conn_start[c+1]). */
typedef struct hcbatch {
	uint8_t *text; /* the workload's records, into which nv points */
	nghttp2_nv *nv;
	size_t *block_start;
	size_t *conn_start;
	size_t nblocks, nconns;
	uint8_t *out; /* scratch for one block's wire bytes */
	size_t outcap;
	nghttp2_hd_deflater *steady; /* the long-lived deflater of hcbatch_steps */
	size_t next;                 /* next block of hcbatch_steps */
	/* The deflaters' allocator, which only counts calls and bytes asked:
	   it runs inside the timed loops. */
	nghttp2_mem mem;
	int64_t allocs, alloc_bytes;
} hcbatch;

/* hcbatch_new copies the nfields records of in (see records.h), the
   nblocks+1 block starts and nconns+1 connection starts; outcap bounds the
   wire bytes of any one block. It returns 0 or an nghttp2 error code. */
int hcbatch_new(hcbatch **bp, const uint8_t *in, size_t inlen, size_t nfields,
                const size_t *block_start, size_t nblocks,
                const size_t *conn_start, size_t nconns, size_t outcap);
/* hcbatch_steps encodes the next n blocks on the long-lived deflater and
   returns the wire bytes, or a negative nghttp2 error code. */
int64_t hcbatch_steps(hcbatch *b, int64_t n);
/* hcbatch_passes encodes the whole workload n times, each connection on a
   new deflater, and returns the wire bytes or a negative nghttp2 error
   code. */
int64_t hcbatch_passes(hcbatch *b, int64_t n);
/* hcbatch_wire encodes connection c on a new deflater into out, the blocks
   one after another, storing each block's length in lens. It returns the
   total or a negative nghttp2 error code. */
int64_t hcbatch_wire(hcbatch *b, size_t c, uint8_t *out, size_t outcap, size_t *lens);
void hcbatch_del(hcbatch *b);

#endif
