package hpackstdio

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Request is one request of the protocol, with the names and values of
// an encode request as octets, whichever form carries them.
type Request struct {
	// Op is OpHello, OpNew, OpEncode or OpDecode.
	Op string
	// Binary selects the binary-safe form of an encode request: names and
	// values travel as hex. It may be set only for an encoder that offered
	// the form in its answer to hello.
	Binary bool
	// TableSizes lists the SETTINGS_HEADER_TABLE_SIZE values acknowledged
	// since the previous block, in order (encode only).
	TableSizes []uint32
	// Fields are the fields of the block, in order (encode only).
	Fields []Field
	// Wire is the header block to decode, and TableSize and
	// MaxHeaderList the settings in force for it (decode only; see
	// decodeLine).
	Wire          []byte
	TableSize     uint32
	MaxHeaderList uint32
}

func (r *Request) operation() string { return r.Op }

// encodeLine is the JSON form of an encode request. Its lists are never
// nil, so that every member is written, as an empty list if need be.
type encodeLine struct {
	Op         string      `json:"op"`
	Binary     bool        `json:"binary,omitempty"`
	TableSizes []uint32    `json:"table_sizes"`
	Headers    [][2]string `json:"headers"`
	Sensitive  []bool      `json:"sensitive"`
}

// MarshalJSON returns the request as one line of JSON, without the
// newline: {"op":"hello"} and {"op":"new"} for the first two operations,
// and for encode every member the protocol defines, table_sizes, headers
// and sensitive, even when empty, with "binary":true and hex names and
// values in the binary-safe form. Outside the binary form a name or value
// that is not valid UTF-8 is an error naming the field: JSON could only
// carry it with octets replaced.
func (r Request) MarshalJSON() ([]byte, error) {
	switch r.Op {
	case OpHello, OpNew:
		if r.Binary || len(r.TableSizes) > 0 || len(r.Fields) > 0 || r.Wire != nil || r.TableSize != 0 || r.MaxHeaderList != 0 {
			return nil, fmt.Errorf("hpackstdio: a %s request carries nothing but its op", r.Op)
		}
		return marshalLine(struct {
			Op string `json:"op"`
		}{r.Op})
	case OpDecode:
		return r.marshalDecode()
	case OpEncode:
		if r.Wire != nil || r.TableSize != 0 || r.MaxHeaderList != 0 {
			return nil, errors.New("hpackstdio: an encode request carries no wire, table_size or max_header_list")
		}
	default:
		return nil, fmt.Errorf("hpackstdio: unknown op %q", r.Op)
	}
	headers, sensitive, err := headerPairs(r.Fields, r.Binary)
	if err != nil {
		return nil, err
	}
	return marshalLine(encodeLine{
		Op:         r.Op,
		Binary:     r.Binary,
		TableSizes: append(make([]uint32, 0, len(r.TableSizes)), r.TableSizes...),
		Headers:    headers,
		Sensitive:  sensitive,
	})
}

// headerPairs returns the "headers" and "sensitive" members of an encode
// request carrying fields, names and values in hex when binary is set.
// Outside the binary form a name or value that is not valid UTF-8 is an
// error naming the field.
func headerPairs(fields []Field, binary bool) ([][2]string, []bool, error) {
	headers, sensitive := make([][2]string, len(fields)), make([]bool, len(fields))
	for i, f := range fields {
		sensitive[i] = f.Sensitive
		if binary {
			headers[i] = [2]string{hex.EncodeToString([]byte(f.Name)), hex.EncodeToString([]byte(f.Value))}
			continue
		}
		for _, part := range [...]struct{ what, s string }{{"name", f.Name}, {"value", f.Value}} {
			if at := invalidUTF8(part.s); at >= 0 {
				return nil, nil, fmt.Errorf("hpackstdio: header %d (name %q): the %s is not valid UTF-8 (octet 0x%02x at offset %d), and the encoder did not offer the binary form",
					i, f.Name, part.what, part.s[at], at)
			}
		}
		headers[i] = [2]string{f.Name, f.Value}
	}
	return headers, sensitive, nil
}

