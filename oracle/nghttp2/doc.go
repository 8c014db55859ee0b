// Package nghttp2 is the libnghttp2 oracle: an oracle.Decoder over the
// HPACK inflater of the nghttp2 C library (nghttp2_hd_inflater), called
// through cgo. It registers itself as "nghttp2".
//
// The package is empty unless built with -tags nghttp2, which needs cgo and
// libnghttp2's headers and pkg-config file (Debian: libnghttp2-dev).
//
// # What nghttp2 accepts and rejects
//
// nghttp2 rejects everything in RFC 7541 that a decoder can see inside one
// block and its acknowledged settings: index 0 and indices past the table
// (§2.3.3, §6.1), size updates after a field or above the setting (§4.2,
// §6.3), Huffman padding longer than 7 bits or not all ones and EOS in a
// string (§5.2), truncated integers and strings, and integers past 2^32
// (§5.1). When the acknowledged setting goes below the table's maximum, it
// requires the next block to begin with a size update no larger than the
// smallest value acknowledged, even if the setting went back up (§4.2).
// The tests of internal/libnghttp2 pin each of these.
//
// It accepts what the RFC allows but other oracles may grade: any number
// of size updates at the start of a block, an integer with redundant zero
// continuation octets (up to four), and empty names.
//
// It rejects some blocks the RFC allows, because of its own limits: a name
// or value longer than 65,536 bytes (NGHTTP2_HD_MAX_NV), and an integer of
// more than four continuation octets even when its value is small. On top
// of nghttp2, this package refuses a block whose header list, counted as
// RFC 9113 §6.5.2 counts it, exceeds a limit (64 KiB by default, see
// Decoder.SetMaxHeaderListSize), so that an HPACK bomb cannot exhaust
// memory.
//
// After any failure the inflater is unusable, as nghttp2 marks it bad: a
// decoding error in HPACK is a connection error (RFC 7541 §2.3.3, RFC 9113
// §4.3).
//
// # Binding
//
// The cgo code is internal/libnghttp2, the module's one binding of
// libnghttp2, which the certifier's nghttp2 encoder and the benchmarks use
// too; this package registers its Inflater as an oracle. C memory goes
// through a counting allocator; no Go pointer is kept by C (a block is read
// by C only during the call that decodes it). Close frees it; a Decoder
// dropped without Close is freed by a cleanup (runtime.AddCleanup).
// HeapBytes reports what a Decoder holds.
//
// Files: doc.go, built always, so that the package exists without the
// tag; nghttp2.go, built with the tag only: the registration and Decoder,
// Error, New and Version as aliases and wrappers of internal/libnghttp2.
package nghttp2
