/*
 * The QPACK mode of hpack-stdio for libnghttp3's QPACK encoder and decoder,
 * in C: `adapter --encoder` plays an encoder, `adapter --decoder` a
 * decoder (see docs/STDIO.md).
 *
 * The library glue is hpackcert's own cgo binding's C half, compiled in:
 * internal/libnghttp3/encoder.c (nghttp3_qpack_encoder with a hard maximum
 * of 4096 octets of table, set to min(4096, max_table_capacity), and
 * blocked_streams), decoder.c (nghttp3_qpack_decoder with what
 * nghttp3_conn keeps around it: blocked sections, the blocked-streams and
 * field-section-size limits) and codes.c (the RFC 9204 names of the
 * library's error codes). Names and values are octets, sent and answered
 * as hex (the binary form, offered in hello). The JSON reader is
 * ../c-common/hpackstdio-json.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../internal/libnghttp3/codes.h"
#include "../../internal/libnghttp3/decoder.h"
#include "../../internal/libnghttp3/encoder.h"
#include "../c-common/hpackstdio-json.h"

/* The largest stream id and setting a JSON number carries exactly. */
#define MAX_EXACT 9007199254740992.0

static void put_hex(FILE *out, const uint8_t *p, size_t n)
{
	size_t i;
	putc('"', out);
	for (i = 0; i < n; i++)
		fprintf(out, "%02x", p[i]);
	putc('"', out);
}

/* Reads the member key of req, a whole number from 0 to 2^53, into *v. */
static int get_uint(const struct json *req, const char *key, uint64_t *v)
{
	const struct json *m = member(req, key);
	if (!m || m->kind != J_NUM || m->num < 0 || m->num > MAX_EXACT || m->num != (double)(uint64_t)m->num)
		return -1;
	*v = (uint64_t)m->num;
	return 0;
}

/* Turns the hex string member key of req into octets in place. */
static struct json *get_hex(struct json *req, const char *key)
{
	struct json *m = (struct json *)member(req, key);
	if (!m || octets(m, 1) != 0)
		return NULL;
	return m;
}

/* Answers a refusal of the input: the RFC code when there is one. */
static void answer_refusal(int code)
{
	const char *rfc = hc3_rfc_code(code);
	fputs("{\"error\":", stdout);
	print_quoted(hc3_reason(code));
	if (rfc)
		printf(",\"code\":\"%s\"", rfc);
	fputs("}\n", stdout);
}

static void encoder_new(hc3enc **enc, const struct json *req)
{
	uint64_t capacity, blocked;
	if (get_uint(req, "max_table_capacity", &capacity) || get_uint(req, "blocked_streams", &blocked))
		return answer_error("new needs max_table_capacity and blocked_streams, whole numbers");
	if (*enc)
		hc3enc_del(*enc);
	*enc = hc3enc_new(4096, capacity, blocked);
	if (!*enc)
		return answer_error("out of memory");
	puts("{}");
}

static void encode(hc3enc *enc, struct json *req)
{
	const struct json *sens = member(req, "sensitive");
	struct json *headers = (struct json *)member(req, "headers");
	uint64_t stream;
	uint8_t *data = NULL, *flags = NULL;
	size_t *lens = NULL, i, total = 0;
	int rv;

	if (!enc)
		return answer_error("encode before new");
	if (get_uint(req, "stream", &stream) || !headers || headers->kind != J_ARR || !sens || sens->kind != J_ARR ||
	    sens->n != headers->n)
		return answer_error("encode needs stream, headers and sensitive");
	for (i = 0; i < headers->n; i++) {
		struct json *f = &headers->items[i];
		if (f->kind != J_ARR || f->n != 2 || octets(&f->items[0], 1) || octets(&f->items[1], 1) ||
		    sens->items[i].kind != J_BOOL)
			return answer_error("a header is not a [name, value] pair of hex strings, or its sensitive not a boolean");
		total += f->items[0].len + f->items[1].len;
	}
	data = malloc(total + 1);
	lens = malloc(2 * headers->n * sizeof *lens + 1);
	flags = malloc(headers->n + 1);
	if (!data || !lens || !flags) {
		answer_error("out of memory");
		goto out;
	}
	for (total = 0, i = 0; i < headers->n; i++) {
		const struct json *name = &headers->items[i].items[0], *value = &headers->items[i].items[1];
		memcpy(data + total, name->str, name->len);
		memcpy(data + total + name->len, value->str, value->len);
		total += name->len + value->len;
		lens[2 * i] = name->len;
		lens[2 * i + 1] = value->len;
		flags[i] = sens->items[i].boolean ? NGHTTP3_NV_FLAG_NEVER_INDEX : NGHTTP3_NV_FLAG_NONE;
	}
	rv = hc3enc_encode(enc, (int64_t)stream, data, lens, flags, headers->n);
	if (rv != 0) {
		answer_error(hc3_reason(rv));
		goto out;
	}
	fputs("{\"section\":\"", stdout);
	for (i = 0; i < nghttp3_buf_len(&enc->prefix); i++)
		printf("%02x", enc->prefix.pos[i]);
	for (i = 0; i < nghttp3_buf_len(&enc->lines); i++)
		printf("%02x", enc->lines.pos[i]);
	fputs("\",\"encoder_stream\":", stdout);
	put_hex(stdout, enc->stream.pos, nghttp3_buf_len(&enc->stream));
	fputs("}\n", stdout);
out:
	free(data);
	free(lens);
	free(flags);
}

