package encoder

// Field is one header field for AppendBlock. Its underlying type is that of
// golang.org/x/net/http2/hpack's HeaderField, so a value of one converts to
// the other.
type Field struct {
	Name, Value string
	// Sensitive asks for the field never to be indexed (RFC 7541 §7.1.3):
	// it is sent "Never Indexed" (§6.2.3).
	Sensitive bool
}

// AppendBlock appends the representations of fields, in order, to dst and
// returns the extended buffer: the header block of a whole header list in
// one call, as nghttp2's deflater takes it. Its output is exactly that of
// AppendFieldString called for each field in turn, pending size updates
// first.
//
// A caller who gives dst BlockLen(fields) octets of room past len(dst)
// never makes it allocate; otherwise dst grows as append grows it.
func (e *Encoder) AppendBlock(dst []byte, fields []Field) []byte {
	for i := range fields {
		f := &fields[i]
		dst = e.appendField(dst, f.Name, f.Value, f.Sensitive)
	}
	return dst
}

// BlockLen returns an upper bound on the bytes AppendBlock appends for
// fields: the sum of MaxFieldLen over them. (Size updates precede the first
// field only, so the bound is loose by at most 12 bytes a field.)
func BlockLen(fields []Field) int {
	n := 0
	for i := range fields {
		n += MaxFieldLen(len(fields[i].Name), len(fields[i].Value))
	}
	return n
}
