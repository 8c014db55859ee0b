package inprocess

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/decoder"
)

// TestRefDecoderErrors checks that the reference decoder's rejections
// name the offset and the rule the block broke, in their text and as an
// *decoder.Error of their own that a later call does not overwrite.
func TestRefDecoderErrors(t *testing.T) {
	tests := []struct {
		label  string
		block  []byte
		offset int
		rule   string
	}{
		{"index 0 after a field", []byte{0x82, 0x80}, 1, decoder.RuleIndexZero},
		{"index 62 with an empty table", []byte{0x80 | 62}, 0, decoder.RuleIndexRange},
		{"size update after a field", []byte{0x82, 0x21}, 1, decoder.RuleSizeUpdatePlace},
		{"string past the end", []byte{0x00, 0x05, 'a'}, 1, decoder.RuleStringTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			d := NewRefDecoder()
			_, err := d.DecodeBlock(tt.block)
			if !certify.Rejected(err) {
				t.Fatalf("DecodeBlock(% x): %v; want a rejection", tt.block, err)
			}
			want := fmt.Sprintf("offset %d: %s", tt.offset, tt.rule)
			if !strings.Contains(err.Error(), want) {
				t.Errorf("DecodeBlock(% x): %q; want it to say %q", tt.block, err, want)
			}
			// A fresh decoding by the same decoder.Decoder sets its own
			// Error; the rejection must keep this block's.
			if err := d.d.Decode([]byte{0x80}, func(_, _ []byte, _ bool) error { return nil }); err == nil {
				t.Fatal("index 0 decoded")
			}
			var e *decoder.Error
			if !errors.As(err, &e) || e.Offset != tt.offset || e.Rule != tt.rule {
				t.Errorf("the rejection's *decoder.Error after another call: %+v; want offset %d, %q", e, tt.offset, tt.rule)
			}
		})
	}
}
