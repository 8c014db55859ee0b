package targets

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify/livegrade"
	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/vectors"
)

// TargetSpec is a target hpackcert live knows by name: how to start it,
// what it does to header lists, and whose HPACK encoder it holds.
type TargetSpec struct {
	Name string
	Role string
	// Package is the Debian package holding it; empty for the targets in
	// this process.
	Package string
	// Binary is the program run; empty for the targets in this process.
	Binary string
	// Encoder says whose HPACK encoder the target uses.
	Encoder string
	// Transform is what the target does to the lists it relays, declared
	// here once and shown in every report.
	Transform live.Transform
	// SentExact is set for hpackcert's own server, whose encoder is given
	// exactly the script's lists (live.Capture.SentExact).
	SentExact bool
	// H2COrigin is set for a proxy that can reach the origin over h2c
	// (Options.OriginH2C) rather than HTTP/1.1.
	H2COrigin bool
	// NoH2C, when set, says why the target is certified over TLS even
	// when h2c is asked for.
	NoH2C string
	// NoLarge and NoLargeH2COrigin, when set, say why a server or proxy
	// (over HTTP/1.1 or h2c to the origin) is certified without the
	// script's response of 16 KiB strings (live.Script.WithLarge): it
	// refuses to relay it.
	NoLarge, NoLargeH2COrigin string
	// MaxList and MaxListWhy, when set, leave out of the script every
	// response list larger than MaxList octets (live.Script.WithoutOver),
	// and say why: a server that fails its connection on a block over one
	// frame, which is its finding, is graded on the rest.
	MaxList    int
	MaxListWhy string
	// OneSettingsFrame, when set, says why the target is sent a step's
	// several table sizes in one SETTINGS frame
	// (live.ServerOptions.SettingsInOneFrame): it limits the SETTINGS
	// frames it takes.
	OneSettingsFrame string
	// Unscripted, when set, says why a server answers every request with
	// a header list of its own rather than the script's: each block is
	// then graded on its own decoded list (live.ServerOptions.Known false).
	Unscripted string
	// MarksSensitive, when set, says how the app of a server marks fields
	// never-indexed: by name, the names the origin gives it
	// (live.SensitiveNames). The script's sensitive fields of those names
	// are then expected never-indexed (live.Capture.SensitiveByName), and
	// enc/7.1.3/1 is graded.
	MarksSensitive string
	// NeverIndexes, when set, is what the target's HPACK library sends
	// never-indexed of its own accord (live.Capture.NeverIndexes): those
	// fields are expected never-indexed, and enc/7.1.3/1 is graded.
	NeverIndexes *livegrade.NeverIndexPolicy
	// NoDecoder, when set, says why the target is no decoder target
	// (DecoderTargets leaves it out).
	NoDecoder string

	// inherits is set for a server or proxy whose program takes its
	// listening socket from hpackcert, as descriptor inheritedFD
	// (startListening); any other binds the port it is told.
	inherits bool

	// start starts a server or proxy; client runs a client, with the
	// fields of one of its runs.
	start   func(env *startEnv) (*running, error)
	client  clientFunc
	fields  clientFields
	version func() string
}

// startEnv is what starting a server or proxy needs.
type startEnv struct {
	ctx       context.Context
	dir       string // a temporary directory for configurations, logs, the certificate
	tls       bool
	originH2C bool // the proxy reaches the origin over h2c
	cert      *live.Certificate
	origin    *live.Origin // the origin behind a proxy
	spec      *TargetSpec
}

// running is a started server or proxy.
type running struct {
	url     string
	version string
	stop    func() error
	// log returns the end of the target's own log, for errors.
	log func() string
	// pid is the process the target runs as, the leader of its process
	// group; 0 for a target in this process.
	pid int
}

var discardLog = log.New(io.Discard, "", 0)

