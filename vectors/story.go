package vectors

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Story is one file of the hpack-test-case format: header blocks that share
// one compression context, in order.
type Story struct {
	Path        string `json:"-"` // the file it was read from; not stored
	Context     string // "context": "request" or "response", may be empty
	Description string // "description", may be empty
	Cases       []Case // "cases"
}

// Case is one header block of a Story.
type Case struct {
	// Seqno is "seqno", or the case's index in "cases" when the file has
	// none. It is kept as written: files need not start at 0 nor count up
	// by one.
	Seqno int
	// HeaderTableSize is "header_table_size": the SETTINGS_HEADER_TABLE_SIZE
	// acked just before this case, or nil.
	HeaderTableSize *uint32
	// TableSizes is "table_sizes" (our extension): every
	// SETTINGS_HEADER_TABLE_SIZE acked since the previous case, in order.
	// When both are present, the last of TableSizes equals HeaderTableSize.
	TableSizes []uint32
	// Wire is "wire": the encoded block, or nil (raw-data and our stories
	// have none).
	Wire []byte
	// Headers is "headers": the header list, order and duplicates kept.
	Headers []HeaderField
	// Sensitive is "sensitive" (our extension): nil, or one flag per header
	// telling that the field must never be indexed (RFC 7541 §7.1.3).
	Sensitive []bool
}

// AckedSizes returns the SETTINGS_HEADER_TABLE_SIZE values acked since the
// previous case, in order: TableSizes if set, else HeaderTableSize alone if
// set, else nil.
func (c Case) AckedSizes() []uint32 {
	switch {
	case len(c.TableSizes) > 0:
		return c.TableSizes
	case c.HeaderTableSize != nil:
		return []uint32{*c.HeaderTableSize}
	}
	return nil
}

// StoryError reports a story that cannot be read or written.
type StoryError struct {
	Path   string
	Case   int   // index in "cases", or -1 outside any case
	Offset int64 // byte offset in the file, or -1 when not reading
	Line   int   // line of Offset, counting from 1; 0 when not reading
	Reason string
}

func (e *StoryError) Error() string {
	var b strings.Builder
	b.WriteString("vectors: ")
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, " (offset %d)", e.Offset)
	}
	if e.Case >= 0 {
		fmt.Fprintf(&b, ": case %d", e.Case)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	return b.String()
}

// ReadStory reads the story in the file at path. It takes the forms the
// encoders of hpack-test-case write: keys in any order, keys it does not
// know skipped, null for an optional field read as the field left out, any
// JSON escape in strings ("\/" included). Malformed content yields a
// *StoryError naming the file, the line and byte offset, the case index and
// the reason.
func ReadStory(path string) (*Story, error) {
	return ReadStoryLimit(path, DefaultMaxStoryFileSize)
}

// DefaultMaxStoryFileSize is the largest story file ReadStory and
// ReadStoryDir read: 256 MiB, far above any real story (hpack-test-case's
// largest is under 1 MiB).
const DefaultMaxStoryFileSize = 256 << 20

// ReadStoryLimit is ReadStory for files of at most maxSize octets: a
// larger file is a *StoryError before it is read whole.
func ReadStoryLimit(path string, maxSize int64) (*Story, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := func(size int64) error {
		return &StoryError{Path: path, Case: -1, Offset: -1, Reason: fmt.Sprintf("the file is %d octets or more, over the limit of %d for a story file", size, maxSize)}
	}
	if info, err := f.Stat(); err == nil && info.Size() > maxSize {
		return nil, tooLarge(info.Size())
	}
	// The file may grow while it is read: read one octet past the limit
	// at most.
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxSize {
		return nil, tooLarge(int64(len(data)))
	}
	s, err := parseStory(path, data)
	if err != nil {
		return nil, err
	}
	s.Path = path
	return s, nil
}

// ReadStoryDir reads every *.json file in dir as a story, in the order of
// their names. A directory without any is an error.
func ReadStoryDir(dir string) ([]*Story, error) {
	return ReadStoryDirLimit(dir, DefaultMaxStoryFileSize)
}

