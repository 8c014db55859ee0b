// Package live is the live source of hpackcert: it captures the header
// blocks real HTTP/2 servers, proxies and clients write, over the wire,
// and hands them to the engine as transcripts (Capture.Transcript, a
// livegrade.Transcript). It grades nothing and renders nothing itself:
// package certify/livegrade infers the list each block must decode to and
// grades the transcripts with certify.Run, and package report renders
// them. The catalogue of targets it knows by name, with everything
// particular to a library (how to start it, what it does to the lists it
// relays, what its HPACK library never-indexes by itself), is package
// targets beside it.
//
// It speaks HTTP/2 itself, with golang.org/x/net/http2's Framer and no
// HPACK decoder of x/net's transport: every header block the peer writes
// (a HEADERS or PUSH_PROMISE frame and its CONTINUATION frames, joined) is
// kept as raw octets, with the SETTINGS_HEADER_TABLE_SIZE values the peer
// acknowledged since its previous block, in order, and the header list it
// was sent to carry where hpackcert knows it.
//
// Its files, by job:
//
//   - live.go, capture.go: the blocks and connections captured (Block,
//     Conn), one target's capture (Capture) and its transcript;
//   - client.go: hpackcert as the client of a server or proxy
//     (CaptureServer): h2c with prior knowledge, or TLS with ALPN h2; the
//     server answers each request of a Script with the response header
//     list the script gives (the in-process servers serve Origin's
//     answers), or with a list hpackcert does not know;
//   - server.go, servercapture.go, serverrun.go, command.go: hpackcert as
//     the server of a client (CaptureClient): its HTTP/2 Server, the runs
//     of the client's command line, whose request header lists it knows
//     from the command, again on the same server for a replay of the same
//     input (enc/2.2/1) and with fields built for the cases
//     (GeneratedClientHeaders), graded as generated stories;
//   - origin.go: the origin behind a proxy (Origin, HTTP/1.1 and h2c on
//     loopback), answering each request with the script's list; what the
//     proxy does to a list on the way is the Transform its catalogue entry
//     declares;
//   - wire.go, breakdown.go, limits.go, peertext.go, tls.go: frames and
//     wire: header blocks read and joined, SETTINGS sent and acknowledged,
//     how a peer stopped (Stop, BreakdownError), the bounds a peer cannot
//     pass (PeerError), the peer's text escaped, the certificate;
//   - script.go, exercise.go: what is asked (Script, the schedule of
//     table sizes, the lists built for the cases);
//   - decoder*.go: the live decoder driver (DecoderTarget): decoder.go
//     sends each block as a request; decoderverdict.go reads what the
//     target answered; decodererrors.go names its refusals (GOAWAY, a
//     close, 431); decoderfields.go, decoderview.go and decoderorigin.go
//     read back what it decoded, at hpackcert's origin, through the view
//     its catalogue entry declares; decodermem.go measures its memory.
//
// Between requests on one connection hpackcert changes its
// SETTINGS_HEADER_TABLE_SIZE, waiting for each acknowledgement: down to 0,
// down then up, below the table's size, above 4096. The size-update rules
// of RFC 7541 §4.2 and §6.3 (restated for HTTP/2 by RFC 9113 §4.3.1) are
// judged as on a real connection, since each block of a transcript carries
// the exact settings history it was written under.
//
// A target that stops before its schedule ends (it closes or resets the
// connection or a request's stream, sends GOAWAY with an error, stops
// answering, or never acknowledges a SETTINGS frame, RFC 9113 §6.5.3)
// is the capture's breakdown, its one failure: "target stopped at
// request N of M: ..." (Capture.Breakdown, in the transcript); the
// blocks it wrote before are graded. A server that ends a connection
// gracefully (GOAWAY NO_ERROR, as one that serves a number of requests
// per connection does) is no breakdown: the rest of the schedule goes
// over a new connection.
//
// The decoders of servers and proxies are certified too (the dec/ cases,
// issue 25): a DecoderTarget sends the certifier's header blocks as
// requests, one connection per story, and reads the target's verdict on
// each off the wire: an answer or a reset stream is an accepted block, a
// GOAWAY with an error or a closed connection a refused one (Decoder's
// DecodeBlock says exactly how), with the time each verdict took and the
// target's memory at its peak.
package live

import (
	"github.com/hpackcert/hpackcert/certify/livegrade"
	"github.com/hpackcert/hpackcert/vectors"
)

// Role names what a target is to the certifier.
const (
	RoleServer = livegrade.RoleServer // an origin server; hpackcert is its client
	RoleProxy  = livegrade.RoleProxy  // a proxy; hpackcert is its client and its origin
	RoleClient = livegrade.RoleClient // a client; hpackcert is its server
)

// Transform declares what a target does to the header lists that pass
// through it (livegrade.Transform): the catalogue declares one per target,
// the command line one per --server, --proxy or --client.
type Transform = livegrade.Transform

// TransformSyntax describes what ParseTransform reads.
const TransformSyntax = livegrade.TransformSyntax

// ParseTransform reads a transformation written in TransformSyntax
// (livegrade.ParseTransform).
func ParseTransform(s string) (Transform, error) { return livegrade.ParseTransform(s) }

// Block is one header block the peer wrote, as it came off the wire.
type Block struct {
	// Stream is the stream the block was sent on.
	Stream uint32
	// Frame is "HEADERS" or "PUSH_PROMISE", the frame that began it.
	Frame string
	// Acked lists the SETTINGS_HEADER_TABLE_SIZE values the peer
	// acknowledged since its previous block, in order: the history the
	// encoder wrote the block under.
	Acked []uint32
	// Wire is the header block: the fragments of the first frame and of
	// its CONTINUATION frames, joined.
	Wire []byte
	// Sent is the header list the block carries before the target's
	// transformations, in order: the origin's response, or the request the
	// client was told to make. Nil when hpackcert cannot know it.
	Sent []vectors.Field
	// Step names the request of the script the block belongs to.
	Step string
}

// Conn is the header blocks of one HTTP/2 connection, in the order the
// peer wrote them.
type Conn struct {
	// Name names the connection in reports, such as "c03-story_23".
	Name   string
	Blocks []Block
	// Notes says what went wrong or was left out on the connection, one
	// line each.
	Notes []string
	// Stop, when set, is how the target stopped on the connection before
	// its schedule ended: the capture's breakdown.
	Stop *Stop
	// Traffic is the script connection's (ScriptConn.Traffic): its
	// blocks encode a story of real traffic.
	Traffic bool
	// ReplayOf is the script connection's (ScriptConn.ReplayOf).
	ReplayOf string
}
