//go:build nghttp2

#include <stdlib.h>

#include "ctx.h"

hcctx *hcctx_new(size_t size) {
	hcctx *c;

	c = calloc(1, size);
	if (c == NULL) {
		return NULL;
	}
	c->size = size;
	countmem_account(&c->heap, size, 0);
	countmem_init(&c->mem, &c->heap);
	return c;
}

void hcctx_del(hcctx *c) {
	if (c == NULL) {
		return;
	}
	if (c->release != NULL) {
		c->release(c);
	}
	countmem_free(c->out.data, &c->heap);
	countmem_account(&c->heap, 0, c->size);
	free(c);
}

int hcctx_table(hcctx *c, size_t n, const nghttp2_nv *(*get)(void *hd, size_t i), void *hd) {
	size_t i;
	int rv;

	c->out.len = 0;
	for (i = STATIC_TABLE_LEN + 1; i <= n; i++) {
		const nghttp2_nv *nv = get(hd, i);
		if (nv == NULL) {
			break;
		}
		rv = records_append(&c->out, &c->heap, nv);
		if (rv != 0) {
			return rv;
		}
	}
	return 0;
}
