/*
 * Stand-in for klib's khash.h, which include/h2o/http2_internal.h includes
 * (for the connection's map of streams) but which Debian's libh2o-dev does
 * not ship. It declares just enough for that header to compile: the
 * adapter uses no hash map, and the one inline function of the header that
 * would look up a stream (h2o_http2_conn_get_stream) is never called, so
 * its lookup aborts.
 */
#ifndef HPACKCERT_KHASH_STANDIN_H
#define HPACKCERT_KHASH_STANDIN_H

#include <stdint.h>
#include <stdlib.h>

typedef uint32_t khint_t;
typedef khint_t khiter_t;

#define khash_t(name) kh_##name##_t

#define KHASH_MAP_INIT_INT64(name, khval_t)                                                                            \
	typedef struct kh_##name##_s {                                                                                 \
		khint_t n_buckets, size, n_occupied, upper_bound;                                                      \
		uint32_t *flags;                                                                                       \
		uint64_t *keys;                                                                                        \
		khval_t *vals;                                                                                         \
	} kh_##name##_t;                                                                                               \
	static inline khint_t kh_get_##name(const kh_##name##_t *h, uint64_t key)                                      \
	{                                                                                                              \
		(void)h;                                                                                               \
		(void)key;                                                                                             \
		abort();                                                                                               \
	}

#define kh_get(name, h, k) kh_get_##name(h, k)
#define kh_end(h) ((h)->n_buckets)
#define kh_val(h, x) ((h)->vals[x])

#endif
