package targets

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"text/template"

	"github.com/hpackcert/hpackcert/source/live"
)

// proxies2 are more Debian reverse proxies whose HPACK encoder is neither
// libnghttp2's nor Go's: lighttpd (ls-hpack), Varnish and Apache Traffic
// Server (each its own).
var proxies2 = []TargetSpec{
	{
		Name: "lighttpd", Role: live.RoleProxy, Package: "lighttpd", Binary: "lighttpd",
		NoLarge: "lighttpd answers 502 (\"response headers too large\") when a backend's response header exceeds its fixed 65535 octets (MAX_HTTP_RESPONSE_FIELD_SIZE); the response of 16 KiB strings has 128 KB",
		Encoder: "ls-hpack (LiteSpeed's, bundled in lighttpd's src/ls-hpack)",
		Transform: live.Transform{
			Add: []string{"accept-ranges", "date", "server"}, Replace: []string{"content-type"}, DropEmpty: true,
			Why: "lighttpd drops every field with an empty value, adds accept-ranges, date and server after the origin's fields when they are missing, and rewrites a content-type of application/javascript as text/javascript",
		},
		inherits: true,
		// lighttpd takes the socket as systemd's socket activation hands
		// it down: LISTEN_FDS, and LISTEN_PID its own pid, which the
		// shell that execs it knows.
		start: configuredProxy([]string{"lighttpd.conf"}, func(d confData) ([]string, []string, error) {
			return []string{"sh", "-c", `LISTEN_PID=$$ exec "$0" "$@"`, "lighttpd", "-D", "-f", filepath.Join(d.Dir, "lighttpd.conf")}, []string{"LISTEN_FDS=1"}, nil
		}),
	},
	{
		Name: "varnish", Role: live.RoleProxy, Package: "varnish", Binary: "varnishd",
		Encoder: "Varnish's own (h2_build_headers in bin/varnishd/http2/cache_http2_deliver.c)",
		Transform: live.Transform{
			Add: []string{"date"}, Replace: []string{"x-varnish", "age", "via", "cache-control", "vary"},
			Why: "Varnish adds date when the origin gives none, appends x-varnish, age and its via, and joins repeated cache-control and vary fields into one",
		},
		start: configuredProxy([]string{"varnish.vcl"}, func(d confData) ([]string, []string, error) {
			return []string{"varnishd", "-F", "-n", filepath.Join(d.Dir, "varnish"),
				"-a", d.Addr, "-f", filepath.Join(d.Dir, "varnish.vcl"), "-T", "none", "-s", "malloc,64m",
				"-p", "feature=+http2",
				// No 503 for a content-range on a 200 (the script has one).
				"-p", "http_range_support=off",
				// Room for the script's fields of 30,000 octets and its
				// blocks of many fields.
				"-p", "http_resp_hdr_len=65536", "-p", "http_resp_size=262144",
				"-p", "workspace_backend=1m", "-p", "workspace_client=1m", "-p", "http_max_hdr=256",
			}, nil, nil
		}),
	},
	{
		Name: "trafficserver", Role: live.RoleProxy, Package: "trafficserver", Binary: "traffic_server",
		NoH2C:   "Traffic Server 9.2 serves HTTP/2 over TLS only",
		Encoder: "Traffic Server's own (proxy/http2/HPACK.cc)",
		Transform: live.Transform{
			Replace: []string{"date", "age", "server"},
			Why:     "Traffic Server keeps the origin's date but sets one when it is missing or empty, sets age to the age it computes from the origin's date and age, and puts its own name in server",
		},
		start: configuredProxy(trafficserverConf, func(d confData) ([]string, []string, error) {
			if err := os.MkdirAll(filepath.Join(d.Dir, "cache"), 0o755); err != nil {
				return nil, nil, err
			}
			return []string{"traffic_server"}, []string{"TS_RUNROOT=" + filepath.Join(d.Dir, "runroot.yaml")}, nil
		}),
	},
}

// trafficserverConf is Traffic Server's configuration directory, with
// the runroot.yaml that points it there.
var trafficserverConf = []string{
	"trafficserver/runroot.yaml", "trafficserver/records.config", "trafficserver/remap.config",
	"trafficserver/ssl_multicert.config", "trafficserver/ip_allow.yaml", "trafficserver/storage.config",
}

// configuredProxy returns the start function of a Debian proxy configured
// by the templates conf/NAME of names, each filled in with confData and
// written to the target's directory under the last element of NAME;
// command gives the program, its arguments and what it adds to the
// environment, or why it cannot start. The port comes from
// startListening: handed down as a socket to a program that takes one
// (TargetSpec.inherits), else written into the configuration, each start
// with its own.
func configuredProxy(names []string, command func(d confData) (argv, env []string, err error)) func(env *startEnv) (*running, error) {
	return func(env *startEnv) (*running, error) {
		_, originPort, _ := net.SplitHostPort(env.origin.Addr())
		d := confData{
			Dir: env.dir, Origin: env.origin.Addr(), TLS: env.tls, OriginH2C: env.originH2C, Root: os.Geteuid() == 0,
		}
		d.OriginPort, _ = strconv.Atoi(originPort)
		if env.tls {
			d.Cert, d.Key = filepath.Join(env.dir, "cert.pem"), filepath.Join(env.dir, "key.pem")
			// Some programs take the key and the certificate in one file.
			for path, data := range map[string][]byte{
				d.Cert:                               env.cert.CertPEM,
				d.Key:                                env.cert.KeyPEM,
				filepath.Join(env.dir, "bundle.pem"): append(append([]byte(nil), env.cert.CertPEM...), env.cert.KeyPEM...),
			} {
				if err := os.WriteFile(path, data, 0o644); err != nil {
					return nil, err
				}
			}
		}
		run, err := startListening(env, func(l *listening) (*running, error) {
			d.Addr, d.Port = l.Addr, l.Port
			if err := writeConf(names, d); err != nil {
				return nil, err
			}
			argv, extraEnv, err := command(d)
			if err != nil {
				return nil, err
			}
			extraEnv = append([]string{"HOME=" + env.dir, "XDG_DATA_HOME=" + env.dir, "XDG_CONFIG_HOME=" + env.dir}, extraEnv...)
			return startProcess(env, l, extraEnv, argv[0], argv[1:]...)
		})
		if err != nil {
			return nil, err
		}
		run.url = "http://" + d.Addr
		if env.tls {
			run.url = "https://" + d.Addr
		}
		run.version = programVersion(env.spec)
		return run, nil
	}
}

// writeConf fills in the templates conf/NAME of names with d and writes
// each to d.Dir under the last element of NAME.
func writeConf(names []string, d confData) error {
	for _, name := range names {
		text, err := conf.ReadFile("conf/" + name)
		if err != nil {
			return err
		}
		tmpl, err := template.New(name).Option("missingkey=error").Parse(string(text))
		if err != nil {
			return fmt.Errorf("conf/%s: %w", name, err)
		}
		var b bytes.Buffer
		if err := tmpl.Execute(&b, d); err != nil {
			return fmt.Errorf("conf/%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(d.Dir, path.Base(name)), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func init() {
	versionCommands["lighttpd"] = []string{"-v"}
	versionCommands["varnishd"] = []string{"-V"}
	versionCommands["traffic_server"] = []string{"-V"}
	first := len(targets)
	targets = append(targets, proxies2...)
	for i := first; i < len(targets); i++ {
		t := &targets[i]
		t.version = func() string { return programVersion(t) }
	}
}
