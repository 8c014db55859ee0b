package certify

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/hpackcert/hpackcert/vectors"
)

// Recorded returns a target that grades the wire recorded in the story
// files of dir (the hpack-test-case format) instead of running an
// encoder: each "wire" is decoded by every oracle and compared with its
// "headers", with "header_table_size" and "table_sizes" acknowledged
// before the block. Only the cases that examine existing blocks can run;
// the others are graded unsupported.
func Recorded(dir string) (Target, error) {
	vs, err := vectors.ReadStoryDir(dir)
	if err != nil {
		return nil, err
	}
	if len(vs) == 0 {
		return nil, fmt.Errorf("certify: %s: no story files (*.json)", dir)
	}
	for _, s := range vs {
		for i, c := range s.Cases {
			if c.Wire == nil {
				return nil, fmt.Errorf("certify: %s: case %d has no \"wire\" to grade", s.Path, i)
			}
		}
	}
	name := "recorded:" + filepath.Base(filepath.Clean(dir))
	return &recordedTarget{name: name, stories: fromVectors(vs)}, nil
}

type recordedTarget struct {
	name    string
	stories []story
}

func (t *recordedTarget) Name() string { return t.name }
func (t *recordedTarget) NewEncoder() (Encoder, error) {
	return nil, errors.New("recorded stories have no encoder")
}
func (t *recordedTarget) Close() error { return nil }

// EncodeStory encodes every case of s with a fresh context from t and
// returns a copy of s with each case's "wire" filled in.
func EncodeStory(t Target, s *vectors.Story) (*vectors.Story, error) {
	enc, err := t.NewEncoder()
	if err != nil {
		return nil, err
	}
	defer closeEncoder(enc)
	out := *s
	out.Cases = make([]vectors.Case, len(s.Cases))
	var buf []byte
	for i, c := range s.Cases {
		in := block{acked: c.AckedSizes(), fields: make([]Field, len(c.Headers))}
		for k, h := range c.Headers {
			in.fields[k] = Field{Name: h.Name, Value: h.Value, Sensitive: k < len(c.Sensitive) && c.Sensitive[k]}
		}
		wire, err := encodeSafely(enc, buf[:0], &in)
		if err != nil {
			return nil, fmt.Errorf("certify: %s: case %d: %w", s.Path, i, err)
		}
		buf = wire
		c.Wire = append([]byte(nil), wire...)
		out.Cases[i] = c
	}
	return &out, nil
}
