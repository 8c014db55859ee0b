/*
 * hpack-stdio adapter for h2o's HPACK encoder (libh2o-evloop, Debian
 * libh2o-evloop-dev 2.2.5, lib/http2/hpack.c), in C.
 *
 * libh2o 2.2.5 encodes whole messages, not header lists: its two public
 * encoders (include/h2o/http2_internal.h) are h2o_hpack_flatten_request,
 * which writes a PUSH_PROMISE whose block starts with :method, :scheme,
 * :authority and :path from an h2o_req_t, and h2o_hpack_flatten_response,
 * which writes a HEADERS frame whose block starts with :status, a server
 * field when a server name is given, and a date field of its own making.
 * The rest of the block is the message's header list (h2o_headers_t),
 * encoded field by field. The first can write any header list behind its
 * four pseudo-header fields, so the adapter declares "request-head" and
 * the certifier gives every block that head; a block that does not start
 * with it is answered {"unsupported":...}.
 *
 * A fresh h2o_hpack_header_table_t per "new", with the capacity h2o's
 * connection gives its output table (H2O_HTTP2_SETTINGS_HOST, 4096). The
 * fields are added to the message with h2o_add_header_by_str, as h2o does,
 * so that names h2o knows become its tokens (static-table name indices,
 * never-indexed short cookies). The frames h2o writes are taken apart
 * again: the block is the fragments of the PUSH_PROMISE or HEADERS frame
 * and of its CONTINUATION frames.
 *
 * Acknowledged table sizes: libh2o 2.2.5 has no API that takes one (its
 * connection reads SETTINGS_HEADER_TABLE_SIZE and leaves the output table
 * as it is, "FIXME handle SETTINGS_HEADER_TABLE_SIZE" in
 * lib/http2/connection.c; h2o pull request 2916 added one after 2.2.5), so
 * they are read and, as h2o 2.2.5 does, not applied.
 *
 * The answer to hello declares what libh2o cannot express: a field marked
 * sensitive (it never-indexes by name only), a block without fields, and
 * a block that is not a request's (request-head). Names and values are
 * octets (binary form).
 */
#include <h2o.h>
#include <h2o/http2.h>
#include <h2o/http2_internal.h>
#include <h2o/version.h>
#include <stdint.h>

#include "../c-common/hpackstdio-json.h"

/* The largest HTTP/2 frame payload (RFC 9113 §4.2): one frame per block. */
#define MAX_FRAME_SIZE 16777215
#define DATE_LEN H2O_TIMESTR_RFC1123_LEN

/* Buffers of at least 4 KiB, as h2o's own prototypes start; no recycling. */
static h2o_buffer_prototype_t buffer_prototype = {.allocator = {.max = 0}, ._initial_buf = {.capacity = 4096}};

static int named(const struct json *field, const char *name)
{
	const struct json *n = &field->items[0];
	return n->len == strlen(name) && memcmp(n->str, name, n->len) == 0;
}

static h2o_iovec_t iov(const struct json *s)
{
	return h2o_iovec_init(s->str, s->len);
}

/*
 * Writes the answer for the header block h2o wrote as frames in buf: a
 * PUSH_PROMISE, whose payload starts with the promised stream id, or a
 * HEADERS frame, then CONTINUATION frames. The frames are checked first,
 * then the block is written as hex; returns an error text (and writes
 * nothing) when the frames are not what libh2o writes.
 */
static const char *write_block(const h2o_buffer_t *buf, uint8_t first_type)
{
	const uint8_t *start = (const uint8_t *)buf->bytes, *end = start + buf->size, *p;
	int pass;
	for (pass = 0; pass < 2; pass++) {
		int first = 1;
		if (pass == 1)
			fputs("{\"wire\":\"", stdout);
		for (p = start; p < end; first = 0) {
			size_t len, at = 0;
			if (end - p < H2O_HTTP2_FRAME_HEADER_SIZE)
				return "libh2o wrote a truncated frame header";
			len = (size_t)p[0] << 16 | (size_t)p[1] << 8 | p[2];
			if (p[3] != (first ? first_type : H2O_HTTP2_FRAME_TYPE_CONTINUATION))
				return "libh2o wrote an unexpected frame type";
			p += H2O_HTTP2_FRAME_HEADER_SIZE;
			if ((size_t)(end - p) < len)
				return "libh2o wrote a frame longer than its buffer";
			if (first && first_type == H2O_HTTP2_FRAME_TYPE_PUSH_PROMISE)
				at = 4; /* the promised stream id */
			if (len < at)
				return "libh2o wrote a PUSH_PROMISE without a stream id";
			if (pass == 1)
				for (; at < len; at++)
					printf("%02x", p[at]);
			p += len;
		}
	}
	fputs("\"}\n", stdout);
	return NULL;
}

