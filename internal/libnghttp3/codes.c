//go:build nghttp3

#include "codes.h"
#include "decoder.h"

const char *hc3_rfc_code(int code) {
	switch (code) {
	case NGHTTP3_ERR_QPACK_DECOMPRESSION_FAILED:
	/* libnghttp3 refuses a name or value over its own limit while
	   decoding a section: the section is what it cannot decompress. */
	case NGHTTP3_ERR_QPACK_HEADER_TOO_LARGE:
		return "QPACK_DECOMPRESSION_FAILED";
	case NGHTTP3_ERR_QPACK_ENCODER_STREAM_ERROR:
		return "QPACK_ENCODER_STREAM_ERROR";
	case NGHTTP3_ERR_QPACK_DECODER_STREAM_ERROR:
		return "QPACK_DECODER_STREAM_ERROR";
	case HC3_ERR_FIELD_SECTION_TOO_LARGE:
		return "FIELD_SECTION_TOO_LARGE";
	}
	return NULL;
}

const char *hc3_reason(int code) {
	if (code == HC3_ERR_FIELD_SECTION_TOO_LARGE) {
		return "header list over SETTINGS_MAX_FIELD_SECTION_SIZE";
	}
	return nghttp3_strerror(code);
}
