//go:build nghttp3

package libnghttp3

import (
	"bytes"
	"testing"

	"github.com/hpackcert/hpackcert/oracle/qstrict"
)

// FuzzDecoder hands libnghttp3's decoder arbitrary encoder-stream octets
// and a section, decoded on two streams with a cancellation between, and
// the same to the strict decoder: no input may crash the C code, and a
// section both decode must give both the same header list.
func FuzzDecoder(f *testing.F) {
	f.Add(append(append([]byte(nil), setCapacity4096...), insertAB...), blockedSection)
	f.Add([]byte(nil), staticSection(17, 1, 98))
	f.Add(setCapacity4096, []byte{0x02, 0x81, 0x10})
	f.Add([]byte{0x3f, 0xe1, 0x1f, 0x00, 0x00}, []byte{0x00, 0x00, 0x51, 0x8a, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, es, section []byte) {
		dec, err := NewDecoder(4096, 2, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		defer dec.Close()
		strict := qstrict.New(qstrict.Settings{MaxTableCapacity: 4096, BlockedStreams: 2, MaxFieldSectionSize: 1 << 16})
		_, err = dec.ReadEncoder(es)
		strictErr := strict.EncoderStream(es)
		if err != nil || strictErr != nil {
			return
		}
		for _, stream := range []uint64{0, 4} {
			got, err := dec.Decode(stream, section)
			want, status, strictErr := strict.DecodeSection(stream, section)
			if err != nil || strictErr != nil {
				return
			}
			if !got.Blocked && status == qstrict.Decoded && !equalFields(got.Fields, want) {
				t.Fatalf("stream %d: libnghttp3 decoded %v; the strict decoder %v", stream, got.Fields, want)
			}
			if err := dec.Cancel(stream); err != nil {
				t.Fatal(err)
			}
			if _, err := dec.DecoderStream(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzEncoder encodes header lists cut out of arbitrary octets with
// libnghttp3's encoder, three sections on one connection, and decodes
// them with the strict decoder, whose decoder stream goes back: every
// list must come back as it went in.
func FuzzEncoder(f *testing.F) {
	f.Add([]byte("x-a\x00b\x00:path\x00/index.html\x00cookie\x00a=b"), uint8(0x0f))
	f.Add([]byte("\xff\xc0\x00\x00\x00\x00authorization\x00secret"), uint8(0xff))
	f.Fuzz(func(t *testing.T, data []byte, sensitive uint8) {
		var list []Field
		for parts := bytes.Split(data, []byte{0}); len(parts) >= 2; parts = parts[2:] {
			list = append(list, Field{Name: string(parts[0]), Value: string(parts[1]), Sensitive: sensitive>>(len(list)%8)&1 != 0})
		}
		enc, err := NewEncoder(MaxTableCapacity, 100)
		if err != nil {
			t.Fatal(err)
		}
		defer enc.Close()
		dec := qstrict.New(qstrict.Settings{MaxTableCapacity: MaxTableCapacity, BlockedStreams: 100})
		for stream := uint64(0); stream < 12; stream += 4 {
			section, es, err := enc.Encode(stream, list)
			if err != nil {
				t.Fatal(err)
			}
			if err := dec.EncoderStream(es); err != nil {
				t.Fatalf("encoder stream %x: %v", es, err)
			}
			got, status, err := dec.DecodeSection(stream, section)
			if err != nil || status != qstrict.Decoded || !equalFields(got, list) {
				t.Fatalf("section %x: got %v (status %d, %v); want %v", section, got, status, err, list)
			}
			if err := enc.ReadDecoder(dec.DecoderStreamOut()); err != nil {
				t.Fatal(err)
			}
		}
	})
}
