//go:build nghttp2

/*
 * The counting allocator the Deflater and the Inflater hand to libnghttp2
 * (its nghttp2_mem hooks), so that tests can show their C memory is freed
 * and stays flat.
 */
#ifndef HPACKCERT_COUNTMEM_H
#define HPACKCERT_COUNTMEM_H

#include <stddef.h>

#include <nghttp2/nghttp2.h>

/* The user data of the allocator: what one object holds through it. */
typedef struct countmem_heap {
	size_t live; /* bytes held now */
	size_t peak; /* the most ever held */
} countmem_heap;

/* countmem_account records added and removed bytes on heap and in the
   process's total; it is also how an object counts memory it took from
   calloc itself. */
void countmem_account(countmem_heap *heap, size_t added, size_t removed);
void *countmem_realloc(void *ptr, size_t size, void *user);
void countmem_free(void *ptr, void *user);
/* countmem_init points mem's hooks at this allocator, counting into heap. */
void countmem_init(nghttp2_mem *mem, countmem_heap *heap);
/* Bytes held through this allocator by every heap of the process. */
size_t countmem_global_live(void);

#endif
