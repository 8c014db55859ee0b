// Package recorded is the source of recorded wire: story files of the
// hpack-test-case format whose cases carry the "wire" some encoder wrote
// (the recordings of hpack-test-case, a capture, the reproductions of
// hpackcert run --repro). It reads them, with a bound on each file's
// size, into the encoder side's transcript (transcript.Recording: each
// story's blocks with the settings acknowledged before them, the fields
// sent and the wire), and hands that to the engine (certify.Recorded),
// whose target for it answers each scenario with the recording's stories.
package recorded

import (
	"path/filepath"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/transcript"
	"github.com/hpackcert/hpackcert/vectors"
)

// Dir returns a target that grades the wire recorded in the story
// files of dir (the hpack-test-case format) instead of running an
// encoder: each "wire" is decoded by every oracle and compared with its
// "headers", with "header_table_size" and "table_sizes" acknowledged
// before the block. Only the cases that examine existing blocks can run;
// the others are graded unsupported. A story whose cases carry no "wire"
// (hpack-test-case's raw-data, header lists only) has nothing to grade:
// its cases are unsupported, with the reason, not an error.
func Dir(dir string) (certify.Target, error) {
	return DirLimit(dir, vectors.DefaultMaxStoryFileSize)
}

// DirLimit is Dir reading story files of at most maxFileSize
// octets each; a larger file is an error before it is read whole.
func DirLimit(dir string, maxFileSize int64) (certify.Target, error) {
	rec, err := Read(dir, maxFileSize)
	if err != nil {
		return nil, err
	}
	return certify.Recorded(rec)
}

// Read returns the recording of the story files of dir, each of at most
// maxFileSize octets, named "recorded:" and dir's base name.
func Read(dir string, maxFileSize int64) (*transcript.Recording, error) {
	vs, err := vectors.ReadStoryDirLimit(dir, maxFileSize)
	if err != nil {
		return nil, err
	}
	return transcript.FromStories("recorded:"+filepath.Base(filepath.Clean(dir)), dir, vs)
}
