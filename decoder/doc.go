// Package decoder is the start of hpackcert's reference HPACK (RFC 7541)
// decoder (issue 38): one meant never to allocate after construction and
// to be as strict as oracle/strict.
//
// It is unfinished. What is here:
//
//   - huffman.go: a table-driven Huffman decoder (§5.2). A flat table
//     indexed by the next 12 bits gives the symbols whose codes end within
//     them (up to two) and the bits they take; codes longer than 12 bits
//     are decoded from the code's canonical form. It is strict: EOS in the
//     string, padding longer than 7 bits and padding that is not all ones
//     are errors naming the offset of the octet where they start.
//   - errors.go: Error, the offset and the rule an input broke, and the
//     rules as constants.
//
// Not done yet: integers, the dynamic table, Decoder itself, the
// allocation and escape-analysis tests, the header-list size limit, the
// x/net-compatible API, the certification run and the benchmarks.
package decoder
