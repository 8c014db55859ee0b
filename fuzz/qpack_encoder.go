//go:build !gofuzz

package fuzz

import "github.com/hpackcert/hpackcert/source/inprocess"

// newQPACKEncoder opens the encoder the QPACK round-trip target holds to
// the decoders: the reference encoder (package qencoder) as the
// in-process source serves it to the certifier.
var newQPACKEncoder = inprocess.NewRefQPACKEncoder
