package vectors

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// storyParser reads a story token by token, so that header order and
// duplicates survive and every error can say where it happened.
type storyParser struct {
	path string
	data []byte
	dec  *json.Decoder
	// caseIndex is the case being read, or -1.
	caseIndex int
}

func parseStory(path string, data []byte) (*Story, error) {
	p := &storyParser{path: path, data: data, dec: json.NewDecoder(bytes.NewReader(data)), caseIndex: -1}
	p.dec.UseNumber()
	s := new(Story)
	sawCases := false
	err := p.object("story", func(key string) error {
		switch key {
		case "cases":
			sawCases = true
			return p.array("cases", func(i int) error {
				p.caseIndex = i
				c, err := p.readCase()
				if err != nil {
					return err
				}
				s.Cases = append(s.Cases, c)
				p.caseIndex = -1
				return nil
			})
		case "context":
			return p.optional(func() error { return p.str("context", &s.Context) })
		case "description":
			return p.optional(func() error { return p.str("description", &s.Description) })
		default: // "draft" and any other key
			return p.skip()
		}
	})
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, p.errorAt(p.dec.InputOffset(), "data after the story object")
	}
	if !sawCases {
		return nil, p.errorAt(0, `no "cases" list`)
	}
	return s, nil
}

func (p *storyParser) readCase() (Case, error) {
	var c Case
	start := p.valueStart()
	sawSeqno, sawHeaders, sawSensitive, hexHeaders := false, false, false, false
	var sensitive []bool
	err := p.object("case", func(key string) error {
		switch key {
		case "seqno":
			return p.optional(func() error {
				sawSeqno = true
				n, err := p.uint("seqno", 1<<31-1)
				c.Seqno = int(n)
				return err
			})
		case "header_table_size":
			return p.optional(func() error {
				n, err := p.uint("header_table_size", 1<<32-1)
				size := uint32(n)
				c.HeaderTableSize = &size
				return err
			})
		case "table_sizes":
			return p.optional(func() error {
				return p.array("table_sizes", func(int) error {
					n, err := p.uint("table_sizes element", 1<<32-1)
					c.TableSizes = append(c.TableSizes, uint32(n))
					return err
				})
			})
		case "wire":
			return p.optional(func() error {
				start := p.valueStart()
				var s string
				if err := p.str("wire", &s); err != nil {
					return err
				}
				wire, err := hex.DecodeString(s)
				if err != nil {
					return p.errorAt(start, "wire: bad hex: "+err.Error())
				}
				c.Wire = wire
				return nil
			})
		case "headers":
			sawHeaders = true
			c.Headers = []Field{}
			return p.array("headers", func(j int) error {
				h, err := p.header(j)
				c.Headers = append(c.Headers, h)
				return err
			})
		case "hex":
			return p.optional(func() error {
				return p.boolean("hex", &hexHeaders)
			})
		case "sensitive":
			return p.optional(func() error {
				sawSensitive = true
				sensitive = sensitive[:0]
				return p.array("sensitive", func(j int) error {
					var b bool
					err := p.boolean(fmt.Sprintf("sensitive[%d]", j), &b)
					sensitive = append(sensitive, b)
					return err
				})
			})
		default:
			return p.skip()
		}
	})
	if err != nil {
		return c, err
	}
	if !sawHeaders {
		return c, p.errorAt(start, `no "headers" list`)
	}
	if !sawSeqno {
		c.Seqno = p.caseIndex
	}
	if hexHeaders {
		for j := range c.Headers {
			h := &c.Headers[j]
			name, errName := hex.DecodeString(h.Name)
			value, errValue := hex.DecodeString(h.Value)
			if errName != nil || errValue != nil {
				return c, p.errorAt(start, fmt.Sprintf("header %d: with \"hex\": true, names and values are hex: %v", j, errors.Join(errName, errValue)))
			}
			h.Name, h.Value = string(name), string(value)
		}
	}
	if sawSensitive && len(sensitive) != len(c.Headers) {
		return c, p.errorAt(start, fmt.Sprintf("%d sensitive flags for %d headers", len(sensitive), len(c.Headers)))
	}
	for j, s := range sensitive {
		c.Headers[j].Sensitive = s
	}
	if len(c.TableSizes) == 0 {
		c.TableSizes = nil
	} else if c.HeaderTableSize != nil && c.TableSizes[len(c.TableSizes)-1] != *c.HeaderTableSize {
		return c, p.errorAt(start, fmt.Sprintf("header_table_size %d is not the last of table_sizes %v", *c.HeaderTableSize, c.TableSizes))
	}
	return c, nil
}

// header reads one element of "headers": an object with exactly one key,
// whose value is a string.
func (p *storyParser) header(j int) (Field, error) {
	var h Field
	what := fmt.Sprintf("header %d", j)
	start := p.valueStart()
	keys := 0
	err := p.object(what, func(key string) error {
		keys++
		if keys > 1 {
			return p.errorAt(start, fmt.Sprintf("%s: object has more than one key (%q, %q); want one name", what, h.Name, key))
		}
		h.Name = key
		return p.str(fmt.Sprintf("%s (%q) value", what, key), &h.Value)
	})
	if err != nil {
		return h, err
	}
	if keys == 0 {
		return h, p.errorAt(start, what+": object has no key; want one name")
	}
	return h, nil
}

