//go:build nghttp2

#include <stdlib.h>
#include <string.h>

#include "inflate.h"

/* RFC 7541 Appendix A; dynamic entries start at index 62. */
#define STATIC_TABLE_LEN 61

/* RFC 7541 §4.1 entry overhead, also the per-field overhead of the header
   list size in RFC 9113 §6.5.2. */
#define ENTRY_OVERHEAD 32

/* Bytes held by every hcinf of the process. */
size_t hcinf_global_live(void) {
	return countmem_global_live();
}

hcinf *hcinf_new(void) {
	hcinf *h;

	h = calloc(1, sizeof *h);
	if (h == NULL) {
		return NULL;
	}
	countmem_account(&h->heap, sizeof *h, 0);
	countmem_init(&h->mem, &h->heap);
	if (nghttp2_hd_inflate_new2(&h->inflater, &h->mem) != 0) {
		countmem_account(&h->heap, 0, sizeof *h);
		free(h);
		return NULL;
	}
	return h;
}

void hcinf_del(hcinf *h) {
	if (h == NULL) {
		return;
	}
	nghttp2_hd_inflate_del(h->inflater);
	countmem_free(h->out, &h->heap);
	countmem_account(&h->heap, 0, sizeof *h);
	free(h);
}

/* reserve makes room for more bytes at the end of h->out. */
static int reserve(hcinf *h, size_t more) {
	size_t cap;
	uint8_t *p;

	if (more <= h->outcap - h->outlen) {
		return 0;
	}
	cap = h->outcap != 0 ? h->outcap : 256;
	while (cap - h->outlen < more) {
		if (cap > SIZE_MAX / 2) {
			return NGHTTP2_ERR_NOMEM;
		}
		cap *= 2;
	}
	p = countmem_realloc(h->out, cap, &h->heap);
	if (p == NULL) {
		return NGHTTP2_ERR_NOMEM;
	}
	h->out = p;
	h->outcap = cap;
	return 0;
}

static void put_le32(uint8_t *p, uint32_t v) {
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static int append_record(hcinf *h, const nghttp2_nv *nv) {
	uint8_t *p;
	size_t n;
	int rv;

	/* nghttp2 caps each string at 64 KiB; the check keeps the 4-byte
	   lengths honest should that ever change. */
	if (nv->namelen > UINT32_MAX || nv->valuelen > UINT32_MAX) {
		return NGHTTP2_ERR_HEADER_COMP;
	}
	n = HCINF_RECORD_HEADER + nv->namelen + nv->valuelen;
	rv = reserve(h, n);
	if (rv != 0) {
		return rv;
	}
	p = h->out + h->outlen;
	put_le32(p, (uint32_t)nv->namelen);
	put_le32(p + 4, (uint32_t)nv->valuelen);
	p[8] = nv->flags;
	p += HCINF_RECORD_HEADER;
	if (nv->namelen != 0) {
		memcpy(p, nv->name, nv->namelen);
	}
	if (nv->valuelen != 0) {
		memcpy(p + nv->namelen, nv->value, nv->valuelen);
	}
	h->outlen += n;
	return 0;
}

int hcinf_block(hcinf *h, const uint8_t *in, size_t inlen, size_t list_limit) {
	size_t list = 0;

	h->outlen = 0;
	h->consumed = 0;
	h->nfields = 0;
	for (;;) {
		nghttp2_nv nv;
		int flags = 0;
		ssize_t n;
		int rv;

		n = nghttp2_hd_inflate_hd2(h->inflater, &nv, &flags,
		                           in == NULL ? in : in + h->consumed,
		                           inlen - h->consumed, 1);
		if (n < 0) {
			return (int)n;
		}
		if (flags & NGHTTP2_HD_INFLATE_EMIT) {
			/* consumed stays at the start of a field that fails. */
			list += nv.namelen + nv.valuelen + ENTRY_OVERHEAD;
			if (list_limit != 0 && list > list_limit) {
				return HCINF_ERR_LIST_LIMIT;
			}
			rv = append_record(h, &nv);
			if (rv != 0) {
				return rv;
			}
			h->nfields++;
		}
		h->consumed += (size_t)n;
		if (flags & NGHTTP2_HD_INFLATE_FINAL) {
			nghttp2_hd_inflate_end_headers(h->inflater);
			return 0;
		}
		if (!(flags & NGHTTP2_HD_INFLATE_EMIT) && n == 0) {
			return HCINF_ERR_NO_PROGRESS;
		}
	}
}

int hcinf_table(hcinf *h) {
	size_t n, i;
	int rv;

	h->outlen = 0;
	n = nghttp2_hd_inflate_get_num_table_entries(h->inflater);
	for (i = STATIC_TABLE_LEN + 1; i <= n; i++) {
		const nghttp2_nv *nv = nghttp2_hd_inflate_get_table_entry(h->inflater, i);
		if (nv == NULL) {
			break;
		}
		rv = append_record(h, nv);
		if (rv != 0) {
			return rv;
		}
	}
	return 0;
}