static void decoder_stream(hc3enc *enc, struct json *req)
{
	const struct json *data = get_hex(req, "data");
	nghttp3_ssize n;
	if (!enc)
		return answer_error("decoder_stream before new");
	if (!data)
		return answer_error("decoder_stream needs data, hex");
	n = nghttp3_qpack_encoder_read_decoder(enc->enc, (const uint8_t *)data->str, data->len);
	if (n < 0)
		return answer_refusal((int)n);
	/* libnghttp3 writes nothing on the encoder stream in answer. */
	puts("{}");
}

static void decoder_new(hc3dec **dec, const struct json *req)
{
	uint64_t capacity, blocked, max_section = 0;
	if (get_uint(req, "max_table_capacity", &capacity) || get_uint(req, "blocked_streams", &blocked) ||
	    (member(req, "max_field_section_size") && get_uint(req, "max_field_section_size", &max_section)))
		return answer_error("new needs max_table_capacity and blocked_streams (and max_field_section_size), whole numbers");
	if (*dec)
		hc3dec_del(*dec);
	*dec = hc3dec_new(capacity, blocked, max_section);
	if (!*dec)
		return answer_error("out of memory");
	puts("{}");
}

/* Writes the records of d->fields (decoder.h) as "headers" and "sensitive". */
static void put_fields(FILE *out, const hc3dec *d)
{
	const uint8_t *p;
	int first;
	for (fputs("\"headers\":[", out), p = d->fields.p, first = 1; p < d->fields.p + d->fields.len; first = 0) {
		uint32_t lens[2];
		memcpy(lens, p, sizeof lens);
		p += HC3_RECORD_HEADER;
		fputs(first ? "[" : ",[", out);
		put_hex(out, p, lens[0]);
		putc(',', out);
		put_hex(out, p + lens[0], lens[1]);
		putc(']', out);
		p += lens[0] + lens[1];
	}
	for (fputs("],\"sensitive\":[", out), p = d->fields.p, first = 1; p < d->fields.p + d->fields.len; first = 0) {
		uint32_t lens[2];
		memcpy(lens, p, sizeof lens);
		fprintf(out, "%s%s", first ? "" : ",", p[8] & NGHTTP3_NV_FLAG_NEVER_INDEX ? "true" : "false");
		p += HC3_RECORD_HEADER + lens[0] + lens[1];
	}
	putc(']', out);
}

/* Answers with body (members, each followed by a comma, or nothing) and
   the decoder-stream octets owed. */
static void answer_with_decoder_stream(hc3dec *dec, const char *body, size_t len)
{
	int rv = hc3dec_flush(dec);
	if (rv != 0)
		return answer_error(hc3_reason(rv));
	printf("{%.*s\"decoder_stream\":", (int)len, body);
	put_hex(stdout, dec->decoder.p, dec->decoder.len);
	fputs("}\n", stdout);
}

