package stdio_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
)

// TestStdioWrongHuffmanCodeCaught is TestWrongHuffmanCodeCaught over
// hpack-stdio/1 in its binary form, which carries every octet: the test
// encoder offers it, so 0xfe and 0xff reach the encoder too.
func TestStdioWrongHuffmanCodeCaught(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	var targets []certify.Target
	for _, x := range certifytest.HuffmanOctetsUnderTest {
		targets = append(targets, execTarget(t, fmt.Sprintf("%s -bug wrong-huffman-code:%#02x", enc, x), 10*time.Second))
	}
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/5.2/4"}
	rep, err := certify.Run(targets, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range certifytest.HuffmanOctetsUnderTest {
		certifytest.CheckHuffmanOctetCaught(t, rep, rep.Encoders[i], x)
	}
}

// TestStdioUTF8OnlyOctets drives encoders that do not offer the binary
// form: the 13 octets UTF-8 never holds cannot be sent, and the octet
// cases say exactly which, graded unsupported rather than pass; a wrong
// code for an octet UTF-8 does carry is still caught.
func TestStdioUTF8OnlyOctets(t *testing.T) {
	enc := filepath.Join(stdioBinaries(t), "stdioenc")
	clean := execTarget(t, enc+" -utf8-only", 10*time.Second)
	wrong := execTarget(t, enc+" -utf8-only -bug wrong-huffman-code:0xc3", 10*time.Second)
	opts := certifytest.Quick()
	opts.Cases = []string{"enc/5.2/3", "enc/5.2/4"}
	rep, err := certify.Run([]certify.Target{clean, wrong}, opts)
	if err != nil {
		t.Fatal(err)
	}
	const untested = "13 octet values not tested"
	for _, id := range opts.Cases {
		res := rep.Results[rep.Encoders[0]][id]
		if res.Grade != certify.Unsupported || !strings.Contains(res.Detail, untested) || !strings.Contains(res.Detail, "0xc0-0xc1, 0xf5-0xff") {
			t.Errorf("utf8-only encoder: %s %s %q; want unsupported naming %q and 0xc0-0xc1, 0xf5-0xff", id, res.Grade, res.Detail, untested)
		}
	}
	certifytest.CheckHuffmanOctetCaught(t, rep, rep.Encoders[1], 0xc3)
}
