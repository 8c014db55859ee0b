package main

import (
	"errors"

	"github.com/hpackcert/hpackcert/certify"
)

// decoderReproductions is what hpackcert repro needs of the engine to
// replay the files decoders --repro writes (certify.DecoderOptions.
// ReproDir): the file format is the engine's, so the engine tells a
// decoder's reproduction from an encoder's and sets the options that
// replay it.
type decoderReproductions interface {
	// Is reports whether the story file at path was written by
	// decoders --repro, rather than by run --repro or the gate.
	Is(path string) (bool, error)
	// Replay returns opts set to decode the blocks of the file at path
	// alone, as the cases selected judge them.
	Replay(path string, opts certify.DecoderOptions) (certify.DecoderOptions, error)
}

// decoderRepros is the engine's decoderReproductions.
var decoderRepros decoderReproductions = encoderReprosOnly{}

// encoderReprosOnly reads every story file as an encoder's reproduction:
// the decoder side of this engine writes none of its own.
type encoderReprosOnly struct{}

func (encoderReprosOnly) Is(string) (bool, error) { return false, nil }

func (encoderReprosOnly) Replay(path string, opts certify.DecoderOptions) (certify.DecoderOptions, error) {
	return opts, errors.New(path + ": this build replays no decoder reproduction")
}
