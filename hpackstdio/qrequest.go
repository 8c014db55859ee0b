package hpackstdio

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// MaxVarint is the largest value a QUIC variable-length integer holds,
// 2^62-1: the bound of a stream id and of a setting.
const MaxVarint = 1<<62 - 1

// QRequest is one request of the QPACK mode, octets as octets whichever
// form carries them.
type QRequest struct {
	// Op is OpHello, OpNew, OpEncode or OpDecoderStream (an encoder's),
	// or OpHello, OpNew, OpEncoderStream, OpDecode or OpCancel (a
	// decoder's).
	Op string
	// Decoder selects the decoder's form of new, which carries
	// max_field_section_size too.
	Decoder bool
	// Settings are the connection's, for new.
	Settings QSettings
	// Stream is the request stream of encode, decode and cancel.
	Stream uint64
	// Fields are the header list of encode, their names and values in
	// hex when Binary is set (for an encoder whose hello offered it).
	Fields []Field
	Binary bool
	// Data are the stream octets of encoder_stream and decoder_stream,
	// and of the field section of decode.
	Data []byte
}

func (r *QRequest) operation() string { return r.Op }

// The JSON forms of the QPACK requests. Every member is always written.
type (
	qNewLine struct {
		Op                  string  `json:"op"`
		MaxTableCapacity    uint64  `json:"max_table_capacity"`
		BlockedStreams      uint64  `json:"blocked_streams"`
		MaxFieldSectionSize *uint64 `json:"max_field_section_size,omitempty"`
	}
	qEncodeLine struct {
		Op        string      `json:"op"`
		Binary    bool        `json:"binary,omitempty"`
		Stream    uint64      `json:"stream"`
		Headers   [][2]string `json:"headers"`
		Sensitive []bool      `json:"sensitive"`
	}
	qStreamLine struct {
		Op   string `json:"op"`
		Data string `json:"data"`
	}
	qDecodeLine struct {
		Op      string `json:"op"`
		Stream  uint64 `json:"stream"`
		Section string `json:"section"`
	}
	qCancelLine struct {
		Op     string `json:"op"`
		Stream uint64 `json:"stream"`
	}
)

// MarshalJSON returns the request as one line of JSON, without the
// newline, with the members of its op (docs/STDIO.md, "QPACK mode").
func (r QRequest) MarshalJSON() ([]byte, error) {
	if r.Stream > MaxVarint {
		return nil, fmt.Errorf("hpackstdio: stream %d is over 2^62-1", r.Stream)
	}
	switch r.Op {
	case OpHello:
		return marshalLine(struct {
			Op string `json:"op"`
		}{r.Op})
	case OpNew:
		line := qNewLine{Op: r.Op, MaxTableCapacity: r.Settings.MaxTableCapacity, BlockedStreams: r.Settings.BlockedStreams}
		if r.Decoder {
			line.MaxFieldSectionSize = &r.Settings.MaxFieldSectionSize
		}
		return marshalLine(line)
	case OpEncode:
		headers, sensitive, err := headerPairs(r.Fields, r.Binary)
		if err != nil {
			return nil, err
		}
		return marshalLine(qEncodeLine{Op: r.Op, Binary: r.Binary, Stream: r.Stream, Headers: headers, Sensitive: sensitive})
	case OpEncoderStream, OpDecoderStream:
		return marshalLine(qStreamLine{Op: r.Op, Data: hex.EncodeToString(r.Data)})
	case OpDecode:
		return marshalLine(qDecodeLine{Op: r.Op, Stream: r.Stream, Section: hex.EncodeToString(r.Data)})
	case OpCancel:
		return marshalLine(qCancelLine{Op: r.Op, Stream: r.Stream})
	}
	return nil, fmt.Errorf("hpackstdio: unknown QPACK op %q", r.Op)
}

// qRequestMembers are the members each QPACK request has, besides op, by
// side (decoder or not) and op.
var qRequestMembers = map[bool]map[string][]string{
	false: {OpHello: nil, OpNew: {"max_table_capacity", "blocked_streams"},
		OpEncode: {"stream", "headers", "sensitive"}, OpDecoderStream: {"data"}},
	true: {OpHello: nil, OpNew: {"max_table_capacity", "blocked_streams", "max_field_section_size"},
		OpEncoderStream: {"data"}, OpDecode: {"stream", "section"}, OpCancel: {"stream"}},
}

// ParseQRequest decodes and checks one QPACK request line for the
// encoder's side, or the decoder's when decoder is set: a JSON object in
// UTF-8 with exactly the members of its op ("binary":true besides, in an
// encode request of the binary form), each of its type; numbers are
// integers from 0 to 2^62-1 and octets lowercase or uppercase hex. Every
// error names the member.
func ParseQRequest(line []byte, decoder bool) (*QRequest, error) {
	members, op, err := readRequest(line)
	if err != nil {
		return nil, err
	}
	want, ok := qRequestMembers[decoder][op]
	if !ok {
		side := "an encoder"
		if decoder {
			side = "a decoder"
		}
		return nil, fmt.Errorf("op %q is no request to %s in the QPACK mode", op, side)
	}
	req := &QRequest{Op: op, Decoder: decoder}
	allowed := append([]string{"op"}, want...)
	if op == OpEncode {
		allowed = append(allowed, "binary")
		if raw, ok := members["binary"]; ok {
			if jsonKind(raw) != 't' {
				return nil, errors.New(`"binary" is not true: a request in the binary-safe form says "binary":true, any other leaves the member out`)
			}
			req.Binary = true
		}
	}
	if err := onlyMembers(members, op, allowed...); err != nil {
		return nil, err
	}
	for _, name := range want {
		if _, ok := members[name]; !ok {
			return nil, fmt.Errorf("the %s request has no %q", op, name)
		}
	}
	for name, to := range map[string]*uint64{"max_table_capacity": &req.Settings.MaxTableCapacity,
		"blocked_streams": &req.Settings.BlockedStreams, "max_field_section_size": &req.Settings.MaxFieldSectionSize, "stream": &req.Stream} {
		if raw, ok := members[name]; ok {
			if *to, err = parseVarint(raw, name); err != nil {
				return nil, err
			}
		}
	}
	for _, name := range []string{"data", "section"} {
		if raw, ok := members[name]; ok {
			if req.Data, err = parseHexMember(raw, name); err != nil {
				return nil, err
			}
		}
	}
	if op == OpEncode {
		// The HPACK parsers of the two members, on a request of the same
		// form.
		hreq := &Request{Binary: req.Binary}
		if err := parseHeaders(hreq, members["headers"]); err != nil {
			return nil, err
		}
		if err := parseSensitive(hreq, members["sensitive"]); err != nil {
			return nil, err
		}
		req.Fields = hreq.Fields
	}
	return req, nil
}

// parseVarint returns the integer raw, the member name, is, or an error
// unless it is one from 0 to 2^62-1.
func parseVarint(raw json.RawMessage, name string) (uint64, error) {
	n, err := strconv.ParseUint(string(bytes.TrimSpace(raw)), 10, 64)
	if err != nil || n > MaxVarint {
		return 0, fmt.Errorf("%q is %s, not an integer from 0 to 2^62-1", name, shorten(string(raw)))
	}
	return n, nil
}

// parseHexMember returns the octets raw, the member name, spells in hex.
func parseHexMember(raw json.RawMessage, name string) ([]byte, error) {
	s, err := decodeString(raw)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", name, err)
	}
	octets, err := decodeHex(s)
	if err != nil {
		return nil, fmt.Errorf("%q is not hex: %v", name, err)
	}
	return octets, nil
}
