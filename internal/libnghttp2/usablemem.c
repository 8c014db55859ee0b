//go:build nghttp2

#include <stdlib.h>

/* Every binary built with the nghttp2 tag links this file, so it names
   the usable size of a block as each C library does. */
#if defined(__APPLE__)
#include <malloc/malloc.h>
#define usable_size malloc_size
#else
#include <malloc.h>
#define usable_size malloc_usable_size
#endif

#include "usablemem.h"

static void *usable_malloc(size_t size, void *ud) {
	int64_t *live = ud;
	void *p = malloc(size);
	if (p != NULL) *live += (int64_t)usable_size(p);
	return p;
}

static void usable_free(void *p, void *ud) {
	int64_t *live = ud;
	if (p == NULL) return;
	*live -= (int64_t)usable_size(p);
	free(p);
}

static void *usable_calloc(size_t n, size_t size, void *ud) {
	int64_t *live = ud;
	void *p = calloc(n, size);
	if (p != NULL) *live += (int64_t)usable_size(p);
	return p;
}

static void *usable_realloc(void *p, size_t size, void *ud) {
	int64_t *live = ud;
	int64_t old = p != NULL ? (int64_t)usable_size(p) : 0;
	void *q = realloc(p, size);
	if (q != NULL) {
		*live += (int64_t)usable_size(q) - old;
	} else if (size == 0) {
		*live -= old;
	}
	return q;
}

void usablemem_init(nghttp2_mem *mem, int64_t *live) {
	mem->mem_user_data = live;
	mem->malloc = usable_malloc;
	mem->free = usable_free;
	mem->calloc = usable_calloc;
	mem->realloc = usable_realloc;
}
