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
//   - integer.go: integers with an N-bit prefix (§5.1), bounded: a value
//     above 2^32-1 or more than 5 continuation octets is an error naming
//     the octet at fault, so no input makes the decoder loop per octet.
//   - table.go: the dynamic table (§2.3.2, §4) in one byte arena allocated
//     at construction for the acknowledged setting: eviction advances a
//     tail, an insertion that does not fit moves the live octets to the
//     front (amortized), a size update evicts and is refused above the
//     acknowledged setting, an entry larger than the table empties it.
//   - errors.go: Error, the offset and the rule an input broke, and the
//     rules as constants.
//
// Not done yet: Decoder itself, the
// allocation and escape-analysis tests, the header-list size limit, the
// x/net-compatible API, the certification run and the benchmarks.
package decoder
