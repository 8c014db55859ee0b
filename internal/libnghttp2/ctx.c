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
	if (c->ops != NULL) {
		c->ops->del(c);
	}
	countmem_free(c->out.data, &c->heap);
	countmem_account(&c->heap, 0, c->size);
	free(c);
}

int hcctx_table(hcctx *c) {
	size_t n, i;
	int rv;

	c->out.len = 0;
	n = c->ops->entries(c);
	for (i = STATIC_TABLE_LEN + 1; i <= n; i++) {
		const nghttp2_nv *nv = c->ops->entry(c, i);
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

size_t hcctx_entries(hcctx *c) {
	return c->ops->entries(c) - STATIC_TABLE_LEN;
}

size_t hcctx_size(hcctx *c) {
	return c->ops->size(c);
}

size_t hcctx_max_size(hcctx *c) {
	return c->ops->max_size(c);
}
