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

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/live"
)

// liveUsage is the help of the live command.
const liveUsage = `usage: hpackcert live [flags]   grade the HPACK encoders of HTTP/2 servers, proxies and clients over the wire

targets (repeatable, one matrix):
  --target NAME[:OPTION]   a target hpackcert starts on loopback and stops: ref-server, go-server, go-proxy,
                           go-client (in process), nginx, h2o, haproxy, nghttpx, apache2, caddy (Debian, as
                           reverse proxies of hpackcert's origin), curl, nghttp (Debian clients); NAME:tls
                           runs that one over TLS, NAME:h2c-origin has a proxy reach the origin over h2c
                           (go-proxy, haproxy, nghttpx, apache2, caddy); reported as NAME-tls, NAME-h2c-origin
  --server URL             an HTTP/2 server you run: http://HOST:PORT (h2c, prior knowledge) or
                           https://HOST:PORT (TLS, ALPN h2); its header lists are unknown unless --scripted
  --proxy URL              an HTTP/2 proxy you run, forwarding to --origin, where hpackcert runs the origin
  --client 'CMD {urls}'    a client command line: {urls} becomes the URLs, one word each; {url} the next URL
live flags:
  --origin ADDR            loopback address of the origin for --proxy (e.g. 127.0.0.1:8081)
  --scripted               the --server answers /hpackcert/C/S with the origin's lists
  --transform SPEC         what a --server, --proxy or --client does to the lists: drop=a,b;add=c;replace=d
  --name NAME              report name of the next --server, --proxy or --client (default: its URL or program)
  --tls                    --target and --client over TLS with ALPN h2 on a certificate hpackcert makes
  --stories N              traffic response stories, one connection each (default 10)
  --blocks N               requests per story (default 64)
  --requests N             requests asked of a client with {urls} (default 9)
  --step-timeout D         bound on one request and its settings (default 10s)
  --timeout D              bound on one target, start to stop (default 2m)
  --skip-missing           leave out, with a note, a --target whose program is not installed
report flags, as for run: --cases, --strict, --expect-fail, --json, --junit, --html,
  --md FILE (the live section: targets, transformations, notes, then the matrix)
exit status: 0 nothing failed, 1 a case failed, 2 the run could not happen
`

// liveSpec is one target named on the command line, in order.
type liveSpec struct {
	kind, value, name string
	transform         live.Transform
}

// liveCmd runs the live command: it captures what each target writes and
// grades it as run grades recorded wire.
func liveCmd(args []string, stdout io.Writer) (int, error) {
	fs := newFlagSet("live")
	var specs []liveSpec
	var name string
	var transform live.Transform
	add := func(kind string) func(string) error {
		return func(v string) error {
			specs = append(specs, liveSpec{kind: kind, value: v, name: name, transform: transform})
			name, transform = "", live.Transform{}
			return nil
		}
	}
	fs.Func("target", "target started by hpackcert", add("target"))
	fs.Func("server", "HTTP/2 server URL", add("server"))
	fs.Func("proxy", "HTTP/2 proxy URL", add("proxy"))
	fs.Func("client", "client command line", add("client"))
	fs.Func("name", "report name of the next --server, --proxy or --client", func(v string) error { name = v; return nil })
	fs.Func("transform", "declared transformation of the next --server, --proxy or --client", func(v string) error {
		t, err := live.ParseTransform(v)
		transform = t
		return err
	})
	origin := fs.String("origin", "", "loopback address of the origin behind --proxy")
	scripted := fs.Bool("scripted", false, "the --server answers with the origin's lists")
	tlsOn := fs.Bool("tls", false, "targets and clients over TLS")
	stories := fs.Int("stories", live.DefaultStories, "traffic response stories")
	blocks := fs.Int("blocks", live.DefaultBlocks, "requests per story")
	requests := fs.Int("requests", live.DefaultRequests, "requests asked of a client")
	stepTimeout := fs.Duration("step-timeout", live.DefaultStepTimeout, "bound on one request")
	timeout := fs.Duration("timeout", live.DefaultTimeout, "bound on one target")
	skipMissing := fs.Bool("skip-missing", false, "leave out targets that are not installed")
	var cases listFlag
	fs.Var(&cases, "cases", "case id prefix")
	strict := fs.Bool("strict", false, "non-strict grades fail")
	expectFail := fs.String("expect-fail", "", "expected failures file")
	jsonOut := fs.String("json", "", "JSON report file")
	junitOut := fs.String("junit", "", "JUnit XML report file")
	htmlOut := fs.String("html", "", "HTML report file")
	mdOut := fs.String("md", "", "Markdown live section file")
	if err := parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, liveUsage)
			return 0, nil
		}
		return 2, err
	}
	if len(specs) == 0 {
		return 2, &usageError{"live needs a --target, --server, --proxy or --client (see hpackcert live --help)"}
	}
	if name != "" || len(transform.Add)+len(transform.Drop)+len(transform.Replace) > 0 {
		return 2, &usageError{"--name and --transform apply to the --server, --proxy or --client that follows them"}
	}
	for _, l := range []struct {
		flag string
		n    int
	}{{"--stories", *stories}, {"--blocks", *blocks}, {"--requests", *requests}} {
		if l.n <= 0 {
			return 2, &usageError{fmt.Sprintf("%s %d: must be positive", l.flag, l.n)}
		}
	}
	if *stepTimeout <= 0 || *timeout <= 0 {
		return 2, &usageError{"--step-timeout and --timeout must be positive"}
	}
	opts := certify.Options{Strict: *strict, Cases: splitCases(cases)}
	if _, err := certify.SelectCases(opts.Cases); err != nil {
		return 2, err
	}
	if *expectFail != "" {
		list, err := certify.ReadExpectFail(*expectFail)
		if err != nil {
			return 2, err
		}
		opts.ExpectFail = list
	}
	script, err := live.DefaultScript(*stories, *blocks)
	if err != nil {
		return 2, err
	}
	lo := live.Options{TLS: *tlsOn, Script: script, StepTimeout: *stepTimeout, Requests: *requests, Timeout: *timeout}
	// Every target is checked before any starts, and every report path
	// created, so that a mistake stops the run at once.
	for _, s := range specs {
		if err := checkLiveSpec(s, *origin); err != nil {
			return 2, err
		}
	}
	outputs, err := createOutputs(map[string]string{"json": *jsonOut, "junit": *junitOut, "html": *htmlOut, "md": *mdOut})
	if err != nil {
		return 2, err
	}
	defer func() {
		for _, o := range outputs {
			o.close()
		}
	}()
	var captures []*live.Capture
	var skipped []string
	for _, s := range specs {
		c, err := captureLive(s, lo, *origin, *scripted)
		if errors.Is(err, live.ErrNotInstalled) && *skipMissing {
			skipped = append(skipped, fmt.Sprintf("%s: %v", s.value, err))
			continue
		}
		if err != nil {
			return 2, fmt.Errorf("--%s %s: %w", s.kind, s.value, err)
		}
		captures = append(captures, c)
	}
	for _, s := range skipped {
		fmt.Fprintf(stdout, "left out: %s\n", s)
	}
	if len(captures) == 0 {
		return 2, errors.New("live: every target was left out: nothing to grade")
	}
	rep, err := live.Grade(captures, opts)
	if err != nil {
		return 2, err
	}
	if err := live.WriteSummary(stdout, captures); err != nil {
		return 2, err
	}
	if err := rep.WriteText(stdout); err != nil {
		return 2, err
	}
	writers := map[string]func(io.Writer) error{
		"json": rep.WriteJSON, "junit": rep.WriteJUnit, "html": rep.WriteHTML,
		"md": func(w io.Writer) error { return live.WriteMarkdown(w, captures, rep) },
	}
	for _, o := range outputs {
		if err := o.write(writers[o.kind]); err != nil {
			return 2, err
		}
	}
	if rep.Failed() {
		return 1, nil
	}
	return 0, nil
}

