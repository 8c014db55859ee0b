//go:build nghttp3

/*
 * The C half of EncodeBatch: header lists held in C memory and encoded
 * pass after pass in one call, one libnghttp3 encoder per connection, so
 * that bench charges no cgo crossing to libnghttp3.
 */
#ifndef HPACKCERT_NGHTTP3_ENCODEBATCH_H
#define HPACKCERT_NGHTTP3_ENCODEBATCH_H

#include "encoder.h"

typedef struct hc3batch {
	uint8_t *data;     /* every name and value, one after the other */
	nghttp3_nv *nva;   /* every field, pointing into data */
	size_t *list_len;  /* the fields of each list */
	size_t *conn_len;  /* the lists of each connection */
	size_t nconns;
} hc3batch;

/* hc3batch_new copies the nfields fields (data, lens and flags as
   hc3enc_encode takes them), cut into nlists lists of list_len fields and
   nconns connections of conn_len lists; NULL when out of memory. */
hc3batch *hc3batch_new(const uint8_t *data, size_t datalen, const size_t *lens, const uint8_t *flags, size_t nfields,
                       const size_t *list_len, size_t nlists, const size_t *conn_len, size_t nconns);
void hc3batch_del(hc3batch *b);
/* hc3batch_passes encodes every connection n times over, each on a fresh
   encoder of a 4096-octet table with 100 blocked streams, each section
   that references the table acknowledged right after it is written (a
   Section Acknowledgment read by nghttp3_qpack_encoder_read_decoder). It
   sets *octets to the section and encoder-stream octets of one pass and
   returns 0 or a libnghttp3 error code. */
int hc3batch_passes(hc3batch *b, size_t n, size_t *octets);

#endif
