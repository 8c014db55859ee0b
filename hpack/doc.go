// Package hpack offers the Encoder and Decoder APIs of
// golang.org/x/net/http2/hpack over the reference encoder of package
// encoder and the reference decoder of package decoder, so that a program
// written against x/net's hpack switches to them by changing one import:
//
//	enc := hpack.NewEncoder(&buf)
//	enc.SetMaxDynamicTableSizeLimit(peerLimit)
//	err := enc.WriteField(hpack.HeaderField{Name: ":method", Value: "GET"})
//
//	dec := hpack.NewDecoder(4096, nil)
//	fields, err := dec.DecodeFull(block)
//
// # Encoder
//
// NewEncoder, WriteField, SetMaxDynamicTableSize, SetMaxDynamicTableSizeLimit
// and MaxDynamicTableSize have x/net's signatures and semantics: each
// WriteField makes exactly one Write of the field's representation,
// preceded by any pending "Dynamic Table Size Update" (RFC 7541 §6.3); the
// table size is capped by the limit, 4096 until SetMaxDynamicTableSizeLimit
// changes it; a limit below the current size shrinks the table and is
// signalled before the next field; a field whose entry (name, value and
// 32 bytes, §4.1) is larger than the table is sent "without Indexing" and
// leaves the table as it was, as x/net's shouldIndex does. A decoder of
// either encoder's output gets the same header fields. WriteField allocates nothing once its
// buffer has grown to the largest field (and the io.Writer allocates
// nothing: a bytes.Buffer with room, say).
//
// The bytes differ from x/net's, not the decoded fields:
//
//   - Indexing policy: fields are indexed as encoder.DefaultPolicy says
//     (never-index credentials and short cookies, do not index the fields
//     whose values rarely repeat nor entries over 3/4 of the table), where
//     x/net indexes every field that fits. NewEncoderPolicy takes another
//     policy; encoder.IndexAllPolicy() is x/net's rule.
//   - Size updates: a size set again to the value the decoder already
//     has is not signalled again; x/net signals every call of
//     SetMaxDynamicTableSize. Both signal at most two updates, the
//     smallest size then the final one (§4.2).
//   - Memory: the encoder holds memory for the largest table size it has
//     had (3 bytes per byte of table, see package encoder), allocated when
//     SetMaxDynamicTableSize raises the size; x/net allocates as entries
//     arrive. Sizes above 1 GiB are taken as 1 GiB.
//
// # Decoder
//
// NewDecoder, Write, Close, DecodeFull, SetEmitFunc, SetEmitEnabled,
// EmitEnabled, SetMaxStringLength, SetMaxDynamicTableSize and
// SetAllowedMaxDynamicTableSize have x/net's signatures and semantics, and
// the errors are x/net's kinds, declared here: DecodingError (wrapping an
// InvalidIndexError for an index naming no entry), ErrStringLength and
// ErrInvalidHuffman. Fields are emitted as strings the caller may keep,
// before Write returns; a block may come in pieces, as net/http2 gives it
// (Write per HEADERS or CONTINUATION fragment, a field cut by a fragment's
// end kept for the next, Close at END_HEADERS); the emit function may turn
// emitting off to drop the rest of a block over a header list limit.
//
// It allocates fewer strings than x/net: a field referencing the static
// or the dynamic table takes the table's strings (as x/net), a field
// inserted into the table takes one string for its name and value (x/net
// one each), and the other literals of up to 64 fields share one string
// (x/net one each); DecodeFull allocates its slice once for a block of
// up to 64 fields (x/net grows it field by field).
// TestDecoderAllocs measures both.
//
// It is stricter than x/net, as package decoder is (RFC 7541 and RFC 9113
// to the letter), so some blocks x/net accepts are errors here, each a
// DecodingError wrapping a *decoder.Error that names the rule and offset
// unless said otherwise:
//
//   - Size updates: SetAllowedMaxDynamicTableSize below the table's
//     maximum size requires the next block to begin with a size update to
//     at most the smallest value allowed since the last block (RFC 9113
//     §4.3.1); x/net requires none. An update after a field is refused
//     even while the table is empty, and several updates may open a block
//     (§4.2); x/net accepts the first and refuses the second when the
//     table holds entries.
//   - Integers (§5.1): a value above 2^32-1 or an integer of more than 5
//     continuation octets is refused; x/net reads up to 9, then refuses an
//     index as an InvalidIndexError, a size as too large and a string
//     length as ErrStringLength or as more to come.
//   - Huffman strings (§5.2) are decoded, and checked, even while
//     emitting is off, and their decoded length is checked against the
//     maximum string length; x/net skips the literals it would not emit
//     (ErrInvalidHuffman and ErrStringLength are then ours alone). Like
//     x/net's, the decoding of a string stops once it passes the limit,
//     with ErrStringLength, whatever the rest of the string holds.
//
// And it differs in use:
//
//   - SetMaxDynamicTableSize is capped by the allowed maximum size (x/net
//     lets the table grow past it) and is meant for between blocks; when
//     the allowed size was lowered since the last block, it counts as the
//     size update the peer owes.
//   - A nil emit function discards the fields (x/net's Write panics); a
//     negative SetMaxStringLength means no limit (x/net's refuses every
//     field).
//   - Memory: the table's memory is allocated for the size NewDecoder is
//     given, and grows only as entries need it, and room to decode the
//     longest string met: 10 KB in 8 allocations for NewDecoder(4096, f),
//     where x/net's takes 160 bytes and allocates as entries and strings
//     arrive.
//   - Fields are emitted after the decoder has read up to 64 of them: a
//     setting the emit function changes, other than emitting, applies
//     from the next 64 (x/net: from the next field).
//   - After an error the Decoder's state is unspecified: the connection
//     must be closed (RFC 9113 §4.3), as net/http2 does.
//
// Files: doc.go (this), field.go (HeaderField), encoder.go (Encoder),
// decoder.go (Decoder and its methods), scan.go (where a piece's fields
// end and how each touches the table), emit.go (fields given their strings
// and emitted), strtable.go (the dynamic table's strings), errors.go (the
// error kinds, and package decoder's rules mapped to them).
package hpack
