package targets

import (
	"context"
	"embed"
	"fmt"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"time"

	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/vectors"
)

// conf holds the minimal configuration of each Debian server and proxy,
// a text/template filled in with confData.
//
//go:embed conf
var conf embed.FS

// confData is what a configuration template is given.
type confData struct {
	Dir        string // the target's own temporary directory
	Addr       string // 127.0.0.1:Port, where it listens
	Port       int
	Origin     string // 127.0.0.1:OriginPort, hpackcert's origin
	OriginPort int
	OriginH2C  bool   // reach the origin over h2c rather than HTTP/1.1
	TLS        bool   // listen with TLS (ALPN h2) rather than h2c
	Cert, Key  string // PEM files, with TLS
	Root       bool   // running as root: servers that drop privileges need a user
}

// debianProxy returns the start function of a Debian server configured
// as a reverse proxy by the template conf/name; command gives the program
// and its arguments for the written configuration file, and what it adds
// to the environment.
func debianProxy(name string, command func(d confData, confPath string) (argv, env []string)) func(env *startEnv) (*running, error) {
	return configuredProxy([]string{name}, func(d confData) ([]string, []string, error) {
		argv, env := command(d, filepath.Join(d.Dir, path.Base(name)))
		return argv, env, nil
	})
}

// versionCommands are the arguments that make each program print its
// version.
var versionCommands = map[string][]string{
	"nginx":   {"-v"},
	"h2o":     {"--version"},
	"haproxy": {"-v"},
	"nghttpx": {"--version"},
	"apache2": {"-v"},
	"caddy":   {"version"},
	"curl":    {"--version"},
	"nghttp":  {"--version"},
}

var versionNumber = regexp.MustCompile(`\d+\.\d+(\.\d+)?`)

// programVersion returns the version a target's program prints, or "".
func programVersion(t *TargetSpec) string {
	args, ok := versionCommands[t.Binary]
	if !ok {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, t.Binary, args...).CombinedOutput()
	return versionNumber.FindString(string(out))
}

