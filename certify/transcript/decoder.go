package transcript

import (
	"time"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// DecoderBlock is one header block sent to a decoder target, with the
// settings it was sent under: the decoder side's transcript is, for each
// story, a fresh decoding context, then its blocks in order, each with
// the decoder's answer (DecoderAnswer).
type DecoderBlock struct {
	// TableSize is the SETTINGS_HEADER_TABLE_SIZE the decoder's side
	// advertised and the peer acknowledged before the block.
	TableSize uint32
	// MaxListSize is the SETTINGS_MAX_HEADER_LIST_SIZE advertised before
	// the block, 0 for none.
	MaxListSize uint32
	// Wire is the header block.
	Wire []byte
}

// DecoderAnswer is what a decoder made of one block: the fields it
// decoded, or its refusal, and its dynamic table after the block when it
// shows one.
type DecoderAnswer struct {
	// Fields are the fields decoded, in order, Sensitive set on each
	// that came as a never-indexed literal.
	Fields []spec.Field
	// Err is the decoder's refusal of the block (an error wrapping a
	// decoders.Rejection), or its breakdown (any other error).
	Err error
	// Said is the target's own words on the block, when its source keeps
	// them (a live server's status or stream reset), or empty.
	Said string
	// TableShown is set when the decoder shows its dynamic table: Table
	// is then its entries after the block, newest first, or TableErr why
	// they could not be read.
	TableShown bool
	Table      []spec.Field
	TableErr   error
	// Elapsed is how long the decoder took to answer.
	Elapsed time.Duration
}
