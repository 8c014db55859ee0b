// Package fuzz holds hpackcert's fuzz targets, written once and run
// unchanged by Go's native fuzzing (go test -fuzz), go-fuzz, and libFuzzer
// through OSS-Fuzz or ClusterFuzzLite (see docs/FUZZING.md).
//
// Each target is a Check function here, taking the fuzzer's input as one
// []byte and returning an error that describes a failure readably:
//
//   - CheckEncodeRoundTrip: a Script (fields, sensitive flags, table-size
//     changes, block boundaries, resets) through the reference encoder;
//     every oracle must decode each block to the script's fields and hold
//     the encoder's dynamic table; the strict oracle must see the size
//     updates §4.2 asks for, in blocks without fields too.
//   - CheckHuffman: octets through the encoder's Huffman coder, directly
//     (AppendHuffman, HuffmanLen) and as a field value, and every oracle's
//     decoder; Huffman in a field only when the mode says, of the length
//     the code lengths give, octet-equal to x/net's code.
//   - CheckInteger: integers written by encoder.AppendInteger with every
//     prefix from 1 to 8, values up to 2^64-1, and by the field API with
//     4-, 5-, 6- and 7-bit prefixes, read back by the wire walker of
//     internal/wire, which the certifier uses too.
//   - CheckDecoderDifferential: a Session of arbitrary blocks and settings
//     fed to every oracle, which must agree with the strict oracle except
//     where oracle.KnownLeniencies says why not.
//   - CheckCertifyXNetEncoder: a Script through the encoder of
//     golang.org/x/net/http2/hpack, judged by the strict oracle.
//
// fuzz_test.go wraps each CheckX as the native target FuzzX, and gofuzz.go
// (build tag gofuzz) as the go-fuzz entry point FuzzGoX. A native target's
// name appears in fuzz_test.go and in no other file under fuzz/: OSS-Fuzz's
// compile_native_go_fuzzer finds the file to rewrite by grepping the
// package directory for the name, and fails when more than one file has it. The oracles
// are those linked into the binary: strict and x/net always, nghttp2 with
// -tags nghttp2.
package fuzz
