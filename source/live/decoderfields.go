package live

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/oracle/strict"
	"github.com/hpackcert/hpackcert/vectors"
)

// maxSentList bounds the header list the decoder of the blocks sent
// builds: a bomb the target takes is judged by its acceptance, not by
// fields hpackcert would have to build too.
const maxSentList = 16 << 20

// newSentDecoder returns the decoder of the blocks a live decoder sends,
// under the SETTINGS_HEADER_TABLE_SIZE the target advertised.
func newSentDecoder(agreed uint32) *strict.Decoder {
	d := strict.New()
	if agreed != defaultPeerTableSize {
		d.SetMaxDynamicTableSize(agreed)
	}
	d.SetMaxHeaderListSize(maxSentList)
	return d
}

// markShown returns the origin's mark before a block is sent, 0 when the
// target shows nothing.
func (d *Decoder) markShown() int {
	if d.o.Shown == nil {
		return 0
	}
	return d.o.Shown.Mark()
}

// shownFields returns the fields of a block the target accepted, as it
// showed them at the origin since mark, and sets hidden when it showed
// none. The block is decoded as it was sent whether or not the target
// shows anything, to keep the table its next blocks are decoded with.
func (d *Decoder) shownFields(mark int, block []byte) []certify.Field {
	sent, err := d.sent.DecodeBlock(block)
	d.hidden = true
	if d.o.Shown == nil || d.o.View == nil || err != nil {
		return nil
	}
	r, ok := pickShown(d.o.Shown.ShownSince(mark), sent)
	if !ok {
		return nil
	}
	d.hidden = false
	fields, _ := d.o.View.Compare(sent, r.Fields)
	return fields
}

// pickShown returns the request of the block whose fields are sent among
// the requests the origin received since it was sent: the last whose
// path is the block's, or else the only one. A request the target made
// of its own (a health check) beside it leaves the block unshown.
func pickShown(reqs []ShownRequest, sent []certify.Field) (ShownRequest, bool) {
	path := shownValue(sent, ":path")
	for i := len(reqs) - 1; i >= 0; i-- {
		if path != "" && shownValue(reqs[i].Fields, ":path") == path {
			return reqs[i], true
		}
	}
	if len(reqs) == 1 {
		return reqs[0], true
	}
	return ShownRequest{}, false
}

// shownValue returns the value of the first field called name, or "".
func shownValue(list []vectors.Field, name string) string {
	for _, f := range list {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}
