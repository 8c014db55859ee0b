/*
 * hpack-stdio decoder adapter for libnghttp2's HPACK inflater, in C.
 *
 * A fresh inflater per "new" (nghttp2_hd_inflate_new: 4096, the size an
 * HTTP/2 connection starts with); a block's acknowledged table size through
 * nghttp2_hd_inflate_change_table_size whenever it differs from the last, as
 * nghttp2's session does when its SETTINGS_HEADER_TABLE_SIZE is
 * acknowledged; the block through nghttp2_hd_inflate_hd2 as one final input,
 * then nghttp2_hd_inflate_end_headers. A field emitted with
 * NGHTTP2_NV_FLAG_NO_INDEX came from a never-indexed literal. The table is
 * read with nghttp2_hd_inflate_get_table_entry: indices past the 61 static
 * entries are the dynamic table, newest first. The inflater has no
 * header-list limit: an nghttp2 application enforces one in its header
 * callback, field by field, and so does this adapter with "max_header_list"
 * (name + value + 32 per field), refusing the block as soon as the running
 * size exceeds it. Names and values are octets, answered as hex
 * with "hex":true (the binary form, offered in hello) whatever the request.
 *
 * The JSON side of hpack-stdio is ../c-common/hpackstdio-json.h.
 */
#include <nghttp2/nghttp2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../c-common/hpackstdio-json.h"

/* The static table's length (RFC 7541 Appendix A): the dynamic table's
 * first index is one more. */
#define STATIC_ENTRIES 61

struct context {
	nghttp2_hd_inflater *inflater;
	size_t table_size; /* the setting last passed to the inflater */
};

static void put_hex(FILE *out, const uint8_t *p, size_t n)
{
	size_t i;
	putc('"', out);
	for (i = 0; i < n; i++)
		fprintf(out, "%02x", p[i]);
	putc('"', out);
}

static void put_pair(FILE *out, const nghttp2_nv *nv, int first)
{
	fputs(first ? "[" : ",[", out);
	put_hex(out, nv->name, nv->namelen);
	putc(',', out);
	put_hex(out, nv->value, nv->valuelen);
	putc(']', out);
}

/* The result of inflate_block besides the library's error codes: the header
 * list grew over max_header_list. */
#define OVER_LIST_LIMIT 1
/* The result of inflate_block when the inflater neither consumed input nor
 * emitted a field nor ended the block. */
#define NO_PROGRESS 2

/* Decodes wire into "headers" and "never_indexed" text, stopping when the
 * list's size passes limit (0: no limit); returns 0, OVER_LIST_LIMIT,
 * NO_PROGRESS or the library's error code. */
static int inflate_block(nghttp2_hd_inflater *inflater, const uint8_t *wire, size_t len, size_t limit, FILE *headers,
			 FILE *flags)
{
	size_t fields = 0, list_size = 0;
	for (;;) {
		nghttp2_nv nv;
		int inflate_flags = 0;
		ssize_t n = nghttp2_hd_inflate_hd2(inflater, &nv, &inflate_flags, wire, len, 1);
		if (n < 0)
			return (int)n;
		wire += n;
		len -= (size_t)n;
		if (inflate_flags & NGHTTP2_HD_INFLATE_EMIT) {
			list_size += nv.namelen + nv.valuelen + 32;
			if (limit != 0 && list_size > limit)
				return OVER_LIST_LIMIT;
			put_pair(headers, &nv, fields == 0);
			fprintf(flags, "%s%s", fields == 0 ? "" : ",", nv.flags & NGHTTP2_NV_FLAG_NO_INDEX ? "true" : "false");
			fields++;
		}
		if (inflate_flags & NGHTTP2_HD_INFLATE_FINAL) {
			nghttp2_hd_inflate_end_headers(inflater);
			return 0;
		}
		if (n == 0 && !(inflate_flags & NGHTTP2_HD_INFLATE_EMIT))
			return NO_PROGRESS;
	}
}