// ReadStoryDirLimit is ReadStoryDir for files of at most maxSize octets
// each (ReadStoryLimit).
func ReadStoryDirLimit(dir string, maxSize int64) ([]*Story, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("vectors: no *.json story in %s", dir)
	}
	sort.Strings(paths)
	stories := make([]*Story, 0, len(paths))
	for _, path := range paths {
		s, err := ReadStoryLimit(path, maxSize)
		if err != nil {
			return nil, err
		}
		stories = append(stories, s)
	}
	return stories, nil
}

// WriteStory writes s to the file at path in the format ReadStory reads,
// one header per line. Fields that are absent (nil) are left out. It fails
// without writing when a name or value is not valid UTF-8 (JSON strings
// cannot carry it unchanged) or Sensitive does not match Headers.
func WriteStory(path string, s *Story) error {
	data, err := encodeStory(path, s)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// encodeStory returns the file WriteStory writes.
func encodeStory(path string, s *Story) ([]byte, error) {
	fail := func(i int, format string, args ...any) error {
		return &StoryError{Path: path, Case: i, Offset: -1, Reason: fmt.Sprintf(format, args...)}
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	if s.Context != "" {
		fmt.Fprintf(&b, "  \"context\": %s,\n", quote(s.Context))
	}
	if s.Description != "" {
		fmt.Fprintf(&b, "  \"description\": %s,\n", quote(s.Description))
	}
	b.WriteString("  \"cases\": [")
	for i, c := range s.Cases {
		if c.Sensitive != nil && len(c.Sensitive) != len(c.Headers) {
			return nil, fail(i, "%d sensitive flags for %d headers", len(c.Sensitive), len(c.Headers))
		}
		if c.HeaderTableSize != nil && len(c.TableSizes) > 0 && c.TableSizes[len(c.TableSizes)-1] != *c.HeaderTableSize {
			return nil, fail(i, "header_table_size %d is not the last of table_sizes %v", *c.HeaderTableSize, c.TableSizes)
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    {\n      \"seqno\": %d,\n", c.Seqno)
		if c.HeaderTableSize != nil {
			fmt.Fprintf(&b, "      \"header_table_size\": %d,\n", *c.HeaderTableSize)
		}
		if len(c.TableSizes) > 0 {
			b.WriteString("      \"table_sizes\": [")
			for j, n := range c.TableSizes {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.FormatUint(uint64(n), 10))
			}
			b.WriteString("],\n")
		}
		if c.Wire != nil {
			fmt.Fprintf(&b, "      \"wire\": \"%x\",\n", c.Wire)
		}
		// A case with an octet string that is not valid UTF-8 writes every
		// name and value in hex (our extension "hex": true), since a JSON
		// string cannot carry it.
		hexHeaders := false
		for _, h := range c.Headers {
			hexHeaders = hexHeaders || !utf8.ValidString(h.Name) || !utf8.ValidString(h.Value)
		}
		text := quote
		if hexHeaders {
			b.WriteString("      \"hex\": true,\n")
			text = func(s string) string { return `"` + hex.EncodeToString([]byte(s)) + `"` }
		}
		b.WriteString("      \"headers\": [")
		for j, h := range c.Headers {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, "\n        {%s: %s}", text(h.Name), text(h.Value))
		}
		if len(c.Headers) > 0 {
			b.WriteString("\n      ")
		}
		b.WriteString("]")
		if c.Sensitive != nil {
			b.WriteString(",\n      \"sensitive\": [")
			for j, sensitive := range c.Sensitive {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.FormatBool(sensitive))
			}
			b.WriteString("]")
		}
		b.WriteString("\n    }")
	}
	if len(s.Cases) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes(), nil
}

// quote returns s as a JSON string, leaving <, > and & as they are.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err) // a string always encodes
	}
	return strings.TrimSuffix(b.String(), "\n")
}

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
			c.Headers = []HeaderField{}
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
				c.Sensitive = []bool{}
				return p.array("sensitive", func(j int) error {
					var b bool
					err := p.boolean(fmt.Sprintf("sensitive[%d]", j), &b)
					c.Sensitive = append(c.Sensitive, b)
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
	if sawSensitive && len(c.Sensitive) != len(c.Headers) {
		return c, p.errorAt(start, fmt.Sprintf("%d sensitive flags for %d headers", len(c.Sensitive), len(c.Headers)))
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
func (p *storyParser) header(j int) (HeaderField, error) {
	var h HeaderField
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
