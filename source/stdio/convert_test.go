package stdio

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/hpackstdio"
)

// TestLackNamesAgree checks that the lacks the protocol defines are the
// ones the certifier knows, each way: every name of hpackstdio's lists
// converts to the certifier's lacks and back to itself, and every lack
// of the certifier has its name in the protocol.
func TestLackNamesAgree(t *testing.T) {
	if !slices.Equal(hpackstdio.EncoderLackNames, certify.LackNames) {
		t.Errorf("hpackstdio.EncoderLackNames %q; certify.LackNames %q", hpackstdio.EncoderLackNames, certify.LackNames)
	}
	for _, name := range hpackstdio.EncoderLackNames {
		l, err := certifyLacks(hpackstdio.Lacks{Names: []string{name}})
		if back := protocolLacks(l); err != nil || !slices.Equal(back.Names, []string{name}) {
			t.Errorf("the encoder lack %q: certify.Lacks %+v, %v, back as %q", name, l, err, back.Names)
		}
	}
	every, err := certifyDecoderLacks(hpackstdio.DecoderLackNames)
	if err != nil || !reflect.DeepEqual(every, certify.DecoderLacks{NeverIndexed: true, MaxHeaderList: true}) {
		t.Errorf("every decoder lack: %+v, %v; want every field of certify.DecoderLacks set", every, err)
	}
	if back := protocolDecoderLacks(every); !slices.Equal(back, hpackstdio.DecoderLackNames) {
		t.Errorf("every decoder lack back as %q; want %q", back, hpackstdio.DecoderLackNames)
	}
	if _, err := certifyDecoderLacks([]string{"never-index"}); err == nil {
		t.Error(`the decoder lack "never-index" (an encoder's) converted`)
	}
}

// TestRangesConvert checks that refused octets keep their ranges both
// ways.
func TestRangesConvert(t *testing.T) {
	p := hpackstdio.Lacks{Names: []string{"empty-block"}, Refuses: []hpackstdio.OctetRange{{Lo: 0, Hi: 31}, {Lo: 255, Hi: 255}}}
	l, err := certifyLacks(p)
	want := certify.Lacks{EmptyBlock: true, Refuses: []certify.OctetRange{{Lo: 0, Hi: 31}, {Lo: 255, Hi: 255}}}
	if err != nil || !reflect.DeepEqual(l, want) {
		t.Errorf("certifyLacks = %+v, %v; want %+v", l, err, want)
	}
	if back := protocolLacks(l); !reflect.DeepEqual(back, p) {
		t.Errorf("protocolLacks = %+v; want %+v", back, p)
	}
}

// TestServedDecoderRefusal checks that a served certify.Decoder's
// rejection reaches the Server as a refusal, its words kept, and any
// other error as itself; and that only a table reader shows its table.
func TestServedDecoderRefusal(t *testing.T) {
	plain := errors.New("broke")
	tests := []struct {
		err     error
		refusal string // "" when the error is no refusal
	}{
		{certify.Reject(errors.New("index 0")), "index 0"},
		{&certify.Rejection{Reason: "too long"}, "too long"},
		{plain, ""},
	}
	for _, tt := range tests {
		d := servedDecoder(failingDecoder{tt.err})
		_, err := d.DecodeBlock([]byte{0x80})
		var r *hpackstdio.Refusal
		switch {
		case tt.refusal != "" && (!errors.As(err, &r) || r.Reason != tt.refusal):
			t.Errorf("%v: DecodeBlock error %#v; want a *hpackstdio.Refusal saying %q", tt.err, err, tt.refusal)
		case tt.refusal == "" && (errors.As(err, &r) || !errors.Is(err, plain)):
			t.Errorf("%v: DecodeBlock error %#v; want the error itself, no refusal", tt.err, err)
		}
		if _, ok := d.(hpackstdio.TableReader); ok {
			t.Errorf("%v: a decoder without a table serves as a TableReader", tt.err)
		}
	}
	if servedDecoder(nil) != nil {
		t.Error("servedDecoder(nil) is not nil: the Server could not say the constructor returned nil")
	}
}

// failingDecoder fails every block with err.
type failingDecoder struct{ err error }

func (failingDecoder) SetMaxDynamicTableSize(uint32) error           { return nil }
func (failingDecoder) SetMaxHeaderListSize(uint32) error             { return nil }
func (d failingDecoder) DecodeBlock([]byte) ([]certify.Field, error) { return nil, d.err }
