//go:build nghttp2

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "countmem.h"

/* Each allocation is preceded by its size so that free can subtract it.
   Sixteen bytes keep the alignment malloc guarantees on amd64 and arm64. */
#define SIZE_HEADER 16

static size_t global_live;

size_t countmem_global_live(void) {
	return __atomic_load_n(&global_live, __ATOMIC_RELAXED);
}

void countmem_account(countmem_heap *heap, size_t added, size_t removed) {
	heap->live = heap->live + added - removed;
	if (heap->live > heap->peak) {
		heap->peak = heap->live;
	}
	__atomic_add_fetch(&global_live, added, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&global_live, removed, __ATOMIC_RELAXED);
}

static void *countmem_malloc(size_t size, void *user) {
	unsigned char *p;

	if (size > SIZE_MAX - SIZE_HEADER) {
		return NULL;
	}
	p = malloc(SIZE_HEADER + size);
	if (p == NULL) {
		return NULL;
	}
	memcpy(p, &size, sizeof size);
	countmem_account(user, size, 0);
	return p + SIZE_HEADER;
}

void countmem_free(void *ptr, void *user) {
	unsigned char *p;
	size_t size;

	if (ptr == NULL) {
		return;
	}
	p = (unsigned char *)ptr - SIZE_HEADER;
	memcpy(&size, p, sizeof size);
	countmem_account(user, 0, size);
	free(p);
}

static void *countmem_calloc(size_t n, size_t size, void *user) {
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

void *countmem_realloc(void *ptr, size_t size, void *user) {
	unsigned char *old, *p;
	size_t oldsize;

	if (ptr == NULL) {
		return countmem_malloc(size, user);
	}
	if (size > SIZE_MAX - SIZE_HEADER) {
		return NULL;
	}
	old = (unsigned char *)ptr - SIZE_HEADER;
	memcpy(&oldsize, old, sizeof oldsize);
	p = realloc(old, SIZE_HEADER + size);
	if (p == NULL) {
		return NULL;
	}
	memcpy(p, &size, sizeof size);
	countmem_account(user, size, oldsize);
	return p + SIZE_HEADER;
}

void countmem_init(nghttp2_mem *mem, countmem_heap *heap) {
	mem->mem_user_data = heap;
	mem->malloc = countmem_malloc;
	mem->free = countmem_free;
	mem->calloc = countmem_calloc;
	mem->realloc = countmem_realloc;
}
