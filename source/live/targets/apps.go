package targets

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/vectors"
)

// appFiles holds the small programs the targets built from language
// runtimes run (Node, Bun, Python with hypercorn or grpcio): each is
// written to the target's temporary directory before it starts. Bun's
// install script and npm lock are in apps/bun, beside them.
//
//go:embed apps/*.js apps/*.py
var appFiles embed.FS

// appArgs is what an app server is told: where to listen, where the
// origin is, and the certificate when it serves TLS.
type appArgs struct {
	dir       string
	listen    *listening
	origin    string
	cert, key string // PEM files, with TLS
	marks     bool   // the target's MarksSensitive is set
}

// flags returns the --port (or --fd, for a socket handed down), --origin,
// --cert and --key options every app server takes, and --marks for a
// target whose app marks sensitive fields.
func (a appArgs) flags() []string {
	out := []string{"--port", strconv.Itoa(a.listen.Port), "--origin", a.origin}
	if a.listen.file != nil {
		out[0], out[1] = "--fd", strconv.Itoa(inheritedFD)
	}
	if a.cert != "" {
		out = append(out, "--cert", a.cert, "--key", a.key)
	}
	if a.marks {
		out = append(out, "--marks", live.MarksByName)
	}
	return out
}

// appServer returns the start function of a server or proxy run from
// the app programs files: it writes them to the target's directory, with
// the certificate under TLS, checks what the target needs with ready
// (nil: nothing more than its Binary), and runs argv, whose app answers
// each request with what the origin gives for its path over HTTP/1.1.
func appServer(files []string, ready func() error, argv func(a appArgs) (args, env []string), version func() string) func(env *startEnv) (*running, error) {
	return func(env *startEnv) (*running, error) {
		if ready != nil {
			if err := ready(); err != nil {
				return nil, err
			}
		}
		if err := writeApps(env.dir, files...); err != nil {
			return nil, err
		}
		a := appArgs{dir: env.dir, origin: env.origin.Addr(), marks: env.spec.MarksSensitive != ""}
		if env.tls {
			a.cert, a.key = filepath.Join(env.dir, "cert.pem"), filepath.Join(env.dir, "key.pem")
			if err := os.WriteFile(a.cert, env.cert.CertPEM, 0o644); err != nil {
				return nil, err
			}
			if err := os.WriteFile(a.key, env.cert.KeyPEM, 0o600); err != nil {
				return nil, err
			}
		}
		run, err := startListening(env, func(l *listening) (*running, error) {
			a.listen = l
			args, extraEnv := argv(a)
			return startProcess(env, l, append(extraEnv, "HOME="+env.dir), args[0], args[1:]...)
		})
		if err != nil {
			return nil, err
		}
		run.url = "http://" + a.listen.Addr
		if env.tls {
			run.url = "https://" + a.listen.Addr
		}
		run.version = version()
		return run, nil
	}
}

