/*
 * The JSON side of hpack-stdio for the C adapters: a reader that knows just
 * what hpack-stdio requests hold (objects, lists, strings, numbers,
 * booleans), and the few writers an answer needs. No HPACK logic.
 *
 * Header-only (every function static), so that each adapter is one gcc
 * command: #include "../c-common/hpackstdio-json.h". The reader is the one
 * nghttp2-c/adapter.c was written with.
 */
#ifndef HPACKSTDIO_JSON_H
#define HPACKSTDIO_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct json {
	enum kind kind;
	int boolean;
	double num;
	char *str; /* J_STR: octets; J_OBJ: key of each member */
	size_t len;
	struct json *items; /* J_ARR, J_OBJ */
	size_t n;
	struct json *keys; /* J_OBJ: keys, parallel to items */
};

struct parser {
	const char *p, *end;
	const char *err;
};

static void json_free(struct json *v)
{
	size_t i;
	for (i = 0; i < v->n; i++) {
		json_free(&v->items[i]);
		if (v->keys)
			json_free(&v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof *v);
}

static void skip_space(struct parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\r' || *ps->p == '\n'))
		ps->p++;
}

static void put_utf8(char *out, size_t *len, unsigned cp)
{
	if (cp < 0x80) {
		out[(*len)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*len)++] = (char)(0xc0 | cp >> 6);
		out[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out[(*len)++] = (char)(0xe0 | cp >> 12);
		out[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*len)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*len)++] = (char)(0xf0 | cp >> 18);
		out[(*len)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[(*len)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*len)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;
	for (i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static int parse_string(struct parser *ps, struct json *v)
{
	/* Every escape decodes to no more octets than it takes in the input. */
	char *out = malloc((size_t)(ps->end - ps->p) + 1);
	size_t len = 0;
	if (!out)
		return ps->err = "out of memory", -1;
	ps->p++; /* the opening quote */
	while (ps->p < ps->end && *ps->p != '"') {
		char c = *ps->p++;
		unsigned cp, lo;
		if (c != '\\') {
			out[len++] = c;
			continue;
		}
		if (ps->p >= ps->end)
			break;
		c = *ps->p++;
		switch (c) {
		case 'b': out[len++] = '\b'; break;
		case 'f': out[len++] = '\f'; break;
		case 'n': out[len++] = '\n'; break;
		case 'r': out[len++] = '\r'; break;
		case 't': out[len++] = '\t'; break;
		case 'u':
			if (ps->end - ps->p < 4 || hex4(ps->p, &cp) != 0)
				goto bad;
			ps->p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u' &&
			    hex4(ps->p + 2, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				ps->p += 6;
			}
			put_utf8(out, &len, cp);
			break;
		default: out[len++] = c;
		}
	}
	if (ps->p >= ps->end)
		goto bad;
	ps->p++; /* the closing quote */
	out[len] = 0;
	v->kind = J_STR;
	v->str = out;
	v->len = len;
	return 0;
bad:
	free(out);
	ps->err = "bad JSON string";
	return -1;
}

static int parse_value(struct parser *ps, struct json *v, int depth);

static int parse_list(struct parser *ps, struct json *v, int depth, char close, int object)
{
	size_t cap = 0;
	ps->p++;
	v->kind = object ? J_OBJ : J_ARR;
	skip_space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			struct json *items, *keys;
			cap = cap ? 2 * cap : 4;
			items = realloc(v->items, cap * sizeof *items);
			if (!items)
				return ps->err = "out of memory", -1;
			v->items = items;
			if (object) {
				keys = realloc(v->keys, cap * sizeof *keys);
				if (!keys)
					return ps->err = "out of memory", -1;
				v->keys = keys;
			}
		}
		memset(&v->items[v->n], 0, sizeof v->items[v->n]);
		if (object) {
			memset(&v->keys[v->n], 0, sizeof v->keys[v->n]);
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p != '"' || parse_string(ps, &v->keys[v->n]) != 0)
				return ps->err = "bad JSON object key", -1;
			skip_space(ps);
			if (ps->p >= ps->end || *ps->p++ != ':')
				return ps->err = "bad JSON object", -1;
		}
		v->n++;
		if (parse_value(ps, &v->items[v->n - 1], depth + 1) != 0)
			return -1;
		skip_space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return ps->err = "bad JSON list", -1;
	}
}

static int parse_value(struct parser *ps, struct json *v, int depth)
{
	skip_space(ps);
	if (ps->p >= ps->end || depth > 16)
		return ps->err = "bad JSON", -1;
	switch (*ps->p) {
	case '"': return parse_string(ps, v);
	case '[': return parse_list(ps, v, depth, ']', 0);
	case '{': return parse_list(ps, v, depth, '}', 1);
	}
	if (ps->end - ps->p >= 4 && memcmp(ps->p, "true", 4) == 0) {
		v->kind = J_BOOL, v->boolean = 1, ps->p += 4;
		return 0;
	}
	if (ps->end - ps->p >= 5 && memcmp(ps->p, "false", 5) == 0) {
		v->kind = J_BOOL, ps->p += 5;
		return 0;
	}
	if (ps->end - ps->p >= 4 && memcmp(ps->p, "null", 4) == 0) {
		v->kind = J_NULL, ps->p += 4;
		return 0;
	}
	{
		char *stop;
		v->num = strtod(ps->p, &stop);
		if (stop == ps->p || stop > ps->end)
			return ps->err = "bad JSON value", -1;
		v->kind = J_NUM;
		ps->p = stop;
	}
	return 0;
}

static const struct json *member(const struct json *obj, const char *key)
{
	size_t i;
	for (i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i].str, key) == 0)
			return &obj->items[i];
	return NULL;
}

static void print_quoted(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void answer_error(const char *text)
{
	fputs("{\"error\":", stdout);
	print_quoted(text);
	fputs("}\n", stdout);
}

/* Turns a name or value into octets in place: hex in the binary form. */
static int octets(struct json *s, int binary)
{
	size_t i;
	if (s->kind != J_STR)
		return -1;
	if (!binary)
		return 0;
	if (s->len % 2)
		return -1;
	for (i = 0; i < s->len / 2; i++) {
		unsigned hi, lo;
		char h = s->str[2 * i], l = s->str[2 * i + 1];
		hi = (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
		lo = (unsigned)(l <= '9' ? l - '0' : (l | 0x20) - 'a' + 10);
		if (hi > 15 || lo > 15)
			return -1;
		s->str[i] = (char)(hi << 4 | lo);
	}
	s->len /= 2;
	return 0;
}

#endif
