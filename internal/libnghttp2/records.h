//go:build nghttp2

/*
 * Records: how fields cross between Go and C in one flat buffer, so that a
 * block costs one cgo call whatever its number of fields. A record is the
 * name length (4 bytes, little endian), the value length (4 bytes, little
 * endian), the nghttp2_nv flags (1 byte), the name and the value.
 */
#ifndef HPACKCERT_RECORDS_H
#define HPACKCERT_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include <nghttp2/nghttp2.h>

#include "countmem.h"

/* Bytes of a record before its name and value. */
#define RECORD_HEADER 9

/* records is a growable buffer of records, through which decoded fields
   and table entries reach Go. */
typedef struct records {
	uint8_t *data;
	size_t len;
	size_t cap;
} records;

/* records_append appends nv as a record, growing r through heap. It
   returns 0, NGHTTP2_ERR_NOMEM, or NGHTTP2_ERR_INVALID_ARGUMENT for a
   string longer than the 4-byte lengths can say. */
int records_append(records *r, countmem_heap *heap, const nghttp2_nv *nv);

/* records_parse points nva[0:nfields] at the nfields records of in[0:inlen]
   (nghttp2 reads, never writes, the fields it is given, and copies what it
   keeps). It returns 0, or NGHTTP2_ERR_INVALID_ARGUMENT when in holds fewer
   records. */
int records_parse(nghttp2_nv *nva, size_t nfields, const uint8_t *in, size_t inlen);

#endif