// targets is every target known by name, in the order reports list them.
var targets = []TargetSpec{
	{
		Name: "ref-server", Role: live.RoleServer, Encoder: "hpackcert's reference encoder", SentExact: true,
		NoDecoder: "hpackcert's own Framer server answers every request, blocks that do not decode included, so as to capture what a client writes next",
		start:     func(env *startEnv) (*running, error) { return startFramerServer(env, nil) },
	},
	{
		Name: "go-server", Role: live.RoleServer, Encoder: "Go net/http's HTTP/2 (golang.org/x/net/http2/hpack, bundled)",
		Transform: goServerTransform,
		start: func(env *startEnv) (*running, error) {
			return startGoServer(env, live.OriginHandler(env.origin.Script()))
		},
	},
	{
		Name: "go-proxy", Role: live.RoleProxy, H2COrigin: true, Encoder: "Go net/http's HTTP/2 (golang.org/x/net/http2/hpack, bundled)",
		Transform: goServerTransform,
		start:     startGoProxy,
	},
	{
		Name: "go-client", Role: live.RoleClient, Encoder: "golang.org/x/net/http2 Transport (x/net hpack)",
		Transform: clientTransform, version: runtime.Version,
		client: func(tlsOn bool, headers []vectors.Field) (*live.ClientCommand, func(context.Context, []string) error, error) {
			return &live.ClientCommand{Headers: headers}, goClient(tlsOn, headers), nil
		},
		fields: goClientFields,
	},
}

// Targets returns the targets hpackcert live knows by name.
func Targets() []TargetSpec {
	out := make([]TargetSpec, len(targets))
	copy(out, targets)
	return out
}

// TargetNames returns the names of Targets, in order.
func TargetNames() []string {
	var out []string
	for _, t := range targets {
		out = append(out, t.Name)
	}
	return out
}

// LookupTarget returns the target called name.
func LookupTarget(name string) (*TargetSpec, error) {
	for i := range targets {
		if targets[i].Name == name {
			return &targets[i], nil
		}
	}
	names := TargetNames()
	sort.Strings(names)
	return nil, fmt.Errorf("live: no target %q (have %s)", name, strings.Join(names, ", "))
}

// ErrNotInstalled is returned by Certify for a target whose program is
// not on this machine.
var ErrNotInstalled = errors.New("live: not installed")

// Installed reports whether the target's program is on this machine.
func (t *TargetSpec) Installed() error {
	if t.Binary == "" {
		return nil
	}
	if _, err := exec.LookPath(t.Binary); err != nil {
		return fmt.Errorf("%w: %s (Debian package %s): %v", ErrNotInstalled, t.Binary, t.Package, err)
	}
	return nil
}

// Options configures Certify.
type Options struct {
	// TLS runs the target over TLS with ALPN h2 on a certificate hpackcert
	// makes, instead of h2c with prior knowledge.
	TLS bool
	// Script is what servers and proxies are asked; nil means
	// DefaultScript(DefaultStories, DefaultBlocks).
	Script *live.Script
	// StepTimeout bounds each step of the script; 0 means
	// DefaultStepTimeout.
	StepTimeout time.Duration
	// Requests is the number of requests asked of a client; 0 means
	// DefaultRequests.
	Requests int
	// Timeout bounds the whole certification of the target, start and
	// stop included; 0 means DefaultTimeout.
	Timeout time.Duration
	// OriginH2C makes a proxy reach hpackcert's origin over h2c rather
	// than HTTP/1.1, for the targets that can (TargetSpec.H2COrigin).
	OriginH2C bool
}

// The defaults of Options.
const (
	DefaultStories = 10
	DefaultBlocks  = 64
	DefaultTimeout = 2 * time.Minute
)

