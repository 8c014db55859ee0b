package targets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/live"
)

// DecoderOptions configures DecoderTarget and DecoderTargets.
type DecoderOptions struct {
	// TLS runs the target over TLS with ALPN h2 instead of h2c with prior
	// knowledge (a target that has no h2c runs over TLS anyway).
	TLS bool
	// OriginH2C makes a proxy reach the origin over h2c, for the targets
	// that can.
	OriginH2C bool
	// BlockTimeout bounds the wait for the verdict on each block; 0 means
	// live.DefaultBlockTimeout.
	BlockTimeout time.Duration
}

// DecoderTarget returns the server or proxy t as a certify.DecoderTarget,
// its HPACK decoder certified with the header blocks of requests
// (live.DecoderTarget). The target is started, with an origin behind a
// proxy, on the first NewDecoder, so that a list of targets costs nothing
// until each is run; Close stops it. A client decodes no request and is
// refused, as are a target that says why it is no decoder target
// (TargetSpec.NoDecoder) and one whose program is not installed
// (ErrNotInstalled).
func DecoderTarget(t *TargetSpec, o DecoderOptions) (certify.DecoderTarget, error) {
	if t.Role == live.RoleClient {
		return nil, fmt.Errorf("live: %s is a client: it decodes no request", t.Name)
	}
	if t.NoDecoder != "" {
		return nil, fmt.Errorf("live: %s is no decoder target: %s", t.Name, t.NoDecoder)
	}
	if err := t.Installed(); err != nil {
		return nil, err
	}
	if o.OriginH2C && !t.H2COrigin {
		return nil, fmt.Errorf("live: %s cannot reach the origin over h2c", t.Name)
	}
	if t.NoH2C != "" {
		o.TLS = true
	}
	return &startedDecoder{spec: t, o: o}, nil
}

// DecoderTargets returns every installed server and proxy of the
// catalogue as a decoder target (DecoderTarget), in the catalogue's
// order, and names the ones left out, each with why.
func DecoderTargets(o DecoderOptions) (out []certify.DecoderTarget, left []string) {
	for i := range targets {
		t := &targets[i]
		if t.Role == live.RoleClient {
			continue
		}
		opts := o
		if !t.H2COrigin {
			opts.OriginH2C = false
		}
		dt, err := DecoderTarget(t, opts)
		if errors.Is(err, ErrNotInstalled) {
			err = fmt.Errorf("%s: %w", t.Name, err)
		}
		if err != nil {
			left = append(left, err.Error())
			continue
		}
		out = append(out, dt)
	}
	return out, left
}

// startedDecoder starts its target on the first NewDecoder.
type startedDecoder struct {
	spec *TargetSpec
	o    DecoderOptions

	mu      sync.Mutex
	started *live.DecoderTarget
	failed  error
	closed  bool
	// cleanup stops the origin and removes the target's directory.
	cleanup func()
}

func (d *startedDecoder) Name() string { return d.spec.Name }

// Live marks the target as driven over a live HTTP/2 connection
// (certify.Live): the engine holds it to RFC 9113 as well.
func (d *startedDecoder) Live() {}

// DecoderLacks declares what the target's role cannot show
// (decoderLacks).
func (d *startedDecoder) DecoderLacks() certify.DecoderLacks { return decoderLacks(d.spec.Name) }

func (d *startedDecoder) NewDecoder() (certify.Decoder, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return nil, fmt.Errorf("live: %s: the decoder target is closed", d.spec.Name)
	case d.failed != nil:
		return nil, d.failed
	case d.started == nil:
		if d.failed = d.start(); d.failed != nil {
			return nil, d.failed
		}
	}
	return d.started.NewDecoder()
}

// start starts the target, and the origin behind it, within
// startTimeout.
func (d *startedDecoder) start() error {
	t := d.spec
	script, err := live.DefaultScript(1, 8)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "hpackcert-livedec-")
	if err != nil {
		return err
	}
	// Servers that drop privileges must read what is in the directory.
	os.Chmod(dir, 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	env := &startEnv{ctx: ctx, dir: dir, tls: d.o.TLS, originH2C: d.o.OriginH2C, spec: t}
	if d.o.TLS {
		if env.cert, err = live.NewCertificate(); err != nil {
			os.RemoveAll(dir)
			return err
		}
	}
	origin, err := live.StartOrigin("127.0.0.1:0", script)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	env.origin = origin
	d.cleanup = func() {
		origin.Close()
		os.RemoveAll(dir)
	}
	start := t.start
	if s, ok := decoderStarts[t.Name]; ok {
		start = s
	}
	run, err := start(env)
	if err != nil {
		d.cleanup()
		return fmt.Errorf("live: starting %s: %w", t.Name, err)
	}
	dt, err := live.NewDecoderTarget(live.DecoderOptions{Name: t.Name, URL: run.url, BlockTimeout: d.o.BlockTimeout, PID: run.pid, Stop: run.stop, Shown: origin, View: viewFor(t.Name, d.o.OriginH2C)})
	if err != nil {
		run.stop()
		d.cleanup()
		return err
	}
	d.started = dt
	return nil
}

// Close stops the target and its origin, when they were started.
func (d *startedDecoder) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	if d.started == nil {
		return nil
	}
	err := d.started.Close()
	d.cleanup()
	if err != nil {
		return errors.Join(fmt.Errorf("live: stopping %s", d.spec.Name), err)
	}
	return nil
}
