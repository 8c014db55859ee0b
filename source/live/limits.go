package live

import (
	"fmt"
	"sync"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
)

// DefaultMaxBlock is the largest header block a peer may write, in
// octets, before hpackcert gives up on the connection: certify's default
// per-block limit.
const DefaultMaxBlock = certify.DefaultMaxBlockSize

// Bounds on what one peer can make hpackcert hold or do, so that memory
// stays within the README's bound whatever the peer sends: no real peer
// comes near them.
const (
	// maxReadFrame is the largest frame hpackcert reads: the initial
	// SETTINGS_MAX_FRAME_SIZE, which it never raises (RFC 9113 §4.2).
	maxReadFrame = 16384
	// maxConnFrames bounds the frames that carry no header block (SETTINGS,
	// PING, WINDOW_UPDATE, RST_STREAM, GOAWAY, PRIORITY, DATA, unknown)
	// read on one connection, unless its requests need more
	// (wireConn.expect); a script of 64 requests needs a few hundred.
	maxConnFrames = 20000
	// maxConnData bounds the DATA octets read on one connection, unless
	// its requests need more; the origin's bodies are 16 KiB at most.
	maxConnData = 32 << 20
	// maxConnNotes bounds the notes kept for one connection.
	maxConnNotes = 16
	// maxCaptureWire bounds the header-block octets kept for one target,
	// all connections together.
	maxCaptureWire = 16 << 20
)

// PeerError is what the peer did that hpackcert does not put up with: a
// flood, a frame or a block above its limits, more connections or blocks
// than the script asks for. The capture stops at once and the run is an
// error: what was captured cannot be trusted to show the encoder at
// work. A peer that merely stops before the script ends (SETTINGS never
// acknowledged included) is a Stop instead: what it wrote before is
// graded.
type PeerError struct {
	// Code is the HTTP/2 error code hpackcert closes the connection with.
	Code http2.ErrCode
	Msg  string
}

func (e *PeerError) Error() string { return "the peer " + e.Msg }

func peerError(code http2.ErrCode, format string, args ...any) error {
	return &PeerError{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// budget bounds the header blocks of one capture, shared by its
// connections.
type budget struct {
	mu                sync.Mutex
	blocks, maxBlocks int
	wire              int
}

func newBudget(maxBlocks int) *budget { return &budget{maxBlocks: maxBlocks} }

// take counts one finished block of n octets.
func (b *budget) take(n int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.blocks++
	b.wire += n
	if b.blocks > b.maxBlocks {
		return peerError(http2.ErrCodeEnhanceYourCalm, "sent more than %d header blocks, more than the requests asked for can explain", b.maxBlocks)
	}
	if b.wire > maxCaptureWire {
		return peerError(http2.ErrCodeEnhanceYourCalm, "sent more than %d MiB of header blocks", maxCaptureWire>>20)
	}
	return nil
}
