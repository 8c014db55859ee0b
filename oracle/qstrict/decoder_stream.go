package qstrict

import "github.com/hpackcert/hpackcert/encoder"

// acknowledge writes the Section Acknowledgment owed for a decoded section
// whose Required Insert Count is ric (§4.4.1); a section with a count of 0
// is not acknowledged (§2.2.2.1, §4.4.1).
func (d *Decoder) acknowledge(streamID, ric uint64) {
	if ric == 0 {
		return
	}
	d.out = encoder.AppendInteger(d.out, 0x80, 7, streamID)
	d.knownReceived = max(d.knownReceived, ric)
}

// Cancel records that the stream was reset or its reading abandoned: a
// blocked section of it is dropped, and a Stream Cancellation is owed
// (§4.4.2).
func (d *Decoder) Cancel(streamID uint64) error {
	if d.err != nil {
		return ErrBroken
	}
	for i, b := range d.blocked {
		if b.streamID == streamID {
			d.blocked = append(d.blocked[:i], d.blocked[i+1:]...)
			break
		}
	}
	d.writeCancellation(streamID)
	return nil
}

// cancel writes the Stream Cancellation owed for a section refused for
// its size: the encoder must stop counting its references (§2.2.2.2). A
// section with a Required Insert Count of 0 references nothing.
func (d *Decoder) cancel(streamID, ric uint64) {
	if ric > 0 {
		d.writeCancellation(streamID)
	}
}

func (d *Decoder) writeCancellation(streamID uint64) {
	d.out = encoder.AppendInteger(d.out, 0x40, 6, streamID)
}

// DecoderStreamOut returns the decoder-stream octets owed since the last
// call: Section Acknowledgments and Stream Cancellations in the order they
// arose, then one Insert Count Increment for the inserts the encoder does
// not know were received (§4.4.3; never an increment of 0).
func (d *Decoder) DecoderStreamOut() []byte {
	if n := d.table.inserts(); n > d.knownReceived {
		d.out = encoder.AppendInteger(d.out, 0x00, 6, n-d.knownReceived)
		d.knownReceived = n
	}
	out := d.out
	d.out = nil
	return out
}