// marshalLine encodes v without escaping <, > and &, so that the lines an
// encoder author reads in a log look like the fields they carry.
func marshalLine(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// invalidUTF8 returns the offset of the first octet of s that is not part
// of valid UTF-8, or -1.
func invalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// ParseRequest decodes one request line and checks it: the line is a JSON
// object in UTF-8; op is a known operation; a decode request is as
// parseDecode says; an encode request has headers,
// a list of [name, value] pairs of strings (hex strings when binary is
// true); table_sizes, when present, is a list of integers from 0 to
// 2^32-1; sensitive, when present, is a list of booleans, one per header;
// binary, when present, is a boolean. Every error names the member, and
// the header by its index.
//
// With complete set, ParseRequest also rejects what the certifier never
// sends: a member the protocol does not define for the operation, an
// encode request without table_sizes or sensitive, and "binary":false.
// Whether binary belongs in a request depends on the answer to hello;
// Server checks that.
func ParseRequest(line []byte, complete bool) (*Request, error) {
	members, op, err := readRequest(line)
	if err != nil {
		return nil, err
	}
	req := &Request{Op: op}
	switch op {
	case OpHello, OpNew:
		if complete {
			if err := onlyMembers(members, op, "op"); err != nil {
				return nil, err
			}
		}
		return req, nil
	case OpDecode:
		if err := req.parseDecode(members, complete); err != nil {
			return nil, err
		}
		return req, nil
	case OpEncode:
	default:
		return nil, fmt.Errorf("unknown op %q", op)
	}
	if complete {
		if err := onlyMembers(members, op, "op", "binary", "table_sizes", "headers", "sensitive"); err != nil {
			return nil, err
		}
		for _, name := range []string{"table_sizes", "headers", "sensitive"} {
			if _, ok := members[name]; !ok {
				return nil, fmt.Errorf("the encode request has no %q", name)
			}
		}
	}
	if raw, ok := members["binary"]; ok {
		switch jsonKind(raw) {
		case 't':
			req.Binary = true
		case 'f':
			if complete {
				return nil, errors.New(`"binary" is false: a request in the binary-safe form says "binary":true, any other leaves the member out`)
			}
		default:
			return nil, errors.New(`"binary" is not a boolean`)
		}
	}
	if err := parseHeaders(req, members["headers"]); err != nil {
		return nil, err
	}
	if raw, ok := members["table_sizes"]; ok {
		if req.TableSizes, err = parseTableSizes(raw); err != nil {
			return nil, err
		}
	}
	if raw, ok := members["sensitive"]; ok {
		if err := parseSensitive(req, raw); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// readRequest returns the members of a request line, a JSON object in
// UTF-8, and its op, a string.
func readRequest(line []byte) (map[string]json.RawMessage, string, error) {
	if !utf8.Valid(line) {
		return nil, "", errors.New("the request is not valid UTF-8")
	}
	var members map[string]json.RawMessage
	if jsonKind(line) != '{' || json.Unmarshal(line, &members) != nil {
		return nil, "", errors.New("the request is not a JSON object")
	}
	raw, ok := members["op"]
	if !ok {
		return nil, "", errors.New(`the request has no "op"`)
	}
	op, err := decodeString(raw)
	if err != nil {
		return nil, "", fmt.Errorf(`"op": %v`, err)
	}
	return members, op, nil
}

// onlyMembers returns an error naming the members of a request that are
// not among allowed.
func onlyMembers(members map[string]json.RawMessage, op string, allowed ...string) error {
	var extra []string
	for name := range members {
		if !slices.Contains(allowed, name) {
			extra = append(extra, strconv.Quote(name))
		}
	}
	if len(extra) == 0 {
		return nil
	}
	slices.Sort(extra)
	return fmt.Errorf("the %s request has members the protocol does not define: %s", op, strings.Join(extra, ", "))
}

func parseHeaders(req *Request, raw json.RawMessage) error {
	if raw == nil {
		return errors.New(`the encode request has no "headers" (a block without fields has "headers":[])`)
	}
	list, err := decodeArray(raw)
	if err != nil {
		return fmt.Errorf(`"headers": %v`, err)
	}
	req.Fields = make([]Field, len(list))
	for i, rawPair := range list {
		pair, err := decodeArray(rawPair)
		if err != nil || len(pair) != 2 {
			return fmt.Errorf("headers[%d] is not a [name, value] pair", i)
		}
		var nv [2]string
		for j, what := range [2]string{"name", "value"} {
			s, err := decodeString(pair[j])
			if err != nil {
				return fmt.Errorf("headers[%d]: the %s: %v", i, what, err)
			}
			if req.Binary {
				octets, err := hex.DecodeString(s)
				if err != nil {
					return fmt.Errorf("headers[%d]: the %s is not hex: %v", i, what, err)
				}
				s = string(octets)
			}
			nv[j] = s
		}
		req.Fields[i] = Field{Name: nv[0], Value: nv[1]}
	}
	return nil
}

func parseTableSizes(raw json.RawMessage) ([]uint32, error) {
	list, err := decodeArray(raw)
	if err != nil {
		return nil, fmt.Errorf(`"table_sizes": %v`, err)
	}
	sizes := make([]uint32, len(list))
	for i, rawSize := range list {
		n, err := strconv.ParseUint(string(bytes.TrimSpace(rawSize)), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("table_sizes[%d] is %s, not an integer from 0 to 4294967295", i, shorten(string(rawSize)))
		}
		sizes[i] = uint32(n)
	}
	return sizes, nil
}

func parseSensitive(req *Request, raw json.RawMessage) error {
	list, err := decodeArray(raw)
	if err != nil {
		return fmt.Errorf(`"sensitive": %v`, err)
	}
	if len(list) != len(req.Fields) {
		return fmt.Errorf(`"sensitive" has %d flags for %d headers`, len(list), len(req.Fields))
	}
	for i, flag := range list {
		switch jsonKind(flag) {
		case 't':
			req.Fields[i].Sensitive = true
		case 'f':
		default:
			return fmt.Errorf("sensitive[%d] is %s, not a boolean", i, shorten(string(flag)))
		}
	}
	return nil
}

// jsonKind returns the first octet of a JSON value, which tells its type:
// '{', '[', '"', 't', 'f', 'n', or a digit or '-' for a number.
func jsonKind(raw []byte) byte {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// decodeString decodes a JSON string, refusing null, which encoding/json
// would let through as "".
func decodeString(raw json.RawMessage) (string, error) {
	var s string
	if jsonKind(raw) != '"' || json.Unmarshal(raw, &s) != nil {
		return "", fmt.Errorf("%s is not a string", shorten(string(raw)))
	}
	return s, nil
}

// decodeArray decodes a JSON array into its elements, refusing null.
func decodeArray(raw json.RawMessage) ([]json.RawMessage, error) {
	var list []json.RawMessage
	if jsonKind(raw) != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, fmt.Errorf("%s is not a list", shorten(string(raw)))
	}
	return list, nil
}

// shorten cuts s for an error message.
func shorten(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
