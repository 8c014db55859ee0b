/*
 * hpack-stdio adapter for libnghttp2's HPACK deflater, in C: the stdio path
 * on a C library, beside hpackcert's built-in cgo binding of the same code.
 *
 * A fresh deflater per "new" (nghttp2_hd_deflate_new with 4096, the size an
 * HTTP/2 connection starts with); each acknowledged size through
 * nghttp2_hd_deflate_change_table_size in order, as nghttp2's session does
 * for each SETTINGS_HEADER_TABLE_SIZE it acknowledges; the fields through
 * nghttp2_hd_deflate_hd, a sensitive field with NGHTTP2_NV_FLAG_NO_INDEX.
 * Names and values are octets (binary form).
 *
 * The JSON side of hpack-stdio is ../c-common/hpackstdio-json.h.
 */
#include <nghttp2/nghttp2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../c-common/hpackstdio-json.h"

static void encode(nghttp2_hd_deflater *deflater, struct json *req)
{
	const struct json *sizes = member(req, "table_sizes"), *sens = member(req, "sensitive"), *bin = member(req, "binary");
	struct json *headers = (struct json *)member(req, "headers");
	int binary = bin && bin->kind == J_BOOL && bin->boolean;
	nghttp2_nv *nva;
	uint8_t *buf;
	size_t i, bound;
	ssize_t n;

	if (!deflater)
		return answer_error("encode before new");
	if (!sizes || sizes->kind != J_ARR || !headers || headers->kind != J_ARR || !sens || sens->kind != J_ARR ||
	    sens->n != headers->n)
		return answer_error("encode needs table_sizes, headers and sensitive");
	for (i = 0; i < sizes->n; i++) {
		int rv = nghttp2_hd_deflate_change_table_size(deflater, (size_t)sizes->items[i].num);
		if (rv != 0)
			return answer_error(nghttp2_strerror(rv));
	}
	nva = calloc(headers->n + 1, sizeof *nva);
	if (!nva)
		return answer_error("out of memory");
	for (i = 0; i < headers->n; i++) {
		struct json *f = &headers->items[i];
		if (f->kind != J_ARR || f->n != 2 || octets(&f->items[0], binary) || octets(&f->items[1], binary)) {
			free(nva);
			return answer_error("a header is not a [name, value] pair of strings");
		}
		nva[i].name = (uint8_t *)f->items[0].str;
		nva[i].namelen = f->items[0].len;
		nva[i].value = (uint8_t *)f->items[1].str;
		nva[i].valuelen = f->items[1].len;
		nva[i].flags = sens->items[i].boolean ? NGHTTP2_NV_FLAG_NO_INDEX : NGHTTP2_NV_FLAG_NONE;
	}
	bound = nghttp2_hd_deflate_bound(deflater, nva, headers->n);
	buf = malloc(bound + 1);
	if (!buf) {
		free(nva);
		return answer_error("out of memory");
	}
	n = nghttp2_hd_deflate_hd(deflater, buf, bound, nva, headers->n);
	free(nva);
	if (n < 0) {
		free(buf);
		return answer_error(nghttp2_strerror((int)n));
	}
	fputs("{\"wire\":\"", stdout);
	for (i = 0; i < (size_t)n; i++)
		printf("%02x", buf[i]);
	fputs("\"}\n", stdout);
	free(buf);
}

int main(void)
{
	nghttp2_hd_deflater *deflater = NULL;
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
			printf("{\"name\":\"libnghttp2 %s (C, stdio)\",\"binary\":true}\n", info->version_str);
		} else if (strcmp(op->str, "new") == 0) {
			if (deflater)
				nghttp2_hd_deflate_del(deflater);
			deflater = NULL;
			if (nghttp2_hd_deflate_new(&deflater, 4096) != 0)
				answer_error("nghttp2_hd_deflate_new failed");
			else
				puts("{}");
		} else if (strcmp(op->str, "encode") == 0) {
			encode(deflater, &req);
		} else {
			answer_error("unknown op");
		}
		json_free(&req);
		fflush(stdout);
	}
	free(line);
	if (deflater)
		nghttp2_hd_deflate_del(deflater);
	return 0;
}
