package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify/livegrade"
	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/source/live/targets"
)

var liveCommand = &command{
	Name:      "live",
	Grades:    true,
	UsageLine: "hpackcert live [flags]",
	Short:     "grade HTTP/2 servers, proxies and clients over the wire",
	Long: `Live grades the HPACK encoders of HTTP/2 servers, proxies and clients over the
wire: it captures the header blocks each target writes and grades them as run
grades recorded wire. The Markdown report (--md) is the live section: targets,
transformations, notes, then the matrix. A live target is driven (hpackcert sends
its requests and settings), so, as in run, a MUST case it leaves unsupported fails
the run unless --declare-unsupported or an "unsupported CASES: REASON" line of the
--expect-fail file declares it.`,
	Flags: func(fs *flagSet) func(stdout, stderr io.Writer) (int, error) {
		l := declareLive(fs)
		return func(stdout, _ io.Writer) (int, error) { return l.run(stdout) }
	},
}

// liveSpec is one target named on the command line, in order.
type liveSpec struct {
	kind, value, name string
	transform         live.Transform
}

// liveFlags are the flags of live.
type liveFlags struct {
	specs []liveSpec
	// name and transform apply to the next --server, --proxy or --client.
	name      string
	transform live.Transform

	origin                    originFlag
	scripted, tlsOn           bool
	stories, blocks, requests int
	stepTimeout, timeout      time.Duration
	skipMissing               bool
	grade                     gradeFlags
	reports                   reportFlags
}

// declareLive declares the flags of live on fs.
func declareLive(fs *flagSet) *liveFlags {
	l := &liveFlags{}
	add := func(kind string) func(string) error {
		return func(v string) error {
			l.specs = append(l.specs, liveSpec{kind: kind, value: v, name: l.name, transform: l.transform})
			l.name, l.transform = "", live.Transform{}
			return nil
		}
	}
	fs.section("targets (repeatable, one matrix)", func() {
		fs.Func("target", targetFlagHelp(), add("target"))
		fs.Func("server", "`URL` an HTTP/2 server you run: http://HOST:PORT (h2c, prior knowledge) or https://HOST:PORT (TLS, ALPN h2); its header lists are unknown unless --scripted", add("server"))
		fs.Func("proxy", "`URL` an HTTP/2 proxy you run, forwarding to --origin, where hpackcert runs the origin", add("proxy"))
		fs.Func("client", "`'CMD {urls}'` a client command line: {urls} becomes the URLs, one word each; {url} the next URL; {headers} -H 'name: value' options, the fields hpackcert asks the client to add", add("client"))
	})
	fs.section("live flags", func() {
		fs.Var(&l.origin, "origin", "`ADDR|fd:N` where hpackcert's origin listens for --proxy: a loopback address (e.g. 127.0.0.1:8081), or fd:N, a listening loopback TCP socket hpackcert inherits as descriptor N (the program that starts hpackcert opens it on port 0, gives the proxy its address, and hands it down, e.g. as exec.Cmd.ExtraFiles[0], fd:3)")
		fs.BoolVar(&l.scripted, "scripted", false, "the --server answers /hpackcert/C/S with the origin's lists")
		fs.Func("transform", "`SPEC` what the next --server, --proxy or --client does to the lists, in "+live.TransformSyntax+"; e.g. 'drop=keep-alive;add=date;set=server,accept-ranges;drop-empty'. A field changed otherwise is reported under enc/3.2/x as an undeclared transformation", func(v string) error {
			t, err := live.ParseTransform(v)
			l.transform = t
			return err
		})
		fs.Func("name", "`NAME` report name of the next --server, --proxy or --client (default: its URL or program)", func(v string) error { l.name = v; return nil })
		fs.BoolVar(&l.tlsOn, "tls", false, "--target and --client over TLS with ALPN h2 on a certificate hpackcert makes")
		fs.IntVar(&l.stories, "stories", targets.DefaultStories, "`N` traffic response stories, one connection each")
		fs.IntVar(&l.blocks, "blocks", targets.DefaultBlocks, "`N` requests per story")
		fs.IntVar(&l.requests, "requests", live.DefaultRequests, "`N` requests asked of a client with {urls}")
		fs.DurationVar(&l.stepTimeout, "step-timeout", live.DefaultStepTimeout, "`D` bound on one request and its settings")
		fs.DurationVar(&l.timeout, "timeout", targets.DefaultTimeout, "`D` bound on one target, start to stop")
		fs.BoolVar(&l.skipMissing, "skip-missing", false, "leave out, with a note, a --target whose program is not installed")
	})
	l.grade.declare(fs)
	l.reports.declare(fs, false)
	return l
}

