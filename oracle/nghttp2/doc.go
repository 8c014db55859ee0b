// Package nghttp2 is the libnghttp2 oracle: an oracle.Decoder over the
// HPACK inflater of the nghttp2 C library (nghttp2_hd_inflater), called
// through cgo. It registers itself as "nghttp2".
//
// The package is empty unless built with -tags nghttp2, which needs cgo and
// libnghttp2's headers and pkg-config file (Debian: libnghttp2-dev).
package nghttp2