static void encode(h2o_hpack_header_table_t *table, struct json *req)
{
	const struct json *sizes = member(req, "table_sizes"), *sens = member(req, "sensitive"), *bin = member(req, "binary");
	struct json *headers = (struct json *)member(req, "headers");
	int binary = bin && bin->kind == J_BOOL && bin->boolean;
	size_t i;
	const char *err = NULL;
	h2o_mem_pool_t pool;
	h2o_buffer_t *buf;
	static h2o_req_t message;
	h2o_url_scheme_t scheme;
	const struct json *s;

	if (!table)
		return answer_error("encode before new");
	if (!sizes || sizes->kind != J_ARR || !headers || headers->kind != J_ARR || !sens || sens->kind != J_ARR ||
	    sens->n != headers->n)
		return answer_error("encode needs table_sizes, headers and sensitive");
	for (i = 0; i < sizes->n; i++)
		if (sizes->items[i].kind != J_NUM)
			return answer_error("a table size is not a number");
	for (i = 0; i < headers->n; i++) {
		struct json *f = &headers->items[i];
		if (f->kind != J_ARR || f->n != 2 || octets(&f->items[0], binary) || octets(&f->items[1], binary))
			return answer_error("a header is not a [name, value] pair of strings");
		if (sens->items[i].kind == J_BOOL && sens->items[i].boolean)
			return (void)puts("{\"unsupported\":\"libh2o 2.2.5 has no never-index API\"}");
	}

	/* The one message of libh2o's that takes any header list. */
	if (!(headers->n >= 4 && named(&headers->items[0], ":method") && named(&headers->items[1], ":scheme") &&
	      named(&headers->items[2], ":authority") && named(&headers->items[3], ":path")))
		return (void)puts("{\"unsupported\":\"libh2o 2.2.5 writes a header block only as a request's (its encoders "
				  "are h2o_hpack_flatten_request and h2o_hpack_flatten_response): one that starts with :method, "
				  ":scheme, :authority, :path, in that order\"}");

	h2o_mem_init_pool(&pool);
	memset(&message, 0, sizeof message);
	for (i = 4; i < headers->n; i++) {
		const struct json *n = &headers->items[i].items[0], *v = &headers->items[i].items[1];
		h2o_add_header_by_str(&pool, &message.headers, n->str, n->len, 1, NULL, v->str, v->len);
	}
	h2o_buffer_init(&buf, &buffer_prototype);
	message.input.method = iov(&headers->items[0].items[1]);
	s = &headers->items[1].items[1];
	if (h2o_memis(s->str, s->len, H2O_STRLIT("https"))) {
		message.input.scheme = &H2O_URL_SCHEME_HTTPS;
	} else if (h2o_memis(s->str, s->len, H2O_STRLIT("http"))) {
		message.input.scheme = &H2O_URL_SCHEME_HTTP;
	} else {
		scheme.name = iov(s);
		scheme.default_port = 0;
		message.input.scheme = &scheme;
	}
	message.input.authority = iov(&headers->items[2].items[1]);
	message.input.path = iov(&headers->items[3].items[1]);
	h2o_hpack_flatten_request(&buf, table, 2, MAX_FRAME_SIZE, &message, 1);
	err = write_block(buf, H2O_HTTP2_FRAME_TYPE_PUSH_PROMISE);
	h2o_buffer_dispose(&buf);
	h2o_mem_clear_pool(&pool);
	if (err)
		answer_error(err);
}

int main(void)
{
	static h2o_hpack_header_table_t table;
	int open = 0;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	while ((len = getline(&line, &cap, stdin)) > 0) {
		struct parser ps = {line, line + len, NULL};
		struct json req = {0};
		const struct json *op;
		if (parse_value(&ps, &req, 0) != 0 || req.kind != J_OBJ) {
			answer_error(ps.err ? ps.err : "not a JSON object");
		} else if (!(op = member(&req, "op")) || op->kind != J_STR) {
			answer_error("no op");
		} else if (strcmp(op->str, "hello") == 0) {
			printf("{\"name\":\"libh2o %s (C; request blocks, table sizes not applied)\",\"binary\":true,"
			       "\"lacks\":[\"never-index\",\"empty-block\",\"request-head\"]}\n",
			       H2O_VERSION);
		} else if (strcmp(op->str, "new") == 0) {
			if (open)
				h2o_hpack_dispose_header_table(&table);
			memset(&table, 0, sizeof table);
			table.hpack_capacity = H2O_HTTP2_SETTINGS_HOST.header_table_size;
			open = 1;
			puts("{}");
		} else if (strcmp(op->str, "encode") == 0) {
			encode(open ? &table : NULL, &req);
		} else {
			answer_error("unknown op");
		}
		json_free(&req);
		fflush(stdout);
	}
	free(line);
	if (open)
		h2o_hpack_dispose_header_table(&table);
	return 0;
}
