package vectors

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// WriteStory writes s to the file at path in the format ReadStory reads,
// one header per line. Fields that are absent (nil) are left out. It fails
// without writing when a name or value is not valid UTF-8 (JSON strings
// cannot carry it unchanged). A "sensitive" list is written when a header
// is Sensitive.
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
		if slices.ContainsFunc(c.Headers, func(f Field) bool { return f.Sensitive }) {
			b.WriteString(",\n      \"sensitive\": [")
			for j, h := range c.Headers {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.FormatBool(h.Sensitive))
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
