//go:build nghttp2

/*
 * The C half of InflateBatch: recorded header blocks copied into C memory
 * once and decoded by libnghttp2's inflater in loops that run inside C,
 * one cgo call per loop whatever its length, so that the decode and
 * proxy-hop benchmarks charge no cgo crossing to nghttp2.
 */
#ifndef HPACKCERT_INFLATEBATCH_H
#define HPACKCERT_INFLATEBATCH_H

#include <stddef.h>
#include <stdint.h>

#include <nghttp2/nghttp2.h>

/* Returned by the loops beside nghttp2's own (negative) error codes. */
enum {
	HCINFB_ERR_NO_PROGRESS = 1, /* nghttp2 neither consumed input nor finished */
	HCINFB_ERR_ROOM = 2,        /* a block decoded to more fields or octets than the room given */
};

/* hctally is what a loop was handed: fields, octets of their names and
   values, fields flagged never indexed, and (hops only) the wire octets
   the deflater wrote. */
typedef struct hctally {
	int64_t fields, octets, sensitive, wire;
} hctally;

/* hcinfbatch holds every recorded block one after another in wire, block
   b being wire[block_start[b]:block_start[b+1]] and connection c being
   blocks [conn_start[c], conn_start[c+1]). */
typedef struct hcinfbatch {
	uint8_t *wire;
	size_t *block_start;
	size_t *conn_start;
	size_t nblocks, nconns;
	/* The hop's room: one block's fields copied out of the inflater,
	   whose nghttp2_nv are valid only until its next call, and the
	   deflater's output. */
	nghttp2_nv *nv;
	size_t nvcap;
	uint8_t *text;
	size_t textcap;
	uint8_t *out;
	size_t outcap;
	hctally tally;                /* of the last loop */
	size_t fail_conn, fail_block; /* where the last loop failed */
} hcinfbatch;

/* hcinfbatch_new copies inlen octets of blocks, the nblocks+1 block starts
   and nconns+1 connection starts; a hop's block may decode to at most
   nvcap fields of textcap octets and encode to at most outcap. It returns
   0 or NGHTTP2_ERR_NOMEM. */
int hcinfbatch_new(hcinfbatch **bp, const uint8_t *in, size_t inlen,
                   const size_t *block_start, size_t nblocks,
                   const size_t *conn_start, size_t nconns,
                   size_t nvcap, size_t textcap, size_t outcap);
/* hcinfbatch_passes decodes every block n times, each connection on a new
   inflater, into b->tally; 0 or an error code. */
int hcinfbatch_passes(hcinfbatch *b, int64_t n);
/* hcinfbatch_hops decodes every block n times as hcinfbatch_passes does
   and encodes each block's fields again on a deflater new for the
   connection; 0 or an error code. */
int hcinfbatch_hops(hcinfbatch *b, int64_t n);
/* hcinfbatch_held makes n inflaters counted with usablemem, stores the
   bytes they hold in *idle, decodes connection c % nconns on inflater c,
   stores the bytes held then in *used and frees them; 0 or an error code. */
int hcinfbatch_held(hcinfbatch *b, size_t n, int64_t *idle, int64_t *used);
void hcinfbatch_del(hcinfbatch *b);

#endif
