// Package h3 captures the QPACK encoders of real HTTP/3 peers on
// loopback as qpack.Transcript values, for the qenc/ side to grade like
// recordings: a live peer cannot be driven, so each target is a
// qpack.Player whose NewEncoder refuses.
//
// QUIC is quic-go's (github.com/quic-go/quic-go), the maintained Go
// implementation; its http3 package is used only as a target. The
// HTTP/3 the certifier speaks is its own, and minimal (RFC 9114): a
// control stream whose SETTINGS offer a dynamic table
// (SETTINGS_QPACK_MAX_TABLE_CAPACITY 4096, SETTINGS_QPACK_BLOCKED_STREAMS
// 100), the peer's encoder stream read raw, HEADERS frames of request
// streams read raw, and a decoder stream on which the certifier, playing
// the decoder with oracle/qstrict, sends the Section Acknowledgments and
// Insert Count Increments it owes. So what the peer's encoder wrote is
// in the transcript octet for octet, in the order it arrived, each part
// delivered on arrival (Wrote and DeliverEncoderStream, Section and
// DeliverSection), with the feedback sent as Told events. A peer whose
// encoder breaks RFC 9204 gets the connection closed with the QPACK
// error code, and its transcript is kept for the grading.
//
// Two roles: CaptureServer is the certifier's client capturing a
// server's response encoder (header lists unknown, List -1);
// CaptureClient is the certifier's server capturing a client's request
// encoder, with the lists the client says it encoded. Every capture
// listens on 127.0.0.1 only, is bounded in time, in requests and in the
// octets kept per stream, and refuses a malformed peer with an error
// naming the stream, the offset and the fault.
//
// Files: doc.go; frame.go (QUIC integers, HTTP/3 frames, the stream
// reader); record.go (the transcript and the strict decoder's feedback);
// session.go (one connection: the certifier's streams, the peer's
// unidirectional streams); client.go (Options, Request, CaptureServer);
// server.go (CaptureClient); quicgo.go (quic-go's http3 server and
// client as targets); caddy.go (Caddy started as a program); targets.go
// (the catalogue, Target, EncoderTarget).
package h3
