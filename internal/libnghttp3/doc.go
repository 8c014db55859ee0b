// Package libnghttp3 is the module's cgo binding of the nghttp3 C
// library's QPACK (RFC 9204) code:
//
//   - Encoder (encoder.go, encoder.c) wraps nghttp3_qpack_encoder, which
//     the certifier grades as one more QPACK encoder (source/inprocess);
//   - Decoder (decoder.go, decoder.c) wraps nghttp3_qpack_decoder with
//     what an nghttp3_conn keeps around it: the blocked sections and the
//     SETTINGS_QPACK_BLOCKED_STREAMS and SETTINGS_MAX_FIELD_SECTION_SIZE
//     limits, which the library leaves to its caller.
//
// binding.go holds what both share: the errors and their RFC 9204 codes.
// mem.c is the allocator every libnghttp3 object is made with. The C
// files hold no cgo: adapters/nghttp3-qpack, the stdio program, compiles
// them too.
//
// The package is empty unless built with -tags nghttp3, which needs cgo
// and libnghttp3's headers and pkg-config file (Debian: libnghttp3-dev).
//
// # Memory
//
// libnghttp3 keeps copies of what it stores: no Go pointer is kept by C,
// and fields and octets are read by C only during the call that takes
// them. Close frees an Encoder or a Decoder; one dropped without Close is
// freed by a cleanup (runtime.AddCleanup).
package libnghttp3
