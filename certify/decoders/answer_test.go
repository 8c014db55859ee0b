package decoders

import (
	"errors"
	"testing"

	"github.com/hpackcert/hpackcert/certify/transcript"
)

// saysDecoder accepts a block of one octet 0x82 as ":method: GET",
// refuses every other, says what it did (LastAnswer) and shows a table
// of one entry, counting how often it is read.
type saysDecoder struct {
	said       string
	tableReads int
}

func (d *saysDecoder) SetMaxDynamicTableSize(uint32) error { return nil }
func (d *saysDecoder) SetMaxHeaderListSize(uint32) error   { return nil }
func (d *saysDecoder) DecodeBlock(b []byte) ([]Field, error) {
	if len(b) == 1 && b[0] == 0x82 {
		d.said = "200"
		return []Field{{Name: ":method", Value: "GET"}}, nil
	}
	d.said = "reset the stream"
	return nil, Reject(errors.New("not 0x82"))
}
func (d *saysDecoder) LastAnswer() string { return d.said }
func (d *saysDecoder) DecoderTable() ([]Field, error) {
	d.tableReads++
	return []Field{{Name: "x", Value: "y"}}, nil
}

// TestAnswer records a decoder's answer as the decoder side's
// transcript: the fields and its words for a block it accepts, with its
// table once readTable asks for it; the refusal and its words for one it
// refuses, whose table is not read.
func TestAnswer(t *testing.T) {
	d := &saysDecoder{}
	a := answer(d, transcript.DecoderBlock{TableSize: 4096, Wire: []byte{0x82}})
	if a.TableShown || d.tableReads != 0 {
		t.Errorf("accepted block: the table read with the answer (%d reads); want it read by readTable only", d.tableReads)
	}
	readTable(d, &a)
	if a.Err != nil || len(a.Fields) != 1 || a.Fields[0].Value != "GET" || a.Said != "200" || !a.TableShown || len(a.Table) != 1 {
		t.Errorf("accepted block: %+v; want :method GET, said 200, a table of 1 entry", a)
	}
	a = answer(d, transcript.DecoderBlock{TableSize: 4096, Wire: []byte{0xff}})
	readTable(d, &a)
	if !Rejected(a.Err) || a.Fields != nil || a.Said != "reset the stream" || a.TableShown {
		t.Errorf("refused block: %+v; want a rejection, said reset the stream, no table", a)
	}
	if d.tableReads != 1 {
		t.Errorf("table read %d times; want once, after the block accepted", d.tableReads)
	}
}
