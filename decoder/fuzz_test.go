package decoder

import (
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"
)

// stricterThanXNet lists the rules Decode enforces and x/net's decoder
// does not: it accepts a size update after a field while its dynamic
// table is empty, and integers padded with any number of zero
// continuation groups.
var stricterThanXNet = map[string]bool{RuleSizeUpdatePlace: true, RuleIntegerTooLong: true}

// sizeUpdatesAtStart counts the size updates that open block. x/net's
// decoder refuses a second one while its dynamic table is not empty;
// RFC 7541 §4.2 allows them (oracle/strict warns past two).
func sizeUpdatesAtStart(block []byte) int {
	n := 0
	for i := 0; i < len(block) && block[i]&0xe0 == 0x20; n++ {
		var err error
		if _, i, err = decodeInt(block, i, 5, new(Error)); err != nil {
			break
		}
	}
	return n
}

// FuzzDecode decodes its input as two header blocks on one connection
// (split where its first octet says) with Decode and with x/net's
// decoder. Both must accept or both refuse each block, but for the rules
// of stricterThanXNet, and when they accept, emit the same fields. The
// inputs are far shorter than DefaultMaxStringLength, a bound x/net's
// decoder lacks by default.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("\x04\x82\x86\x84\x41\x0fwww.example.com\xbe"))
	f.Add([]byte("\x00\x20\x3f\xe1\x1f\x40\x03x-a\x01v\xbe"))
	f.Add([]byte("\x03\x10\x01a\x83\xff\xff\xff\x82"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		split := 1 + int(data[0])%len(data)
		ours, theirs := New(Config{}), hpack.NewDecoder(4096, nil)
		for _, block := range [][]byte{data[1:split], data[split:]} {
			got, err := collect(ours, block)
			want, xerr := theirs.DecodeFull(block)
			if e, ok := err.(*Error); ok && xerr == nil && stricterThanXNet[e.Rule] {
				return
			}
			if err == nil && xerr != nil && sizeUpdatesAtStart(block) > 1 {
				return
			}
			if (err == nil) != (xerr == nil) {
				t.Fatalf("block %x: ours %v, x/net %v", block, err, xerr)
			}
			if err != nil {
				return
			}
			wantS := xnetFields(want)
			if strings.Join(got, "|") != strings.Join(wantS, "|") {
				t.Fatalf("block %x: ours %q, x/net %q", block, got, wantS)
			}
		}
	})
}
