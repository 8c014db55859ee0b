package main

import (
	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/vectors"
)

// decoderReproductions is what hpackcert repro needs of the engine to
// replay the files decoders --repro writes (certify.DecoderOptions.
// ReproDir): the file format is the engine's, so the engine tells a
// decoder's reproduction from an encoder's and sets the options that
// replay it. Tests replace it with a fake.
type decoderReproductions interface {
	// Is reports whether the story file at path was written by
	// decoders --repro, rather than by run --repro or the gate.
	Is(path string) (bool, error)
	// Replay returns opts set to decode the blocks of the file at path
	// alone, as the cases selected judge them.
	Replay(path string, opts certify.DecoderOptions) (certify.DecoderOptions, error)
}

// decoderRepros is the engine's decoderReproductions.
var decoderRepros decoderReproductions = engineRepros{}

// engineRepros reads the story file and asks the engine.
type engineRepros struct{}

func (engineRepros) Is(path string) (bool, error) {
	st, err := vectors.ReadStory(path)
	if err != nil {
		return false, err
	}
	return certify.IsDecoderReproduction(st), nil
}

func (engineRepros) Replay(path string, opts certify.DecoderOptions) (certify.DecoderOptions, error) {
	st, err := vectors.ReadStory(path)
	if err != nil {
		return opts, err
	}
	opts.Replay = []*vectors.Story{st}
	return opts, nil
}