// debianTargets are the servers, proxies and clients of Debian.
var debianTargets = []TargetSpec{
	{
		Name: "nginx", Role: live.RoleProxy, Package: "nginx-light", Binary: "nginx",
		Encoder:   "nginx's own (ngx_http_v2)",
		Transform: live.Transform{Drop: []string{"x-pad"}, Replace: []string{"date", "server", "content-type"}, Why: "nginx does not pass the origin's date, server and x-pad but sets its own date and server, and rebuilds content-type from the type and charset it parsed, one field"},
		inherits:  true,
		// nginx takes the sockets NGINX lists, as it hands them to the
		// binary of a live upgrade, for the listen directives of their
		// address.
		start: debianProxy("nginx.conf", func(d confData, path string) ([]string, []string) {
			return []string{"nginx", "-p", d.Dir, "-c", path, "-e", filepath.Join(d.Dir, "error.log")}, []string{fmt.Sprintf("NGINX=%d;", inheritedFD)}
		}),
	},
	{
		Name: "h2o", Role: live.RoleProxy, Package: "h2o", Binary: "h2o",
		Encoder:   "h2o's own (lib/http2/hpack.c)",
		Transform: live.Transform{Replace: []string{"server", "date"}, Why: "h2o puts its own server and date first, in place of the origin's"},
		inherits:  true,
		// h2o takes the sockets Server::Starter's variable lists, for the
		// listen entries of their address.
		start: debianProxy("h2o.conf", func(d confData, path string) ([]string, []string) {
			return []string{"h2o", "-c", path}, []string{fmt.Sprintf("SERVER_STARTER_PORT=%s=%d", d.Addr, inheritedFD)}
		}),
	},
	{
		Name: "haproxy", Role: live.RoleProxy, H2COrigin: true, Package: "haproxy", Binary: "haproxy",
		NoLargeH2COrigin: "HAProxy refuses the stream (RST_STREAM REFUSED_STREAM) of a response from an h2c origin whose fields do not fit its 16 KiB buffer",
		Encoder:          "HAProxy's own (src/hpack-enc.c)",
		inherits:         true, // bind fd@3 in conf/haproxy.cfg
		start: debianProxy("haproxy.cfg", func(d confData, path string) ([]string, []string) {
			return []string{"haproxy", "-db", "-f", path}, nil
		}),
	},
	{
		Name: "nghttpx", Role: live.RoleProxy, H2COrigin: true, Package: "nghttp2-proxy", Binary: "nghttpx",
		NoLargeH2COrigin: "nghttpx resets the stream (RST_STREAM INTERNAL_ERROR) of a response from an h2c origin with fields of 16 KiB",
		Encoder:          "libnghttp2's deflater",
		NeverIndexes:     Nghttp2NeverIndex,
		Transform:        live.Transform{Drop: []string{"cookie"}, Replace: []string{"server", "via"}, Why: "nghttpx drops a response's cookie, puts its own name in server and appends itself to via"},
		inherits:         true,
		// nghttpx takes the sockets NGHTTPX_ACCEPT_N name, as its own
		// reload hands them down, for the frontends of their address.
		start: debianProxy("nghttpx.conf", func(d confData, path string) ([]string, []string) {
			return []string{"nghttpx", "--conf=" + path}, []string{fmt.Sprintf("NGHTTPX_ACCEPT_1=tcp,%d", inheritedFD)}
		}),
	},
	{
		Name: "apache2", Role: live.RoleProxy, H2COrigin: true, Package: "apache2", Binary: "apache2",
		NoLarge:          "httpd resets the stream (RST_STREAM PROTOCOL_ERROR) of a response with a field of 16 KiB",
		NoLargeH2COrigin: "httpd resets the stream (RST_STREAM PROTOCOL_ERROR) of a response with a field of 16 KiB",
		Encoder:          "libnghttp2's deflater (mod_http2)",
		NeverIndexes:     Nghttp2NeverIndex,
		Transform:        live.Transform{Add: []string{"server"}, Replace: []string{"date", "expires", "last-modified", "content-type", "vary"}, Why: "httpd adds server when the origin gives none, rewrites date, expires and last-modified in the preferred date format (adding date), keeps one content-type and merges repeated vary fields into one"},
		start: debianProxy("apache2.conf", func(d confData, path string) ([]string, []string) {
			return []string{"apache2", "-f", path, "-DFOREGROUND"}, nil
		}),
	},
	{
		Name: "caddy", Role: live.RoleProxy, H2COrigin: true, Package: "caddy", Binary: "caddy",
		Encoder:   "Go net/http's HTTP/2 (x/net hpack, bundled)",
		Transform: live.Transform{Add: []string{"date", "content-type"}, Replace: []string{"server"}, Why: "Caddy sets server to Caddy, and net/http adds date and a sniffed content-type when none is given"},
		start: debianProxy("Caddyfile", func(d confData, path string) ([]string, []string) {
			return []string{"caddy", "run", "--config", path, "--adapter", "caddyfile"}, nil
		}),
	},
	{
		Name: "curl", Role: live.RoleClient, Package: "curl", Binary: "curl",
		Encoder: "libnghttp2's deflater", Transform: clientTransform, fields: newClientFields("curl", false, nil),
		NeverIndexes: Nghttp2NeverIndex,
		NoH2C:        "curl 7.88.1 fails (exit status 16, \"Error in the HTTP2 framing layer\") on the second request it makes on an h2c connection with prior knowledge, whatever the server",
		client: commandClient(
			"curl --silent --show-error --http2-prior-knowledge {headers} {urls}",
			"curl --silent --show-error --http2 --insecure {headers} {urls}"),
	},
	{
		Name: "nghttp", Role: live.RoleClient, Package: "nghttp2-client", Binary: "nghttp",
		Encoder: "libnghttp2's deflater", Transform: clientTransform, fields: newClientFields("nghttp", false, nil),
		NeverIndexes: Nghttp2NeverIndex,
		client: commandClient(
			"nghttp --null-out --peer-max-concurrent-streams=1 {headers} {urls}",
			""),
	},
}

// commandClient returns the client function of a client run from a
// command line, one for h2c and one for TLS (the same when tlsLine is
// empty); each word {headers} of it (live.HeadersWord) becomes the -H
// options of the run's fields.
func commandClient(h2cLine, tlsLine string) clientFunc {
	return func(tlsOn bool, headers []vectors.Field) (*live.ClientCommand, func(context.Context, []string) error, error) {
		line := h2cLine
		if tlsOn && tlsLine != "" {
			line = tlsLine
		}
		cmd, err := live.ParseCommand(line)
		if err != nil {
			return nil, nil, err
		}
		cmd = cmd.WithHeaders(headers)
		return cmd, cmd.Run, nil
	}
}

func init() {
	targets = append(targets, debianTargets...)
	for i := range targets {
		if targets[i].Binary != "" {
			t := &targets[i]
			t.version = func() string { return programVersion(t) }
		}
	}
}