// liveCmd runs the live command with args.
func liveCmd(args []string, stdout io.Writer) (int, error) {
	fs := newFlags(liveCommand.Name)
	l := declareLive(fs)
	if err := parse(fs, liveCommand, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			liveCommand.printHelp(stdout)
			return 0, nil
		}
		return exitHarness, err
	}
	return l.run(stdout)
}

// run captures what each target writes and grades it as run grades
// recorded wire.
func (l *liveFlags) run(stdout io.Writer) (int, error) {
	specs, name, transform := l.specs, l.name, l.transform
	if len(specs) == 0 {
		return exitHarness, &usageError{"live needs a --target, --server, --proxy or --client (see hpackcert live --help)"}
	}
	if name != "" || !transform.None() {
		return exitHarness, &usageError{"--name and --transform apply to the --server, --proxy or --client that follows them"}
	}
	for _, l := range []struct {
		flag string
		n    int
	}{{"--stories", l.stories}, {"--blocks", l.blocks}, {"--requests", l.requests}} {
		if l.n <= 0 {
			return exitHarness, &usageError{fmt.Sprintf("%s %d: must be positive", l.flag, l.n)}
		}
	}
	if l.stepTimeout <= 0 || l.timeout <= 0 {
		return exitHarness, &usageError{"--step-timeout and --timeout must be positive"}
	}
	opts, err := l.grade.options()
	if err != nil {
		return exitHarness, err
	}
	script, err := live.DefaultScript(l.stories, l.blocks)
	if err != nil {
		return exitHarness, err
	}
	lo := targets.Options{TLS: l.tlsOn, Script: script, StepTimeout: l.stepTimeout, Requests: l.requests, Timeout: l.timeout}
	// Every target is checked before any starts, and every report path
	// created, so that a mistake stops the run at once.
	for _, s := range specs {
		if err := checkLiveSpec(s, l.origin.given()); err != nil {
			return exitHarness, err
		}
	}
	files, err := l.reports.create()
	if err != nil {
		return exitHarness, err
	}
	defer files.close()
	var captures []*live.Capture
	var skipped []string
	for _, s := range specs {
		c, err := captureLive(s, lo, &l.origin, l.scripted)
		if errors.Is(err, targets.ErrNotInstalled) && l.skipMissing {
			skipped = append(skipped, fmt.Sprintf("%s: %v", s.value, err))
			continue
		}
		if err != nil {
			return exitHarness, fmt.Errorf("--%s %s: %w", s.kind, s.value, err)
		}
		captures = append(captures, c)
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "left out: %s\n", s)
	}
	if len(captures) == 0 {
		return exitHarness, errors.New("live: every target was left out: nothing to grade")
	}
	// A target that stopped before its schedule ended is graded on the
	// blocks it wrote, its breakdown its one failure (certify.Report.Failed).
	rep, err := livegrade.Grade(live.Transcripts(captures), live.ScheduleText(), opts)
	return files.finish(stdout, rep, err)
}

// checkLiveSpec checks a target before anything starts.
func checkLiveSpec(s liveSpec, origin bool) error {
	switch s.kind {
	case "target":
		name, _, err := targetOptions(s.value, targets.Options{})
		if err != nil {
			return err
		}
		_, err = targets.LookupTarget(name)
		return err
	case "server", "proxy":
		u, err := url.Parse(s.value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &usageError{fmt.Sprintf("--%s %q: want http://HOST:PORT (h2c) or https://HOST:PORT (TLS)", s.kind, s.value)}
		}
		if s.kind == "proxy" && !origin {
			return &usageError{"--proxy needs --origin ADDR or fd:N, where the origin the proxy forwards to listens"}
		}
	case "client":
		_, err := live.ParseCommand(s.value)
		return err
	}
	return nil
}

