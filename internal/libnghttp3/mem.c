//go:build nghttp3

#include <stdlib.h>
#include <string.h>

#include "mem.h"

/* Each allocation is preceded by its size so that free can subtract it.
   Sixteen bytes keep the alignment malloc guarantees on amd64 and arm64. */
#define SIZE_HEADER 16

static size_t live;

size_t hc3mem_live(void) { return __atomic_load_n(&live, __ATOMIC_RELAXED); }

static size_t size_of(void *p) {
	size_t size;

	memcpy(&size, (unsigned char *)p - SIZE_HEADER, sizeof size);
	return size;
}

static void *mem_realloc(void *ptr, size_t size, void *user) {
	unsigned char *p, *base = NULL;
	size_t old = 0;

	(void)user;
	if (size > SIZE_MAX - SIZE_HEADER) {
		return NULL;
	}
	if (ptr != NULL) {
		old = size_of(ptr);
		base = (unsigned char *)ptr - SIZE_HEADER;
	}
	p = realloc(base, SIZE_HEADER + size);
	if (p == NULL) {
		return NULL;
	}
	memcpy(p, &size, sizeof size);
	__atomic_add_fetch(&live, size, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&live, old, __ATOMIC_RELAXED);
	return p + SIZE_HEADER;
}

static void *mem_malloc(size_t size, void *user) { return mem_realloc(NULL, size, user); }

static void mem_free(void *ptr, void *user) {
	(void)user;
	if (ptr == NULL) {
		return;
	}
	__atomic_sub_fetch(&live, size_of(ptr), __ATOMIC_RELAXED);
	free((unsigned char *)ptr - SIZE_HEADER);
}

static void *mem_calloc(size_t n, size_t size, void *user) {
	void *p;

	if (size != 0 && n > SIZE_MAX / size) {
		return NULL;
	}
	p = mem_malloc(n * size, user);
	if (p != NULL) {
		memset(p, 0, n * size);
	}
	return p;
}

const nghttp3_mem hc3mem = {NULL, mem_malloc, mem_free, mem_calloc, mem_realloc};

int hc3bytes_reserve(hc3bytes *b, size_t extra) {
	size_t cap;
	uint8_t *p;

	if (extra <= b->cap - b->len) {
		return 0;
	}
	if (extra > SIZE_MAX / 2 - b->len) {
		return NGHTTP3_ERR_NOMEM;
	}
	cap = 2 * (b->len + extra);
	p = mem_realloc(b->p, cap, NULL);
	if (p == NULL) {
		return NGHTTP3_ERR_NOMEM;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

int hc3bytes_append(hc3bytes *b, const void *src, size_t n) {
	int rv;

	if (n == 0) {
		return 0;
	}
	rv = hc3bytes_reserve(b, n);
	if (rv != 0) {
		return rv;
	}
	memcpy(b->p + b->len, src, n);
	b->len += n;
	return 0;
}

void hc3bytes_free(hc3bytes *b) {
	mem_free(b->p, NULL);
	memset(b, 0, sizeof *b);
}