static void encoder_stream(hc3dec *dec, struct json *req)
{
	const struct json *data = get_hex(req, "data");
	char *body = NULL;
	size_t len = 0;
	FILE *out;
	int rv, first = 1;
	int64_t stream;

	if (!dec)
		return answer_error("encoder_stream before new");
	if (!data)
		return answer_error("encoder_stream needs data, hex");
	rv = hc3dec_read_encoder(dec, (const uint8_t *)data->str, data->len);
	if (rv != 0)
		return answer_refusal(rv);
	out = open_memstream(&body, &len);
	if (!out)
		return answer_error("out of memory");
	fputs("\"unblocked\":[", out);
	while ((rv = hc3dec_resume(dec, &stream)) == HC3_DECODED) {
		fprintf(out, "%s{\"stream\":%lld,", first ? "" : ",", (long long)stream);
		put_fields(out, dec);
		putc('}', out);
		first = 0;
	}
	fputs("],", out);
	fclose(out);
	if (rv != HC3_NONE)
		answer_refusal(rv);
	else
		answer_with_decoder_stream(dec, body, len);
	free(body);
}

static void decode(hc3dec *dec, struct json *req)
{
	const struct json *section = get_hex(req, "section");
	uint64_t stream;
	char *body = NULL;
	size_t len = 0;
	FILE *out;
	int rv;

	if (!dec)
		return answer_error("decode before new");
	if (get_uint(req, "stream", &stream) || !section)
		return answer_error("decode needs stream and section, hex");
	rv = hc3dec_decode(dec, (int64_t)stream, (const uint8_t *)section->str, section->len);
	if (rv == HC3_BLOCKED)
		return answer_with_decoder_stream(dec, "\"blocked\":true,", 15);
	if (rv != HC3_DECODED)
		return answer_refusal(rv);
	out = open_memstream(&body, &len);
	if (!out)
		return answer_error("out of memory");
	put_fields(out, dec);
	putc(',', out);
	fclose(out);
	answer_with_decoder_stream(dec, body, len);
	free(body);
}

static void cancel(hc3dec *dec, const struct json *req)
{
	uint64_t stream;
	int rv;
	if (!dec)
		return answer_error("cancel before new");
	if (get_uint(req, "stream", &stream))
		return answer_error("cancel needs stream");
	rv = hc3dec_cancel(dec, (int64_t)stream);
	if (rv != 0)
		return answer_refusal(rv);
	answer_with_decoder_stream(dec, "", 0);
}

int main(int argc, char **argv)
{
	hc3enc *enc = NULL;
	hc3dec *dec = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int decoder_side;

	if (argc != 2 || (strcmp(argv[1], "--encoder") != 0 && strcmp(argv[1], "--decoder") != 0)) {
		fprintf(stderr, "usage: %s --encoder | --decoder\n", argv[0]);
		return 2;
	}
	decoder_side = strcmp(argv[1], "--decoder") == 0;
	while ((len = getline(&line, &cap, stdin)) > 0) {
		struct parser ps = {line, line + len, NULL};
		struct json req = {0};
		const struct json *op;
		if (parse_value(&ps, &req, 0) != 0 || req.kind != J_OBJ) {
			answer_error(ps.err ? ps.err : "not a JSON object");
		} else if (!(op = member(&req, "op")) || op->kind != J_STR) {
			answer_error("no op");
		} else if (strcmp(op->str, "hello") == 0) {
			printf("{\"name\":\"libnghttp3 %s (C, stdio)\",\"qpack\":true,\"binary\":true}\n",
			       nghttp3_version(0)->version_str);
		} else if (strcmp(op->str, "new") == 0) {
			if (decoder_side)
				decoder_new(&dec, &req);
			else
				encoder_new(&enc, &req);
		} else if (!decoder_side && strcmp(op->str, "encode") == 0) {
			encode(enc, &req);
		} else if (!decoder_side && strcmp(op->str, "decoder_stream") == 0) {
			decoder_stream(enc, &req);
		} else if (decoder_side && strcmp(op->str, "encoder_stream") == 0) {
			encoder_stream(dec, &req);
		} else if (decoder_side && strcmp(op->str, "decode") == 0) {
			decode(dec, &req);
		} else if (decoder_side && strcmp(op->str, "cancel") == 0) {
			cancel(dec, &req);
		} else {
			answer_error("unknown op");
		}
		json_free(&req);
		fflush(stdout);
	}
	free(line);
	if (enc)
		hc3enc_del(enc);
	if (dec)
		hc3dec_del(dec);
	return 0;
}
