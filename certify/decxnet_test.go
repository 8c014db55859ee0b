package certify

import (
	"testing"

	"golang.org/x/net/http2/hpack"
)

// xnetDecoder serves x/net's decoder as net/http2 drives it, for the
// tests of the engine (source/inprocess has the one users run).
type xnetDecoder struct {
	d      *hpack.Decoder
	fields []Field
	limit  uint32
	size   uint32
	over   bool
}

func newXNetDecoder() Decoder {
	x := &xnetDecoder{}
	x.d = hpack.NewDecoder(4096, func(f hpack.HeaderField) {
		x.size += f.Size()
		if x.limit > 0 && x.size > x.limit {
			x.over = true
			x.d.SetEmitEnabled(false)
			return
		}
		x.fields = append(x.fields, Field{Name: f.Name, Value: f.Value, Sensitive: f.Sensitive})
	})
	return x
}

func (x *xnetDecoder) SetMaxDynamicTableSize(n uint32) error {
	x.d.SetAllowedMaxDynamicTableSize(n)
	return nil
}
func (x *xnetDecoder) SetMaxHeaderListSize(n uint32) error { x.limit = n; return nil }
func (x *xnetDecoder) DecodeBlock(b []byte) ([]Field, error) {
	x.fields, x.size, x.over = nil, 0, false
	x.d.SetEmitEnabled(true)
	if _, err := x.d.Write(b); err != nil {
		return nil, Reject(err)
	}
	if err := x.d.Close(); err != nil {
		return nil, Reject(err)
	}
	if x.over {
		return nil, &Rejection{Reason: "header list over the limit"}
	}
	return x.fields, nil
}

func TestXNetDecoderGrades(t *testing.T) {
	rep, err := RunDecoders([]DecoderTarget{DecoderFunc("xnet", newXNetDecoder)}, quickDecoderOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cases {
		res := rep.Results["xnet"][c.ID]
		t.Logf("%s: %s: %s", c.ID, res.Grade, res.Detail)
	}
}
