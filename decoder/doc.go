// Package decoder is hpackcert's reference HPACK (RFC 7541) decoder: it
// never allocates after construction, and it is as strict as
// oracle/strict (issue 38).
//
// # Use
//
// A Decoder holds the decoding context of one HTTP/2 connection: create it
// with New, giving the SETTINGS_HEADER_TABLE_SIZE the peer acknowledged,
// tell it each later one with SetTableSize, and pass each header block to
// Decode, which calls back for each field:
//
//	dec := decoder.New(decoder.Config{})
//	err := dec.Decode(block, func(name, value []byte, sensitive bool) error {
//		// name and value are valid until this function returns.
//		return nil
//	})
//
// A block that arrives in pieces (HEADERS and CONTINUATION frames) can be
// decoded as it comes: BeginBlock, then DecodeFragment per piece, which
// leaves a field cut by a piece's end for the next. Reset readies a
// decoder for a new connection without allocating. Package hpack offers
// golang.org/x/net/http2/hpack's Decoder API over this one.
//
// # Memory
//
// New allocates the decoder's memory: the dynamic table's arena (1.5
// times Config.TableSize, or Config.Capacity if larger) and ring, and, unless Config.Scratch is given,
// a Scratch: room for one field's decoded name and value, bounded by
// Config.MaxStringLength (a Huffman string is refused as soon as its
// decoding passes the bound, so the room is the bound, not the 8/5 of it
// the wire could reach). With the defaults that is 45 KB per
// connection, 7.9 KB with a Scratch shared by the connections one event
// loop serves (TestScratchMemory). SetMaxStringLength allocates again
// only for a bound above every earlier one. Decode allocates nothing on
// success or error (TestDecodeAllocs, TestDecodeErrorAllocs): the *Error
// it returns is the decoder's own, valid until the next call. The one
// exception, a departure from "all memory in the constructor" made for
// the same reason as the encoder's: after a setting above
// Config.TableSize and Config.Capacity, the table's memory grows when the peer's entries fill
// what New allocated, doubling, so that a connection costs what its peer
// inserted and never what a setting allows (a setting of 2^32-1 and an
// update to it allocate nothing, TestSetTableSizeHuge). Past 1 GiB of
// entries, which no setting below it lets a peer reach, the oldest are
// evicted, so that arena offsets fit in 32 bits.
//
// New's table starts at Config.TableSize with no size update required, as
// RFC 7541 Appendix C.5 does: give New the protocol's 4096 and call
// SetTableSize for a lower setting to hold a peer to the update it then
// owes.
//
// # Files
//
//   - decoder.go: Decoder, New, Reset, Decode, BeginBlock and
//     DecodeFragment: representations (§6), index bounds, size updates only
//     before the first field and within the acknowledged setting,
//     SetTableSize for a new acknowledged setting (the next block must
//     open with an update to at most the smallest setting since the last
//     block when it went below the table's maximum size, RFC 7541 §4.2,
//     RFC 9113 §4.3.1), the string length bound, the header list size
//     limit (RFC 9113 §6.5.2, 32 octets per field) checked before a field
//     is handed out or inserted, and a literal naming a dynamic entry
//     copied before its insertion can evict the entry.
//   - access.go: the limits set after New, Scratch, the table read back
//     (TableLen, TableEntry, TableSize) and AppendHuffman.
//   - huffman.go: a table-driven Huffman decoder (§5.2). In the middle of
//     a string, refilled eight octets at a time, one lookup of the next
//     15 bits gives up to three symbols (128 KiB of entries); at its end
//     a 12-bit table of one symbol and its code's length (8 KiB) takes
//     only codes that end within the bits left. Codes longer than
//     a table's bits are decoded from the code's canonical form. It is
//     strict: EOS in the string, padding longer than 7 bits and padding
//     that is not all ones are errors naming the offset of the octet
//     where they start. Against the 12-bit table alone it takes 0.69 of
//     the time on a long string and 0.80 on a request block
//     (BENCHMARKS.md, "Huffman decoding, tried and kept"). It is plain
//     Go: there is no assembly, so the purego build is this one.
//   - integer.go: integers with an N-bit prefix (§5.1), bounded: a value
//     above 2^32-1 or more than 5 continuation octets is an error naming
//     the octet at fault, so no input makes the decoder loop per octet.
//     Single-octet integers, most of them, are decoded inline.
//   - table.go: the dynamic table (§2.3.2, §4) in one byte arena allocated
//     at construction for the acknowledged setting: eviction advances a
//     tail, an insertion that does not fit moves the live octets to the
//     front (amortized), a size update evicts and is refused above the
//     acknowledged setting, an entry larger than the table empties it.
//     It repeats the shape of encoder/table.go's arena rather than share
//     it: the encoder's entries carry hash chains the decoder has no use
//     for, and a generic table for both was more code than the copy.
//   - errors.go: Error, the offset and the rule an input broke, and the
//     rules as constants.
//
// The decoder is certified by hpackcert itself ("hpackcert decoders
// --decoder builtin:ref --strict"), is oracle "ref" of the fuzz
// differential panel, and is the decoder of the property tests' state
// machine (encoder, decoder, model). The paired benchmarks against x/net
// and libnghttp2 are bench's decode-*, huffman-decode and hop-* rows
// (BENCHMARKS.md, "Decoding").
package decoder
