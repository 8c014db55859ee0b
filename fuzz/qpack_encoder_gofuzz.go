//go:build gofuzz

package fuzz

import (
	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/qencoder"
)

// Under go-fuzz the round-trip target drives package qencoder itself:
// source/inprocess imports package vectors, whose embedded files
// go-fuzz-build does not copy into its build tree. The other builds go
// through source/inprocess (qpack_encoder.go), with the same capacity.

const gofuzzQPACKCapacity = 4096

func newQPACKEncoder(s qpack.Settings) (qpack.Encoder, error) {
	return &gofuzzQPACKEncoder{e: qencoder.New(qencoder.Config{TableCapacity: gofuzzQPACKCapacity, PeerMaxTableCapacity: s.MaxTableCapacity, BlockedStreams: s.BlockedStreams})}, nil
}

type gofuzzQPACKEncoder struct {
	e       *qencoder.Encoder
	pending []byte // an incomplete decoder-stream instruction
}

func (g *gofuzzQPACKEncoder) EncodeSection(stream uint64, fields []qpack.Field) ([]byte, []byte, error) {
	section, enc := g.e.AppendSection(nil, nil, stream, fields)
	return section, enc, nil
}

func (g *gofuzzQPACKEncoder) DecoderStream(data []byte) ([]byte, error) {
	g.pending = append(g.pending, data...)
	n, err := g.e.DecoderStream(g.pending)
	g.pending = g.pending[:copy(g.pending, g.pending[n:])]
	if err != nil {
		return nil, &qpack.ConnectionError{Code: qpack.DecoderStreamError, Reason: err.Error(), Err: err}
	}
	return nil, nil
}
