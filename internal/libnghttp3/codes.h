//go:build nghttp3

/*
 * The RFC names of the connection errors libnghttp3's error codes stand
 * for, in one place for the Go binding and the stdio adapter.
 */
#ifndef HPACKCERT_NGHTTP3_CODES_H
#define HPACKCERT_NGHTTP3_CODES_H

/* hc3_rfc_code returns the RFC 9204 §6 name of the connection error code
   (a libnghttp3 error code or HC3_ERR_FIELD_SECTION_TOO_LARGE) stands for,
   FIELD_SECTION_TOO_LARGE for the latter, or NULL for a failure that is
   no connection error: memory exhausted, libnghttp3 unusable after an
   earlier error. */
const char *hc3_rfc_code(int code);
/* hc3_reason returns what went wrong, for people. */
const char *hc3_reason(int code);

#endif