static void decode(struct context *ctx, struct json *req)
{
	const struct json *size = member(req, "table_size");
	const struct json *limit = member(req, "max_header_list");
	struct json *wire = (struct json *)member(req, "wire");
	int rv;
	char *headers = NULL, *flags = NULL;
	size_t headers_len = 0, flags_len = 0, i, entries;
	FILE *hs, *fs;

	if (!ctx->inflater)
		return answer_error("decode before new (or after a refused block)");
	if (!wire || octets(wire, 1) != 0 || !size || size->kind != J_NUM || size->num < 0)
		return answer_error("decode needs wire (hex) and table_size");
	if (limit && (limit->kind != J_NUM || limit->num < 0))
		return answer_error("decode: max_header_list is not a number >= 0");
	if ((size_t)size->num != ctx->table_size) {
		rv = nghttp2_hd_inflate_change_table_size(ctx->inflater, (size_t)size->num);
		if (rv != 0)
			return answer_error(nghttp2_strerror(rv));
		ctx->table_size = (size_t)size->num;
	}
	hs = open_memstream(&headers, &headers_len);
	fs = open_memstream(&flags, &flags_len);
	if (!hs || !fs)
		return answer_error("out of memory");
	rv = inflate_block(ctx->inflater, (const uint8_t *)wire->str, wire->len, limit ? (size_t)limit->num : 0, hs, fs);
	fclose(hs);
	fclose(fs);
	if (rv != 0) {
		if (rv == OVER_LIST_LIMIT)
			answer_error("header list over max_header_list (stopped by the adapter, as an nghttp2 header callback does)");
		else if (rv == NO_PROGRESS)
			answer_error("nghttp2_hd_inflate_hd2 made no progress");
		else
			answer_error(nghttp2_strerror(rv));
		nghttp2_hd_inflate_del(ctx->inflater);
		ctx->inflater = NULL;
	} else {
		printf("{\"headers\":[%s],\"never_indexed\":[%s],\"table\":[", headers, flags);
		entries = nghttp2_hd_inflate_get_num_table_entries(ctx->inflater);
		for (i = STATIC_ENTRIES + 1; i <= entries; i++)
			put_pair(stdout, nghttp2_hd_inflate_get_table_entry(ctx->inflater, i), i == STATIC_ENTRIES + 1);
		puts("],\"hex\":true}");
	}
	free(headers);
	free(flags);
}

int main(void)
{
	struct context ctx = {NULL, 4096};
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	nghttp2_info *info = nghttp2_version(0);

	while ((len = getline(&line, &cap, stdin)) > 0) {
		struct parser ps = {line, line + len, NULL};
		struct json req = {0};
		const struct json *op;
		if (parse_value(&ps, &req, 0) != 0 || req.kind != J_OBJ) {
			answer_error(ps.err ? ps.err : "not a JSON object");
		} else if (!(op = member(&req, "op")) || op->kind != J_STR) {
			answer_error("no op");
		} else if (strcmp(op->str, "hello") == 0) {
			printf("{\"name\":\"libnghttp2 %s (C, stdio) decoder\",\"decoder\":true,\"binary\":true}\n",
			       info->version_str);
		} else if (strcmp(op->str, "new") == 0) {
			if (ctx.inflater)
				nghttp2_hd_inflate_del(ctx.inflater);
			ctx.inflater = NULL;
			ctx.table_size = 4096;
			if (nghttp2_hd_inflate_new(&ctx.inflater) != 0)
				answer_error("nghttp2_hd_inflate_new failed");
			else
				puts("{}");
		} else if (strcmp(op->str, "decode") == 0) {
			decode(&ctx, &req);
		} else {
			answer_error("unknown op");
		}
		json_free(&req);
		fflush(stdout);
	}
	free(line);
	if (ctx.inflater)
		nghttp2_hd_inflate_del(ctx.inflater);
	return 0;
}
