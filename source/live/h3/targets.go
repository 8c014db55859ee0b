package h3

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/hpackcert/hpackcert/certify/qpack"
)

// catalogue holds the live HTTP/3 targets by name: how each is captured.
var catalogue = map[string]func(ctx context.Context, name string, opts Options) (*qpack.Transcript, error){
	"quicgo-h3-server": captureQuicGoServer,
	"quicgo-h3-client": captureQuicGoClient,
	"caddy-h3":         captureCaddy,
}

// Names returns the names of the live HTTP/3 targets, sorted.
func Names() []string {
	names := make([]string, 0, len(catalogue))
	for n := range catalogue {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Target is a live HTTP/3 peer as a QPACK encoder target: it cannot be
// driven, only captured, so it is a qpack.Player whose one transcript is
// the capture of one connection, made on the first call to Transcripts.
type Target struct {
	name    string
	opts    Options
	capture func(ctx context.Context, name string, opts Options) (*qpack.Transcript, error)

	once sync.Once
	t    *qpack.Transcript
	err  error
}

var (
	_ qpack.EncoderTarget = (*Target)(nil)
	_ qpack.Player        = (*Target)(nil)
)

// EncoderTarget returns the live target called name (see Names) with
// the default Options.
func EncoderTarget(name string) (qpack.EncoderTarget, error) {
	return NewTarget(name, Options{})
}

// NewTarget returns the live target called name, captured with opts. A
// target that needs a program not installed here (caddy) is refused
// with an error that says so.
func NewTarget(name string, opts Options) (*Target, error) {
	capture, ok := catalogue[name]
	if !ok {
		return nil, fmt.Errorf("h3: no live HTTP/3 target %q (have %v)", name, Names())
	}
	if _, err := opts.withDefaults(); err != nil {
		return nil, err
	}
	if name == caddyName {
		if _, err := caddyPath(); err != nil {
			return nil, err
		}
	}
	return &Target{name: name, opts: opts, capture: capture}, nil
}

// Name returns the target's name.
func (t *Target) Name() string { return t.name }

// errNotDriven is what NewEncoder says: a live peer encodes what its own
// HTTP stack gives it.
var errNotDriven = errors.New("h3: a live HTTP/3 peer cannot be driven as an encoder: its transcripts are captured (Transcripts)")

// NewEncoder refuses: see Transcripts.
func (t *Target) NewEncoder(qpack.Settings) (qpack.Encoder, error) {
	return nil, fmt.Errorf("%s: %w", t.name, errNotDriven)
}

// Transcripts captures the target once and returns the transcript of
// its connection.
func (t *Target) Transcripts() ([]*qpack.Transcript, error) {
	t.once.Do(func() {
		t.t, t.err = t.capture(context.Background(), t.name, t.opts)
	})
	if t.err != nil {
		return nil, fmt.Errorf("%s: %w", t.name, t.err)
	}
	return []*qpack.Transcript{t.t}, nil
}

// Close releases nothing: every capture stops what it started before it
// returns.
func (t *Target) Close() error { return nil }

// Live marks the target as captured live (engine.Live): its report says
// so, and the cases only a driven encoder shows are n/a.
func (t *Target) Live() {}

// Installed reports why the live target called name cannot run here
// (caddy-h3 without the caddy program), or nil.
func Installed(name string) error {
	if name == caddyName {
		_, err := caddyPath()
		return err
	}
	return nil
}