// targetOptions splits "NAME:OPTION:..." into the target's name and lo
// with the options set.
func targetOptions(value string, lo targets.Options) (string, targets.Options, error) {
	name, rest, _ := strings.Cut(value, ":")
	for _, opt := range strings.Split(rest, ":") {
		switch opt {
		case "":
		case "tls":
			lo.TLS = true
		case "h2c-origin":
			lo.OriginH2C = true
		default:
			return "", lo, &usageError{fmt.Sprintf("--target %s: unknown option %q (want tls or h2c-origin)", value, opt)}
		}
	}
	return name, lo, nil
}

// captureLive captures one target of the command line.
func captureLive(s liveSpec, lo targets.Options, origin *originFlag, scripted bool) (*live.Capture, error) {
	if s.kind == "target" {
		name, lo, err := targetOptions(s.value, lo)
		if err != nil {
			return nil, err
		}
		t, err := targets.LookupTarget(name)
		if err != nil {
			return nil, err
		}
		c, err := targets.Capture(context.Background(), t, lo)
		if err == nil {
			// NAME:OPTION is reported as NAME-OPTION.
			c.Name = strings.ReplaceAll(s.value, ":", "-")
		}
		return c, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), lo.Timeout)
	defer cancel()
	began := time.Now()
	c := &live.Capture{Name: s.name, Role: s.kind, Where: s.value, Transform: s.transform, Transport: "h2c"}
	if c.Name == "" {
		c.Name = s.value
	}
	var err error
	switch s.kind {
	case "client":
		cmd, perr := live.ParseCommand(s.value)
		if perr != nil {
			return nil, perr
		}
		if s.name == "" {
			c.Name = cmd.Args[0]
		}
		if s.transform.None() {
			c.Transform = targets.ClientTransform()
		}
		if lo.TLS {
			c.Transport = "TLS"
		}
		// The runs of a client target: the first, the same again, the
		// steady one, and the generated one for a line with {headers}.
		first, co, notes, rerr := targets.CommandClientRuns(c.Name, cmd, lo.TLS)
		if rerr != nil {
			return nil, rerr
		}
		c.Notes = append(c.Notes, notes...)
		co.Requests, co.Timeout, co.StepTimeout = first.Requests(lo.Requests), lo.Timeout, lo.StepTimeout
		c.Conns, err = live.CaptureClient(ctx, co)
	case "server", "proxy":
		if strings.HasPrefix(s.value, "https:") {
			c.Transport = "TLS"
		}
		known := scripted
		var o *live.Origin
		if s.kind == "proxy" {
			var oerr error
			if o, oerr = origin.start(lo.Script); oerr != nil {
				return nil, oerr
			}
			defer o.Close()
			known = true
		}
		c.Conns, err = live.CaptureServer(ctx, live.ServerOptions{URL: s.value, Script: lo.Script, Known: known, StepTimeout: lo.StepTimeout})
		if o != nil && err == nil {
			// A proxy of yours, as a catalogued one: the origin says what
			// it served, and never-indexed fields it sent over h2c are
			// graded as relayed.
			o.Relayed(c)
		}
	}
	c.Elapsed = time.Since(began)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// targetFlagHelp is the help of --target, its names taken from the
// catalogue (targets.Targets), so that it lists every target the flag
// takes.
func targetFlagHelp() string {
	byRole := map[string][]string{}
	var inProcess, h2cOrigin []string
	for _, t := range targets.Targets() {
		byRole[t.Role] = append(byRole[t.Role], t.Name)
		if t.Package == "" {
			inProcess = append(inProcess, t.Name)
		}
		if t.H2COrigin {
			h2cOrigin = append(h2cOrigin, t.Name)
		}
	}
	return fmt.Sprintf("`NAME[:OPTION]` a target hpackcert starts on loopback and stops: the servers %s; the proxies (of hpackcert's origin) %s; the clients %s (%s in process, the others from their installed package); NAME:tls runs that one over TLS, NAME:h2c-origin has a proxy reach the origin over h2c (%s); reported as NAME-tls, NAME-h2c-origin",
		strings.Join(byRole[live.RoleServer], ", "), strings.Join(byRole[live.RoleProxy], ", "), strings.Join(byRole[live.RoleClient], ", "),
		strings.Join(inProcess, ", "), strings.Join(h2cOrigin, ", "))
}