// writeApps copies the named app programs into dir.
func writeApps(dir string, names ...string) error {
	for _, name := range names {
		data, err := appFiles.ReadFile("apps/" + name)
		if err != nil {
			return fmt.Errorf("live: app %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// appClient returns the client function of a client run from the app
// program file by interpreter: it is told the URLs on its command line and
// the fields to add in a headers file (a JSON array of [name, value]
// pairs, each octet of a value written as the code point of its number,
// since a command line cannot carry every octet). ready checks what the
// client needs, as for appServer. With marks, the file is instead an
// object: "headers", those pairs, and "sensitive", the names the client is
// to mark never-indexed (live.SensitiveNames of the fields).
func appClient(interpreter func() string, file string, ready func(tlsOn bool) error, marks bool) clientFunc {
	return func(tlsOn bool, headers []vectors.Field) (*live.ClientCommand, func(context.Context, []string) error, error) {
		if ready != nil {
			if err := ready(tlsOn); err != nil {
				return nil, nil, err
			}
		}
		shown := &live.ClientCommand{Args: []string{interpreter(), file, "--headers", "headers.json", "{urls}"}, Headers: headers}
		run := func(ctx context.Context, urls []string) error {
			dir, err := os.MkdirTemp("", "hpackcert-client-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			if err := writeApps(dir, file); err != nil {
				return err
			}
			pairs := make([][2]string, len(headers))
			for i, f := range headers {
				pairs[i] = [2]string{f.Name, latin1(f.Value)}
			}
			var v any = pairs
			if marks {
				names := live.SensitiveNames(headers)
				if names == nil {
					names = []string{}
				}
				v = map[string]any{"headers": pairs, "sensitive": names}
			}
			data, err := json.Marshal(v)
			if err != nil {
				return err
			}
			hfile := filepath.Join(dir, "headers.json")
			if err := os.WriteFile(hfile, data, 0o644); err != nil {
				return err
			}
			cmd := &live.ClientCommand{Args: []string{interpreter(), filepath.Join(dir, file), "--headers", hfile, "{urls}"}}
			return cmd.Run(ctx, urls)
		}
		return shown, run, nil
	}
}

// latin1 returns s with each octet made the code point of its number, so
// that JSON carries every octet.
func latin1(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// debianPython is the Python of Debian's packages (python3-hypercorn,
// python3-grpcio), which another python3 first on PATH does not see.
func debianPython() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}

// pythonModules checks that Debian's Python imports the modules the
// package pkg provides.
func pythonModules(pkg string, modules ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, debianPython(), "-c", "import "+strings.Join(modules, ", ")).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s cannot import %s (Debian package %s): %v %s", ErrNotInstalled, debianPython(), strings.Join(modules, ", "), pkg, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// pythonVersions returns the versions of the Python distributions
// named, as "first (second v, ...)", or "".
func pythonVersions(names ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	script := "import importlib.metadata as m, sys\nfor n in sys.argv[1:]: print(m.version(n))"
	out, err := exec.CommandContext(ctx, debianPython(), append([]string{"-c", script}, names...)...).Output()
	if err != nil {
		return ""
	}
	var vs []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		vs = append(vs, strings.TrimSpace(sc.Text()))
	}
	if len(vs) != len(names) {
		return ""
	}
	var rest []string
	for i := 1; i < len(names); i++ {
		rest = append(rest, names[i]+" "+vs[i])
	}
	if len(rest) == 0 {
		return vs[0]
	}
	return vs[0] + " (" + strings.Join(rest, ", ") + ")"
}

// bunDir is where apps/bun/install.sh installs Bun from npm, relative to
// the module root.
const bunDir = "source/live/targets/apps/bun"

// bunBinary returns the Bun to run: $HPACKCERT_BUN when set, the one
// apps/bun/install.sh installed in the module this process runs in (found
// from the working directory up), else bun on PATH.
func bunBinary() string {
	if b := os.Getenv("HPACKCERT_BUN"); b != "" {
		return b
	}
	if root := moduleRoot(); root != "" {
		b := filepath.Join(root, bunDir, "node_modules/@oven/bun-linux-x64/bin/bun")
		if _, err := os.Stat(b); err == nil {
			return b
		}
	}
	return "bun"
}

// moduleRoot returns the directory of hpackcert's go.mod, found by
// walking up from the working directory, or "".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(data), "module github.com/hpackcert/hpackcert\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// commandVersion returns the version number name prints for args, or "".
func commandVersion(name string, args ...string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return versionNumber.FindString(string(out))
}

// nodeTransform is what node:http2 does to the fields a handler gives it:
// it adds date when none is given, and takes one value only of
// content-type and the other fields it holds single (the app keeps the
// first; a story of the traffic repeats content-type).
var nodeTransform = live.Transform{
	Add:     []string{"date"},
	Replace: []string{"content-type"},
	Why:     "node:http2 adds date when the response has none, and takes one value of content-type, which a traffic story repeats: the app keeps the first",
}

// grpcClientTransform is what a gRPC call adds to the metadata it is
// given.
var grpcClientTransform = live.Transform{
	Add:     []string{"content-type", "te", "grpc-accept-encoding", "grpc-timeout", "user-agent"},
	Replace: []string{":method"},
	Why:     "a gRPC call is a POST with content-type application/grpc, te: trailers, grpc-accept-encoding, grpc-timeout (its deadline) and gRPC's user-agent",
}

// appTargets are the targets built from language runtimes: Node's
// node:http2, Bun, python-h2 through hypercorn, gRPC C-core through
// grpcio.
var appTargets = []TargetSpec{
	{
		Name: "node-server", Role: live.RoleServer, Package: "nodejs", Binary: "node", inherits: true,
		Encoder:        "libnghttp2's deflater (Node's bundled nghttp2)",
		Transform:      nodeTransform,
		NeverIndexes:   Nghttp2NeverIndex,
		MarksSensitive: "the app lists them in the response's http2.sensitiveHeaders, which stream.respond passes to nghttp2 as NGHTTP2_NV_FLAG_NO_INDEX",
		start: appServer([]string{"node-server.js", "origin.js"}, nil, func(a appArgs) ([]string, []string) {
			return append([]string{"node", "node-server.js", "--mode", "server"}, a.flags()...), nil
		}, func() string { return commandVersion("node", "--version") }),
	},
	{
		Name: "node-proxy", Role: live.RoleProxy, Package: "nodejs", Binary: "node", inherits: true,
		Encoder:      "libnghttp2's deflater (Node's bundled nghttp2)",
		Transform:    nodeTransform,
		NeverIndexes: Nghttp2NeverIndex,
		start: appServer([]string{"node-server.js", "origin.js"}, nil, func(a appArgs) ([]string, []string) {
			return append([]string{"node", "node-server.js", "--mode", "proxy"}, a.flags()...), nil
		}, func() string { return commandVersion("node", "--version") }),
	},
	{
		Name: "node-client", Role: live.RoleClient, Package: "nodejs", Binary: "node",
		Encoder: "libnghttp2's deflater (Node's bundled nghttp2)", Transform: clientTransform,
		NeverIndexes:   Nghttp2NeverIndex,
		client:         appClient(func() string { return "node" }, "node-client.js", nil, true),
		MarksSensitive: "the app lists them in each request's http2.sensitiveHeaders, which session.request passes to nghttp2 as NGHTTP2_NV_FLAG_NO_INDEX",
		fields:         newClientFields("node-client", true, nil),
	},
	{
		Name: "bun-node-http2", Role: live.RoleServer, Package: "bun from npm (" + bunDir + "/install.sh)",
		Encoder:        "ls-hpack (Bun's node:http2)",
		Transform:      nodeTransform,
		MarksSensitive: "the app lists them in the response's http2.sensitiveHeaders, which Bun's node:http2 honours as node's does",
		start: appServer([]string{"node-server.js", "origin.js"}, nil, func(a appArgs) ([]string, []string) {
			return append([]string{bunBinary(), "node-server.js", "--mode", "server"}, a.flags()...), nil
		}, func() string { return commandVersion(bunBinary(), "--version") }),
	},
	{
		Name: "bun-serve", Role: live.RoleServer, Package: "bun from npm (" + bunDir + "/install.sh)",
		Encoder: "ls-hpack (Bun.serve with http2: true)",
		Transform: live.Transform{
			Add:     []string{"date", "content-type", "content-length"},
			Replace: []string{"cache-control", "content-type", "vary", "x-dup", "x-name-a", "x-name-b", "x-name-d", "x-d008", "x-d009"},
			Why:     "Bun.serve adds date, a content-type for the body and content-length (0 on a 204 too), and a Fetch API Headers joins the values of a repeated field into one, with \", \" (set-cookie excepted): the fields the default script repeats are replaced",
		},
		start: appServer([]string{"bun-serve.js", "origin.js"}, nil, func(a appArgs) ([]string, []string) {
			return append([]string{bunBinary(), "bun-serve.js"}, a.flags()...), nil
		}, func() string { return commandVersion(bunBinary(), "--version") }),
	},
	{
		Name: "hypercorn", Role: live.RoleServer, Package: "python3-hypercorn", Binary: "hypercorn", inherits: true,
		Encoder:      "python-hpack (python-h2 through hypercorn)",
		NeverIndexes: PythonH2NeverIndex,
		Transform: live.Transform{
			Add:     []string{"date"},
			Replace: []string{"server"},
			Why:     "hypercorn adds date, and server: hypercorn to every response",
		},
		start: appServer([]string{"hypercorn_app.py", "origin.py"}, nil, func(a appArgs) ([]string, []string) {
			args := []string{"hypercorn", "--bind", fmt.Sprintf("fd://%d", inheritedFD), "--keep-alive", "30"}
			if a.cert != "" {
				args = append(args, "--certfile", a.cert, "--keyfile", a.key)
			}
			return append(args, "hypercorn_app:app"), []string{"HPACKCERT_ORIGIN=" + a.origin, "PYTHONPATH=" + a.dir}
		}, func() string { return pythonVersions("hypercorn", "h2", "hpack") }),
	},
	{
		Name: "grpc-server", Role: live.RoleServer, Package: "python3-grpcio",
		Encoder:    "gRPC C-core's own (chttp2_transport.cc writes these blocks by hand, without hpack_encoder)",
		Unscripted: "gRPC C-core 1.51 refuses every GET (hpackcert's requests) before the handler runs, with a trailers-only response of its own (grpc-status 2, \"Bad method header\")",
		start: appServer([]string{"grpc_server.py", "origin.py"}, func() error { return pythonModules("python3-grpcio", "grpc") }, func(a appArgs) ([]string, []string) {
			return append([]string{debianPython(), "grpc_server.py"}, a.flags()...), nil
		}, func() string { return pythonVersions("grpcio") }),
	},
	{
		Name: "grpc-client", Role: live.RoleClient, Package: "python3-grpcio",
		Encoder:   "gRPC C-core's own (chttp2 hpack_encoder)",
		Transform: grpcClientTransform,
		client: appClient(debianPython, "grpc_client.py", func(tlsOn bool) error {
			if tlsOn {
				return fmt.Errorf("live: grpc-client runs over h2c only (an insecure channel)")
			}
			return pythonModules("python3-grpcio", "grpc")
		}, false),
		fields:  newClientFields("grpc-client", true, grpcMetadata),
		version: func() string { return pythonVersions("grpcio") },
	},
}

// grpcMetadata reports whether gRPC can send f as metadata: a printable
// ASCII value, a name it does not keep for itself.
func grpcMetadata(f vectors.Field) bool {
	switch f.Name {
	case "content-type", "te", "user-agent":
		return false
	}
	for i := 0; i < len(f.Value); i++ {
		if f.Value[i] < 0x20 || f.Value[i] > 0x7e {
			return false
		}
	}
	return true
}

func init() {
	for i := range appTargets {
		if strings.HasPrefix(appTargets[i].Name, "bun-") {
			appTargets[i].Binary = bunBinary()
		}
	}
	// debian.go's init gives every target with a Binary the version
	// programVersion prints; node-client's is node's.
	versionCommands["node"] = []string{"--version"}
	targets = append(targets, appTargets...)
}
