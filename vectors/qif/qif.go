// Package qif reads the QPACK Offline Interop formats
// (https://github.com/qpackers/qifs): QIF files, header lists of real
// traffic one field a line, and the output files encoders write for them,
// records of encoder-stream and field-section octets. It also embeds the
// seven QIF files of the qifs repository as test traffic for QPACK
// (RFC 9204), with their licence.
//
// Files: qif.go (File and Parse, the QIF format), interop.go (ReadInterop
// and ParseInteropName, the output format and its file names), traffic.go
// (Traffic and License, the embedded files) and gen_traffic.go (the
// generator of the embedded data).
package qif

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// MaxFileSize bounds what Parse reads, in octets: the largest QIF file of
// the qifs repository is 352,318 octets.
const MaxFileSize = 16 << 20

// MaxLineSize bounds a line of a QIF file, in octets without its newline:
// the longest line of the qifs repository has 1,467.
const MaxLineSize = 64 << 10

// File is one QIF file: its header lists in file order, each with its
// fields in the order of the file, duplicates kept.
type File struct {
	Name        string // as given to Parse, e.g. "fb-req.qif"
	HeaderLists [][]spec.Field
}

// Fields returns the number of fields of all the file's header lists.
func (f *File) Fields() int {
	n := 0
	for _, list := range f.HeaderLists {
		n += len(list)
	}
	return n
}

// ParseError is a QIF file that does not follow the format: the file,
// the line (from 1) and what is wrong there.
type ParseError struct {
	File   string
	Line   int
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("qif: %s:%d: %s", e.File, e.Line, e.Reason)
}

// Parse reads a QIF file from r; name is used in File.Name and errors.
//
// Each line is a field, its name and value separated by the line's first
// TAB (the value may hold further TABs), or a comment starting with '#',
// or blank. A blank line ends a header list; several blank lines in a row
// end one, so no header list is empty, and comments neither end nor start
// one. The last header list needs no blank line after it, nor its last
// line a newline: the end of the file ends it. A field name must not be
// empty; no line may hold a CR, NUL or another control octet but TAB.
// Lines longer than MaxLineSize and files longer than MaxFileSize are
// refused. Every error is a *ParseError naming the line, except a failure
// of r, which is returned wrapped.
func Parse(name string, r io.Reader) (*File, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("qif: %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, &ParseError{name, bytes.Count(data, []byte{'\n'}) + 1, fmt.Sprintf("file longer than %d octets", MaxFileSize)}
	}
	// Names and values are slices of one string: the file holds one copy
	// of its octets however many fields it has.
	text := string(data)
	f := &File{Name: name}
	var list []spec.Field
	for lineNo := 1; len(text) > 0; lineNo++ {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if len(line) > MaxLineSize {
			return nil, &ParseError{name, lineNo, fmt.Sprintf("line of %d octets, longer than %d", len(line), MaxLineSize)}
		}
		if err := checkBytes(line); err != nil {
			return nil, &ParseError{name, lineNo, err.Error()}
		}
		switch {
		case line == "":
			if list != nil {
				f.HeaderLists = append(f.HeaderLists, list)
				list = nil
			}
		case line[0] == '#':
		default:
			tab := strings.IndexByte(line, '\t')
			if tab < 0 {
				return nil, &ParseError{name, lineNo, fmt.Sprintf("no TAB between a name and a value in %q", clip(line))}
			}
			if tab == 0 {
				return nil, &ParseError{name, lineNo, "empty field name"}
			}
			list = append(list, spec.Field{Name: line[:tab], Value: line[tab+1:]})
		}
	}
	if list != nil {
		f.HeaderLists = append(f.HeaderLists, list)
	}
	return f, nil
}

// checkBytes refuses control octets but TAB, which QIF lines cannot carry
// as field octets: a CR is most often a file saved with CRLF line ends.
func checkBytes(line string) error {
	for i := 0; i < len(line); i++ {
		if c := line[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return fmt.Errorf("control octet 0x%02x at column %d", c, i+1)
		}
	}
	return nil
}

// clip shortens a line quoted in an error.
func clip(line string) string {
	const keep = 40
	if len(line) > keep {
		return line[:keep] + "..."
	}
	return line
}