// Capture starts the target, plays the script against it (or runs the
// client against hpackcert's server), stops it and returns what it
// wrote. Everything it starts listens on loopback only and is stopped
// before it returns, within o.Timeout.
func Capture(ctx context.Context, t *TargetSpec, o Options) (*live.Capture, error) {
	began := time.Now()
	if err := t.Installed(); err != nil {
		return nil, err
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	var notes []string
	if t.NoH2C != "" && !o.TLS {
		o.TLS = true
		notes = append(notes, "over TLS rather than h2c: "+t.NoH2C)
	}
	c := &live.Capture{Role: t.Role, Encoder: t.Encoder, Transform: t.Transform, SentExact: t.SentExact, Transport: transport(o.TLS), Notes: notes}
	if t.Role == live.RoleClient {
		cmd, co, notes, err := clientRuns(t, o.TLS)
		if err != nil {
			return nil, err
		}
		c.Notes = append(c.Notes, notes...)
		c.Name = t.Name
		if t.version != nil {
			c.Version = t.version()
		}
		c.Where = cmd.String()
		requests := o.Requests
		if requests <= 0 {
			requests = live.DefaultRequests
		}
		if len(cmd.Args) > 0 {
			requests = cmd.Requests(requests)
		}
		co.Requests, co.Timeout, co.StepTimeout = requests, o.Timeout, o.StepTimeout
		c.Conns, err = live.CaptureClient(ctx, co)
		c.Elapsed = time.Since(began)
		t.marks(c)
		return c, err
	}
	if o.OriginH2C && !t.H2COrigin {
		return nil, fmt.Errorf("live: %s cannot reach the origin over h2c (the proxies that can: %s)", t.Name, strings.Join(h2cOriginTargets(), ", "))
	}
	script := o.Script
	if script == nil {
		var err error
		if script, err = live.DefaultScript(DefaultStories, DefaultBlocks); err != nil {
			return nil, err
		}
	}
	if t.MaxList > 0 {
		var dropped int
		if script, dropped = script.WithoutOver(t.MaxList); dropped > 0 {
			c.Notes = append(c.Notes, fmt.Sprintf("without the %d responses over %d octets: %s", dropped, t.MaxList, t.MaxListWhy))
		}
	}
	if noLarge := t.noLarge(o.OriginH2C); noLarge == "" {
		script = script.WithLarge()
	} else {
		c.Notes = append(c.Notes, "without the response of 16 KiB strings: "+noLarge)
	}
	dir, err := os.MkdirTemp("", "hpackcert-live-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// Servers that drop privileges must read what is in the directory.
	os.Chmod(dir, 0o755)
	env := &startEnv{ctx: ctx, dir: dir, tls: o.TLS, originH2C: o.OriginH2C, spec: t}
	if o.TLS {
		if env.cert, err = live.NewCertificate(); err != nil {
			return nil, err
		}
	}
	origin, err := live.StartOrigin("127.0.0.1:0", script)
	if err != nil {
		return nil, err
	}
	defer origin.Close()
	env.origin = origin
	run, err := t.start(env)
	if err != nil {
		return nil, fmt.Errorf("live: starting %s: %w", t.Name, err)
	}
	c.Name, c.Version = t.Name, run.version
	c.Where = run.url
	if t.Unscripted != "" {
		c.Notes = append(c.Notes, "its lists are its own, not the script's: "+t.Unscripted)
	}
	if t.OneSettingsFrame != "" {
		c.Notes = append(c.Notes, "a step's several table sizes in one SETTINGS frame: "+t.OneSettingsFrame)
	}
	c.Conns, err = live.CaptureServer(ctx, live.ServerOptions{URL: run.url, Script: script, Known: t.Unscripted == "", StepTimeout: o.StepTimeout, SettingsInOneFrame: t.OneSettingsFrame != ""})
	stopErr := run.stop()
	c.Elapsed = time.Since(began)
	if err != nil {
		if run.log != nil {
			if tail := run.log(); tail != "" {
				err = fmt.Errorf("%w; the end of its log: %s", err, live.PeerText(tail))
			}
		}
		return nil, err
	}
	if stopErr != nil {
		c.Notes = append(c.Notes, "stopping it: "+stopErr.Error())
	}
	if t.Role == live.RoleProxy {
		origin.Relayed(c)
	}
	t.marks(c)
	return c, nil
}

// marks records on the capture of a target whose app marks sensitive
// fields by name that it does (MarksSensitive).
func (t *TargetSpec) marks(c *live.Capture) {
	if t.MarksSensitive != "" {
		c.SensitiveByName = true
		c.Notes = append(c.Notes, "the sensitive fields are marked never-indexed by name: "+t.MarksSensitive)
	}
	if t.NeverIndexes != nil {
		c.NeverIndexes = t.NeverIndexes
		c.Notes = append(c.Notes, "expected never-indexed as its HPACK library sends them: "+t.NeverIndexes.String())
	}
}

// noLarge returns why the target is certified without the response of
// 16 KiB strings, over HTTP/1.1 or h2c to the origin, or "".
func (t *TargetSpec) noLarge(originH2C bool) string {
	if originH2C {
		return t.NoLargeH2COrigin
	}
	return t.NoLarge
}

// h2cOriginTargets names the proxies that can reach the origin over h2c.
func h2cOriginTargets() []string {
	var out []string
	for _, t := range targets {
		if t.H2COrigin {
			out = append(out, t.Name)
		}
	}
	return out
}

func transport(tlsOn bool) string {
	if tlsOn {
		return "TLS"
	}
	return "h2c"
}

// startFramerServer serves the script with hpackcert's own Framer server
// and the given encoder (nil: the reference encoder).
func startFramerServer(env *startEnv, srv *live.Server) (*running, error) {
	if srv == nil {
		srv = &live.Server{}
	}
	srv.Script = env.origin.Script()
	return serveOnLoopback(env, srv)
}
