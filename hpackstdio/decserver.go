package hpackstdio

import (
	"encoding/hex"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Decoder is one HPACK decoding context, as a Server of a decoder program
// drives it. A new Decoder starts with an empty dynamic table, table size
// 4096 and no header-list limit.
type Decoder interface {
	// SetMaxDynamicTableSize records the SETTINGS_HEADER_TABLE_SIZE of
	// the blocks that follow (a decode request's table_size, given when
	// it changed).
	SetMaxDynamicTableSize(n uint32) error
	// SetMaxHeaderListSize records the SETTINGS_MAX_HEADER_LIST_SIZE of
	// the blocks that follow, 0 meaning none (a decode request's
	// max_header_list, given when it changed).
	SetMaxHeaderListSize(n uint32) error
	// DecodeBlock decodes one complete header block into its fields, in
	// order, Sensitive set on each never-indexed one. An error wrapping a
	// *Refusal is the decoder refusing the block; any other error is its
	// breakdown.
	DecodeBlock(block []byte) ([]Field, error)
}

// TableReader is implemented by a Decoder that shows its dynamic table:
// DecoderTable returns the entries after the last block, newest first,
// which the answer to decode carries as its "table".
type TableReader interface {
	DecoderTable() ([]Field, error)
}

// Refusal is a served decoder's refusal of a block, a decoding error:
// Serve answers {"error": Reason}, and the context is dead until the
// next new.
type Refusal struct {
	// Reason is what the decoder said, the text of the error answer.
	Reason string
	// Err is the decoder's own error, when there is one.
	Err error
}

func (r *Refusal) Error() string { return "the decoder refused the block: " + r.Reason }
func (r *Refusal) Unwrap() error { return r.Err }

// decoderContext is the decoding context of a Server's session and the
// settings it was given.
type decoderContext struct {
	dec           Decoder // nil before the first new
	dead          bool    // after a refusal, until the next new
	tableSize     uint32  // the SETTINGS_HEADER_TABLE_SIZE dec was given
	maxHeaderList uint32  // the SETTINGS_MAX_HEADER_LIST_SIZE dec was given
}

// decodeAnswer is the JSON form of an answer to decode: the fields,
// their never-indexed flags, the table when the decoder shows it, and
// "hex":true when the names and values are hex, which they are when any
// of them is not valid UTF-8.
type decodeAnswer struct {
	Headers      [][2]string  `json:"headers"`
	NeverIndexed []bool       `json:"never_indexed"`
	Table        *[][2]string `json:"table,omitempty"`
	Hex          bool         `json:"hex,omitempty"`
}

// decoderAnswer returns the answer line of a decoder program to req. Its
// error is the decoder's breakdown, or an internal one.
func (sess *session) decoderAnswer(req *Request) ([]byte, error) {
	switch req.Op {
	case OpHello:
		sess.helloed = true
		return marshalLine(struct {
			Name    string   `json:"name"`
			Decoder bool     `json:"decoder"`
			Lacks   []string `json:"lacks,omitempty"`
		}{sess.s.Name, true, sess.s.DecoderLacks})
	case OpNew:
		dec, err := newServedDecoder(sess.s.NewDecoder)
		if err != nil {
			return nil, err
		}
		sess.dec = decoderContext{dec: dec, tableSize: InitialTableSize}
		return []byte("{}"), nil
	case OpEncode:
		return errorAnswer(errors.New("this program is a decoder: it answers decode requests, not encode"))
	}
	c := &sess.dec
	switch {
	case c.dead:
		return errorAnswer(errors.New("the context is dead since the decoder refused a block; new opens the next"))
	case c.dec == nil && sess.s.Complete:
		return errorAnswer(errors.New("a decode request before new"))
	case c.dec == nil:
		dec, err := newServedDecoder(sess.s.NewDecoder)
		if err != nil {
			return nil, err
		}
		*c = decoderContext{dec: dec, tableSize: InitialTableSize}
	}
	fields, table, hasTable, err := c.decode(req)
	var refusal *Refusal
	if errors.As(err, &refusal) {
		c.dead = true
		if refusal.Reason != "" {
			// The decoder's words, without the Refusal's preamble.
			err = errors.New(refusal.Reason)
		}
		return errorAnswer(err)
	}
	if err != nil {
		return nil, fmt.Errorf("hpackstdio: the decoder broke down: %w", err)
	}
	return marshalDecoded(fields, table, hasTable)
}

// newServedDecoder calls newDecoder, making a panic or a nil decoder an
// error.
func newServedDecoder(newDecoder func() Decoder) (dec Decoder, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("hpackstdio: the decoder's constructor panicked: %v", r)
		}
	}()
	if dec = newDecoder(); dec == nil {
		return nil, errors.New("hpackstdio: the decoder's constructor returned nil")
	}
	return dec, nil
}

// decode gives the decoder the settings of req where they changed, a
// repeated value being no new acknowledgement, and decodes its block.
// An error of DecodeBlock wrapping a *Refusal is the decoder
// refusing the block; any other error, a setting refused or a panic
// among them, is its breakdown.
func (c *decoderContext) decode(req *Request) (fields, table []Field, hasTable bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the decoder panicked: %v", r)
		}
	}()
	if req.TableSize != c.tableSize {
		if err := c.dec.SetMaxDynamicTableSize(req.TableSize); err != nil {
			return nil, nil, false, fmt.Errorf("table size %d: %w", req.TableSize, err)
		}
		c.tableSize = req.TableSize
	}
	if req.MaxHeaderList != c.maxHeaderList {
		if err := c.dec.SetMaxHeaderListSize(req.MaxHeaderList); err != nil {
			return nil, nil, false, fmt.Errorf("header-list limit %d: %w", req.MaxHeaderList, err)
		}
		c.maxHeaderList = req.MaxHeaderList
	}
	if fields, err = c.dec.DecodeBlock(req.Wire); err != nil {
		return nil, nil, false, err
	}
	if r, ok := c.dec.(TableReader); ok {
		if table, err = r.DecoderTable(); err != nil {
			return nil, nil, false, fmt.Errorf("reading the table: %w", err)
		}
		hasTable = true
	}
	return fields, table, hasTable, nil
}

// marshalDecoded returns the answer to decode for fields and table, in
// hex when any name or value is not valid UTF-8.
func marshalDecoded(fields, table []Field, hasTable bool) ([]byte, error) {
	hexForm := false
	for _, list := range [][]Field{fields, table} {
		for _, f := range list {
			if !utf8.ValidString(f.Name) || !utf8.ValidString(f.Value) {
				hexForm = true
			}
		}
	}
	pairs := func(list []Field) [][2]string {
		out := make([][2]string, len(list))
		for i, f := range list {
			out[i] = [2]string{f.Name, f.Value}
			if hexForm {
				out[i] = [2]string{hex.EncodeToString([]byte(f.Name)), hex.EncodeToString([]byte(f.Value))}
			}
		}
		return out
	}
	a := decodeAnswer{Headers: pairs(fields), NeverIndexed: make([]bool, len(fields)), Hex: hexForm}
	for i, f := range fields {
		a.NeverIndexed[i] = f.Sensitive
	}
	if hasTable {
		t := pairs(table)
		a.Table = &t
	}
	return marshalLine(a)
}
