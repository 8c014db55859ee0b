package qstrict

import (
	"encoding/hex"
	"errors"
	"testing"
)

// FuzzDecoder feeds arbitrary encoder-stream octets and a field section:
// the decoder must not panic, and every error is an *Error or ErrBroken.
// The first octet of the input splits the rest into the two.
func FuzzDecoder(f *testing.F) {
	stream, _ := hex.DecodeString(b2EncoderStream)
	section, _ := hex.DecodeString("03811011")
	f.Add(append([]byte{byte(len(stream))}, append(stream, section...)...))
	f.Add([]byte{0, 0, 0, 0x51, 0x01, 'a'})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		split := min(int(data[0]), len(data)-1)
		d := New(Settings{MaxTableCapacity: 220, BlockedStreams: 1, MaxFieldSectionSize: 1 << 12})
		check := func(err error) {
			var e *Error
			if err != nil && !errors.As(err, &e) && !errors.Is(err, ErrBroken) {
				t.Fatalf("error %v is neither an *Error nor ErrBroken", err)
			}
		}
		_, _, err := d.DecodeSection(0, data[1+split:])
		check(err)
		check(d.EncoderStream(data[1 : 1+split]))
		_, _, err = d.DecodeSection(4, data[1+split:])
		check(err)
		d.DecoderStreamOut()
	})
}
