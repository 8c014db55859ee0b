/* A counting allocator for libnghttp2's nghttp2_mem hooks, and the record
   buffer that hands fields to Go, shared by the
   C files of oracle/nghttp2 and internal/nghttp2deflate (each includes it
   through #cgo CFLAGS -I). Header-only: every file that includes it gets
   its own static copy, so each package counts its own bytes. */
#ifndef HPACKCERT_COUNTMEM_H
#define HPACKCERT_COUNTMEM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nghttp2/nghttp2.h>

/* The user data of the allocator: what one object holds through it. */
typedef struct countmem_heap {
	size_t live; /* bytes held now */
	size_t peak; /* the most ever held */
} countmem_heap;

/* Each allocation is preceded by its size so that free can subtract it.
   Sixteen bytes keep the alignment malloc guarantees on amd64 and arm64. */
#define COUNTMEM_SIZE_HEADER 16

/* Bytes held through this allocator by every heap of the including file. */
static size_t countmem_global __attribute__((unused));

static inline size_t countmem_global_live(void) {
	return __atomic_load_n(&countmem_global, __ATOMIC_RELAXED);
}

/* countmem_account records added and removed bytes on heap and globally;
   it is also how an object counts memory it took from calloc itself. */
static inline void countmem_account(countmem_heap *heap, size_t added, size_t removed) {
	heap->live = heap->live + added - removed;
	if (heap->live > heap->peak) {
		heap->peak = heap->live;
	}
	__atomic_add_fetch(&countmem_global, added, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&countmem_global, removed, __ATOMIC_RELAXED);
}

static inline void *countmem_malloc(size_t size, void *user) {
	unsigned char *p;

	if (size > SIZE_MAX - COUNTMEM_SIZE_HEADER) {
		return NULL;
	}
	p = malloc(COUNTMEM_SIZE_HEADER + size);
	if (p == NULL) {
		return NULL;
	}
	memcpy(p, &size, sizeof size);
	countmem_account(user, size, 0);
	return p + COUNTMEM_SIZE_HEADER;
}

static inline void countmem_free(void *ptr, void *user) {
	unsigned char *p;
	size_t size;

	if (ptr == NULL) {
		return;
	}
	p = (unsigned char *)ptr - COUNTMEM_SIZE_HEADER;
	memcpy(&size, p, sizeof size);
	countmem_account(user, 0, size);
	free(p);
}

static inline void *countmem_calloc(size_t n, size_t size, void *user) {
	void *p;

	if (size != 0 && n > SIZE_MAX / size) {
		return NULL;
	}
	p = countmem_malloc(n * size, user);
	if (p != NULL) {
		memset(p, 0, n * size);
	}
	return p;
}

static inline void *countmem_realloc(void *ptr, size_t size, void *user) {
	unsigned char *old, *p;
	size_t oldsize;

	if (ptr == NULL) {
		return countmem_malloc(size, user);
	}
	if (size > SIZE_MAX - COUNTMEM_SIZE_HEADER) {
		return NULL;
	}
	old = (unsigned char *)ptr - COUNTMEM_SIZE_HEADER;
	memcpy(&oldsize, old, sizeof oldsize);
	p = realloc(old, COUNTMEM_SIZE_HEADER + size);
	if (p == NULL) {
		return NULL;
	}
	memcpy(p, &size, sizeof size);
	countmem_account(user, size, oldsize);
	return p + COUNTMEM_SIZE_HEADER;
}

/* countmem_init points mem's hooks at this allocator, counting into heap. */
static inline void countmem_init(nghttp2_mem *mem, countmem_heap *heap) {
	mem->mem_user_data = heap;
	mem->malloc = countmem_malloc;
	mem->free = countmem_free;
	mem->calloc = countmem_calloc;
	mem->realloc = countmem_realloc;
}

/* Bytes of a record before its name and value: name length (4 bytes,
   little endian), value length (4 bytes, little endian), nghttp2_nv flags
   (1 byte). */
#define COUNTMEM_RECORD_HEADER 9

/* countmem_records is a growable buffer of records, one per header field,
   through which both packages hand fields and table entries to Go. */
typedef struct countmem_records {
	uint8_t *data;
	size_t len;
	size_t cap;
} countmem_records;

static inline void countmem_put_le32(uint8_t *p, uint32_t v) {
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* countmem_records_append appends nv as a record, growing r through heap.
   It returns 0, NGHTTP2_ERR_NOMEM, or NGHTTP2_ERR_INVALID_ARGUMENT for a
   string longer than the 4-byte lengths can say. */
static inline int countmem_records_append(countmem_records *r, countmem_heap *heap, const nghttp2_nv *nv) {
	size_t n, cap;
	uint8_t *p;

	if (nv->namelen > UINT32_MAX || nv->valuelen > UINT32_MAX) {
		return NGHTTP2_ERR_INVALID_ARGUMENT;
	}
	n = COUNTMEM_RECORD_HEADER + nv->namelen + nv->valuelen;
	if (n > r->cap - r->len) {
		cap = r->cap != 0 ? r->cap : 256;
		while (cap - r->len < n) {
			if (cap > SIZE_MAX / 2) {
				return NGHTTP2_ERR_NOMEM;
			}
			cap *= 2;
		}
		p = countmem_realloc(r->data, cap, heap);
		if (p == NULL) {
			return NGHTTP2_ERR_NOMEM;
		}
		r->data = p;
		r->cap = cap;
	}
	p = r->data + r->len;
	countmem_put_le32(p, (uint32_t)nv->namelen);
	countmem_put_le32(p + 4, (uint32_t)nv->valuelen);
	p[8] = nv->flags;
	p += COUNTMEM_RECORD_HEADER;
	if (nv->namelen != 0) {
		memcpy(p, nv->name, nv->namelen);
	}
	if (nv->valuelen != 0) {
		memcpy(p + nv->namelen, nv->value, nv->valuelen);
	}
	r->len += n;
	return 0;
}

#endif
