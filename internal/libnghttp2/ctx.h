//go:build nghttp2

/*
 * hcctx is what a deflater (hcdef) and an inflater (hcinf) of this package
 * share, as the first member of each, so that Go frees and measures both
 * through it: the allocator, the heap it counts into, the records handed to
 * Go, and the nghttp2 functions of its family (deflate or inflate) that
 * free it and read its table.
 */
#ifndef HPACKCERT_CTX_H
#define HPACKCERT_CTX_H

#include <stddef.h>

#include <nghttp2/nghttp2.h>

#include "countmem.h"
#include "records.h"

/* RFC 7541 Appendix A; dynamic entries start at index 62. */
#define STATIC_TABLE_LEN 61

struct hcctx;

/* hcops are the functions of one family, which nghttp2 declares twice
   (nghttp2_hd_deflate_* and nghttp2_hd_inflate_*), on the owner of c. */
typedef struct hcops {
	void (*del)(struct hcctx *c); /* frees the nghttp2 object and the owner's buffers */
	size_t (*entries)(struct hcctx *c);
	const nghttp2_nv *(*entry)(struct hcctx *c, size_t i);
	size_t (*size)(struct hcctx *c);
	size_t (*max_size)(struct hcctx *c);
} hcops;

/* HCCTX_OPS defines name, the hcops of owner, whose nghttp2 object of
   family (deflate or inflate) is its member hd, freed by del with what
   else the owner holds. */
#define HCCTX_OPS(name, owner, family, del)                                     \
	static size_t name##_entries(hcctx *c) {                                \
		return nghttp2_hd_##family##_get_num_table_entries(((owner *)c)->hd); \
	}                                                                       \
	static const nghttp2_nv *name##_entry(hcctx *c, size_t i) {             \
		return nghttp2_hd_##family##_get_table_entry(((owner *)c)->hd, i); \
	}                                                                       \
	static size_t name##_size(hcctx *c) {                                   \
		return nghttp2_hd_##family##_get_dynamic_table_size(((owner *)c)->hd); \
	}                                                                       \
	static size_t name##_max_size(hcctx *c) {                               \
		return nghttp2_hd_##family##_get_max_dynamic_table_size(((owner *)c)->hd); \
	}                                                                       \
	static const hcops name = {del, name##_entries, name##_entry,            \
	                           name##_size, name##_max_size}

typedef struct hcctx {
	/* nghttp2's HPACK context keeps a pointer to its allocator (despite
	   what nghttp2.h says of the _new2 functions), so the allocator lives
	   here, as long as the context. */
	nghttp2_mem mem;
	countmem_heap heap; /* what the owner holds through the allocator */
	records out;        /* records of the last block or table read */
	size_t size;        /* of the owner, which hcctx begins */
	/* the owner's family; NULL until its nghttp2 object exists */
	const hcops *ops;
} hcctx;

/* hcctx_new allocates a zeroed owner of size bytes that begins with an
   hcctx, counted on its own heap, with the allocator ready; NULL when
   memory is exhausted. */
hcctx *hcctx_new(size_t size);
void hcctx_del(hcctx *c);

/* hcctx_table replaces c->out with the dynamic table entries, newest
   first; 0 or NGHTTP2_ERR_NOMEM. */
int hcctx_table(hcctx *c);
/* The dynamic table's entries, size and maximum size (RFC 7541 §4.1). */
size_t hcctx_entries(hcctx *c);
size_t hcctx_size(hcctx *c);
size_t hcctx_max_size(hcctx *c);

#endif