// optional reads the value of an optional member with read, unless the
// value is null, which it consumes: several encoders write null for a field
// they leave unset, and it means the same as leaving the key out.
func (p *storyParser) optional(read func() error) error {
	if !bytes.HasPrefix(p.data[p.valueStart():], []byte("null")) {
		return read()
	}
	_, err := p.token()
	return err
}

// object reads a JSON object, calling member for each key with the decoder
// positioned before the value.
func (p *storyParser) object(what string, member func(key string) error) error {
	if err := p.delim(what, '{', "an object"); err != nil {
		return err
	}
	var seen []string // objects here have a handful of keys
	for p.dec.More() {
		start := p.valueStart()
		tok, err := p.token()
		if err != nil {
			return err
		}
		key := tok.(string) // the decoder only returns strings as keys
		if slices.Contains(seen, key) {
			return p.errorAt(start, fmt.Sprintf("%s: duplicate key %q", what, key))
		}
		seen = append(seen, key)
		if err := member(key); err != nil {
			return err
		}
	}
	_, err := p.token()
	return err
}

// array reads a JSON array, calling element for each index with the
// decoder positioned before the element.
func (p *storyParser) array(what string, element func(i int) error) error {
	if err := p.delim(what, '[', "a list"); err != nil {
		return err
	}
	for i := 0; p.dec.More(); i++ {
		if err := element(i); err != nil {
			return err
		}
	}
	_, err := p.token()
	return err
}

func (p *storyParser) delim(what string, want json.Delim, name string) error {
	start := p.valueStart()
	tok, err := p.token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return p.errorAt(start, fmt.Sprintf("%s: want %s, got %s", what, name, describe(tok)))
	}
	return nil
}

func (p *storyParser) str(what string, dst *string) error {
	start := p.valueStart()
	tok, err := p.token()
	if err != nil {
		return err
	}
	s, ok := tok.(string)
	if !ok {
		return p.errorAt(start, fmt.Sprintf("%s: want a string, got %s", what, describe(tok)))
	}
	*dst = s
	return nil
}

func (p *storyParser) boolean(what string, dst *bool) error {
	start := p.valueStart()
	tok, err := p.token()
	if err != nil {
		return err
	}
	b, ok := tok.(bool)
	if !ok {
		return p.errorAt(start, fmt.Sprintf("%s: want true or false, got %s", what, describe(tok)))
	}
	*dst = b
	return nil
}

// uint reads a whole number from 0 to max.
func (p *storyParser) uint(what string, max uint64) (uint64, error) {
	start := p.valueStart()
	tok, err := p.token()
	if err != nil {
		return 0, err
	}
	num, ok := tok.(json.Number)
	if !ok {
		return 0, p.errorAt(start, fmt.Sprintf("%s: want a number, got %s", what, describe(tok)))
	}
	n, err := strconv.ParseUint(num.String(), 10, 64)
	if err != nil || n > max {
		return 0, p.errorAt(start, fmt.Sprintf("%s: %s is not a whole number from 0 to %d", what, num, max))
	}
	return n, nil
}

// skip reads and discards one value.
func (p *storyParser) skip() error {
	depth := 0
	for {
		tok, err := p.token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// token returns the next token, turning the decoder's errors into
// *StoryError.
func (p *storyParser) token() (json.Token, error) {
	tok, err := p.dec.Token()
	if err == nil {
		return tok, nil
	}
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return nil, p.errorAt(syntax.Offset, "invalid JSON: "+syntax.Error())
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return nil, p.errorAt(int64(len(p.data)), "invalid JSON: unexpected end of file")
	default:
		return nil, p.errorAt(p.dec.InputOffset(), "invalid JSON: "+err.Error())
	}
}

// valueStart returns the offset of the next value: the decoder's offset
// moved past white space and the separators it has not consumed yet.
func (p *storyParser) valueStart() int64 {
	off := p.dec.InputOffset()
	for off < int64(len(p.data)) && strings.IndexByte(" \t\r\n,:", p.data[off]) >= 0 {
		off++
	}
	return off
}

func (p *storyParser) errorAt(offset int64, reason string) error {
	if offset > int64(len(p.data)) {
		offset = int64(len(p.data))
	}
	return &StoryError{
		Path:   p.path,
		Case:   p.caseIndex,
		Offset: offset,
		Line:   1 + bytes.Count(p.data[:offset], []byte("\n")),
		Reason: reason,
	}
}

// describe names a token's JSON type for error messages.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		switch v {
		case '{':
			return "an object"
		case '[':
			return "a list"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return "a string"
	case json.Number:
		return "the number " + v.String()
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}
