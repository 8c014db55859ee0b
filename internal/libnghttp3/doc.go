// Package libnghttp3 is the module's cgo binding of the nghttp3 C
// library's QPACK (RFC 9204) code:
//
//   - Encoder (encoder.go, encoder.c) wraps nghttp3_qpack_encoder, which
//     the certifier grades as one more QPACK encoder (source/inprocess);
//   - Decoder (decoder.go, decoder.c) wraps nghttp3_qpack_decoder with
//     what an nghttp3_conn keeps around it: the blocked sections and the
//     SETTINGS_QPACK_BLOCKED_STREAMS and SETTINGS_MAX_FIELD_SECTION_SIZE
//     limits, which the library leaves to its caller;
//   - EncodeBatch (encodebatch.go, encodebatch.c) is the loop bench
//     measures the encoder with, run inside C so that no cgo crossing is
//     charged to libnghttp3: header lists encoded pass after pass in one
//     call.
//
// binding.go holds what they share: the errors, whose RFC 9204 names
// codes.c gives. mem.c is the allocator every libnghttp3 object is made
// with. The C files hold no cgo: adapters/nghttp3-qpack, the stdio
// program, compiles encoder.c, decoder.c, codes.c and mem.c too
// (adapter_test.go drives it over pipes).
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
