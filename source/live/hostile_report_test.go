package live

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/report"
)

// hostileValue holds what a peer must never get onto a reader's terminal
// or page raw: ESC sequences, BEL, C1 controls (CSI U+009B), bidirectional
// overrides and isolates, a line break and markup.
const hostileValue = "\x1b[2J\x1b]0;pwned\a\u009b31m\u202eevil\u202c\u2066x\u2069\r\n<script>|`*"

// hostileEncoder is the reference encoder adding a field with
// hostileValue to every block and giving :status the same value: what a
// hostile server sends, with nothing else wrong.
type hostileEncoder struct{ enc *certify.Reference }

func (h hostileEncoder) SetMaxDynamicTableSize(n uint32) error {
	return h.enc.SetMaxDynamicTableSize(n)
}

func (h hostileEncoder) EncodeBlock(dst []byte, fields []certify.Field) ([]byte, error) {
	out := append([]certify.Field(nil), fields...)
	for i := range out {
		if out[i].Name == ":status" {
			out[i].Value = "200 " + hostileValue
		}
	}
	return h.enc.EncodeBlock(dst, append(out, certify.Field{Name: "x-evil" + hostileValue, Value: hostileValue}))
}

// rawControl returns the first rune of s that a terminal or a page could
// act on: a C0 or C1 control other than the line breaks and tabs allowed,
// a bidirectional control, or an octet that is not UTF-8.
func rawControl(s, allowed string) (string, bool) {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Sprintf("invalid octet %#x at %d", s[i], i), true
			}
		}
		bidi := (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
		if (unicode.IsControl(r) && !strings.ContainsRune(allowed, r)) || bidi {
			return fmt.Sprintf("%U at %d: %q", r, i, s[max(0, i-40):min(len(s), i+40)]), true
		}
	}
	return "", false
}

// TestHostileServerReports captures a server whose header names, values
// and status carry control and bidirectional characters, grades it, and
// writes every report: none holds such a character raw, the JSON and
// JUnit reports still parse, and the failures quote the value escaped.
func TestHostileServerReports(t *testing.T) {
	url := startServer(t, func() certify.Encoder {
		return hostileEncoder{certify.NewReference(encoder.Config{})}
	})
	conns, err := CaptureServer(context.Background(), ServerOptions{URL: url, Script: script(t), Known: true})
	if err != nil {
		t.Fatal(err)
	}
	c := &Capture{Name: "hostile", Role: RoleServer, Where: url, Transport: "h2c", Conns: conns,
		Notes: []string{"GOAWAY from the peer: " + hostileValue}}
	rep, err := gradeCaptures([]*Capture{c}, certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		format, allowed string
	}{
		{"text", "\n"}, {"md", "\n"}, {"html", "\n"}, {"junit", "\n"}, {"json", "\n"},
	} {
		var buf bytes.Buffer
		if err := report.Write(&buf, tt.format, rep); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if bad, ok := rawControl(out, tt.allowed); ok {
			t.Errorf("%s report holds %s", tt.format, bad)
		}
		switch tt.format {
		case "json":
			if !json.Valid(buf.Bytes()) {
				t.Error("the JSON report does not parse")
			}
		case "junit":
			var doc struct{}
			if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Errorf("the JUnit report does not parse: %v", err)
			}
		case "text":
			if !strings.Contains(out, `\x1b[2J`) || !strings.Contains(out, `\u202e`) {
				t.Errorf("the text report does not show the hostile value escaped:\n%s", out)
			}
		}
	}
}
