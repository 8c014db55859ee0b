package hpackstdio

import (
	"fmt"
	"slices"
	"testing"
)

// qpackDocTable is the table of the QPACK mode's messages in
// docs/STDIO.md, of both sides.
var qpackDocTable = docTable{"<!-- qpack breakdowns:", "<!-- end of qpack breakdowns -->",
	[]string{"encoder broke hpack-stdio at request ", "encoder answered request ", "decoder broke hpack-stdio at request ", "decoder answered request "}}

// qpackDocSituations are the descriptions the QPACK table uses for what
// a program does, other than "answers `LINE`".
var qpackDocSituations = map[string]struct{ op, action string }{
	"answers a section of 2 MiB": {OpEncode, fmt.Sprintf("section %d", 2*DefaultMaxWire)},
	"exits with status 3":        {OpDecode, "exit"},
}

// qpackDecoderOps are the requests only a decoder gets; a row of the
// table for one of them is a decoder's, any other an encoder's.
var qpackDecoderOps = []string{OpEncoderStream, OpDecode, OpCancel}

// TestDocQPACKBreakdowns makes each message of the QPACK table of
// docs/STDIO.md happen, with the default timeout, and checks that the
// table quotes the client's message whole.
func TestDocQPACKBreakdowns(t *testing.T) {
	checkDocTable(t, qpackDocTable, "QPACK program", qpackDocSituations, func(t *testing.T, op, action string) (bool, error) {
		decoder := slices.Contains(qpackDecoderOps, op)
		enc, dec, q, err := startQ(t, decoder, DefaultTimeout, op+"="+action)
		if err != nil {
			return false, err
		}
		if err := q.New(QSettings{MaxTableCapacity: 4096, BlockedStreams: 100}); err != nil {
			return true, err
		}
		if decoder {
			return true, qDecoderRequests(dec)
		}
		return true, qEncoderRequests(enc)
	})
}