// checkLiveSpec checks a target before anything starts.
func checkLiveSpec(s liveSpec, origin string) error {
	switch s.kind {
	case "target":
		name, _, err := targetOptions(s.value, live.Options{})
		if err != nil {
			return err
		}
		_, err = live.LookupTarget(name)
		return err
	case "server", "proxy":
		u, err := url.Parse(s.value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &usageError{fmt.Sprintf("--%s %q: want http://HOST:PORT (h2c) or https://HOST:PORT (TLS)", s.kind, s.value)}
		}
		if s.kind == "proxy" && origin == "" {
			return &usageError{"--proxy needs --origin ADDR, the loopback address the proxy forwards to"}
		}
	case "client":
		_, err := live.ParseCommand(s.value)
		return err
	}
	return nil
}

// targetOptions splits "NAME:OPTION:..." into the target's name and lo
// with the options set.
func targetOptions(value string, lo live.Options) (string, live.Options, error) {
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
func captureLive(s liveSpec, lo live.Options, origin string, scripted bool) (*live.Capture, error) {
	if s.kind == "target" {
		name, lo, err := targetOptions(s.value, lo)
		if err != nil {
			return nil, err
		}
		t, err := live.LookupTarget(name)
		if err != nil {
			return nil, err
		}
		c, err := live.Certify(context.Background(), t, lo)
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
		if len(s.transform.Add)+len(s.transform.Drop)+len(s.transform.Replace) == 0 {
			c.Transform = live.ClientTransform()
		}
		if lo.TLS {
			c.Transport = "TLS"
		}
		c.Conns, err = live.CaptureClient(ctx, live.ClientOptions{
			Run: cmd.Run, Requests: cmd.Requests(lo.Requests), Headers: cmd.Headers, TLS: lo.TLS, Timeout: lo.Timeout, StepTimeout: lo.StepTimeout,
		})
	case "server", "proxy":
		if strings.HasPrefix(s.value, "https:") {
			c.Transport = "TLS"
		}
		known := scripted
		if s.kind == "proxy" {
			o, oerr := live.StartOrigin(origin, lo.Script)
			if oerr != nil {
				return nil, oerr
			}
			defer o.Close()
			known = true
		}
		c.Conns, err = live.CaptureServer(ctx, live.ServerOptions{URL: s.value, Script: lo.Script, Known: known, StepTimeout: lo.StepTimeout})
	}
	c.Elapsed = time.Since(began)
	if err != nil {
		return nil, err
	}
	return c, nil
}
