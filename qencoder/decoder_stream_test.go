package qencoder

import (
	"math/rand/v2"
	"testing"

	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/internal/qspec"
)

// TestReadSectionAck checks DecoderStream's reader of Section
// Acknowledgments against the general one: on every instruction it takes,
// the same stream and length; and it takes every complete one of up to
// 8 continuation octets, non-minimal ones included.
func TestReadSectionAck(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	inputs := [][]byte{
		{0x80}, {0xfe}, {0xff}, {0xff, 0x00}, {0xff, 0x80}, {0xff, 0x80, 0x00},
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},       // 8 continuations
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00}, // 9
		{0x40}, {0x01}, {0x3f, 0xe1, 0x3f},
	}
	for range 3000 {
		stream := rng.Uint64N(1 << rng.UintN(62))
		b := encoder.AppendInteger(nil, 0x80, 7, stream)
		inputs = append(inputs, b, b[:rng.IntN(len(b))+1])
		if rng.IntN(4) == 0 { // a non-minimal length
			b = append(b[:len(b)-1], b[len(b)-1]|0x80, 0x00)
			inputs = append(inputs, b)
		}
	}
	for _, b := range inputs {
		stream, next, ok := readSectionAck(b, 0)
		in, wantNext, err := qspec.ReadDecoderInstruction(b, 0)
		takes := err == nil && in.Kind == qspec.SectionAck && wantNext <= 1+8
		switch {
		case ok && !takes:
			t.Errorf("%x: read as the acknowledgment of stream %d; the general reader: %v, %v", b, stream, in, err)
		case ok && (stream != in.Value || next != wantNext):
			t.Errorf("%x: stream %d, %d octets; want %d, %d", b, stream, next, in.Value, wantNext)
		case !ok && takes:
			t.Errorf("%x: not read; want the acknowledgment of stream %d", b, in.Value)
		}
	}
}
