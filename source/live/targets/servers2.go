package targets

import (
	"context"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
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

// The servers of round two whose handler is an app of hpackcert's own
// (Jetty 9 and Tomcat 10 embedded, Haskell's warp), the libwebsockets test
// server, and OpenJDK's HttpClient as a client. The apps are built by
// ci/live-apps.sh, from source/live/targets/apps-java and apps-haskell,
// into AppsDir; each answers every request with the response hpackcert's
// origin gives for the same path over HTTP/1.1 (status, fields in order,
// body), so that the script drives the server's own HPACK encoder.

// AppsDir returns the directory ci/live-apps.sh builds the live apps
// into: $HPACKCERT_LIVE_APPS, else hpackcert/live-apps in the user's cache
// directory.
func AppsDir() (string, error) {
	if dir := os.Getenv("HPACKCERT_LIVE_APPS"); dir != "" {
		return dir, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("live: no directory for the live apps (set HPACKCERT_LIVE_APPS): %w", err)
	}
	return filepath.Join(cache, "hpackcert", "live-apps"), nil
}

// builtApp returns the directory ci/live-apps.sh built app into, or an
// error wrapping ErrNotInstalled when it has not.
func builtApp(app string) (string, error) {
	apps, err := AppsDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(apps, app)
	if _, err := os.Stat(filepath.Join(dir, "stamp")); err != nil {
		return "", fmt.Errorf("%w: the %s app (ci/live-apps.sh builds it into %s)", ErrNotInstalled, app, dir)
	}
	return dir, nil
}

// appInstalled reports whether the target's program and app are on this
// machine.
func appInstalled(t *TargetSpec, app string) error {
	if err := t.Installed(); err != nil {
		return err
	}
	if app == "" {
		return nil
	}
	_, err := builtApp(app)
	return err
}

// javaOptions keep a JVM small and quick to start on a shared machine.
var javaOptions = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-Xmx256m"}

// javaClasspath returns the class path of a Java app: its classes and the
// jars ci/live-apps.sh compiled it against.
func javaClasspath(app string) (string, error) {
	dir, err := builtApp(app)
	if err != nil {
		return "", err
	}
	jars, err := os.ReadFile(filepath.Join(dir, "classpath"))
	if err != nil {
		return "", err
	}
	cp := filepath.Join(dir, "classes")
	if j := strings.TrimSpace(string(jars)); j != "" {
		cp += ":" + j
	}
	return cp, nil
}

// builtAppServer returns the start function of a server app: the command
// argv, given the app's directory, is run with --listen, --origin and, for
// TLS, --cert and --key (a PKCS#8 key, which Java and Haskell's tls read).
func builtAppServer(app string, argv func(dir string) ([]string, error)) func(env *startEnv) (*running, error) {
	return func(env *startEnv) (*running, error) {
		dir, err := builtApp(app)
		if err != nil {
			return nil, err
		}
		args, err := argv(dir)
		if err != nil {
			return nil, err
		}
		args = append(args, "--origin", env.origin.Addr())
		scheme := "http://"
		if env.tls {
			cert, key, err := writePKCS8(env)
			if err != nil {
				return nil, err
			}
			args = append(args, "--cert", cert, "--key", key)
			scheme = "https://"
		}
		var addr string
		run, err := startListening(env, func(l *listening) (*running, error) {
			addr = l.Addr
			withListen := append(append([]string(nil), args...), "--listen", addr)
			return startProcess(env, l, []string{"HOME=" + env.dir}, withListen[0], withListen[1:]...)
		})
		if err != nil {
			return nil, err
		}
		run.url = scheme + addr
		run.version = env.spec.version()
		return run, nil
	}
}

// javaApp returns the command of the Java app's main class.
func javaApp(app, class string) func(dir string) ([]string, error) {
	return func(string) ([]string, error) {
		cp, err := javaClasspath(app)
		if err != nil {
			return nil, err
		}
		return append(append([]string{"java"}, javaOptions...), "-cp", cp, class), nil
	}
}

// writePKCS8 writes hpackcert's certificate and its key, in PKCS#8, into
// env's directory and returns their paths.
func writePKCS8(env *startEnv) (cert, key string, err error) {
	der, err := x509.MarshalPKCS8PrivateKey(env.cert.TLS.PrivateKey)
	if err != nil {
		return "", "", err
	}
	cert, key = filepath.Join(env.dir, "cert.pem"), filepath.Join(env.dir, "key8.pem")
	if err := os.WriteFile(cert, env.cert.CertPEM, 0o644); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return "", "", err
	}
	return cert, key, nil
}

// debianVersion returns the upstream version of an installed Debian
// package, or "".
func debianVersion(pkg string) func() string {
	return func() string {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		out, _ := exec.CommandContext(ctx, "dpkg-query", "-W", "-f=${Version}", pkg).Output()
		return versionNumber.FindString(string(out))
	}
}

// The transformations of the server apps: what each framework does to
// the fields the app sets, and what the app leaves out for it.
var (
	jettyTransform = live.Transform{
		Add:     []string{"content-length"},
		Replace: htabFields,
		Why:     "Jetty adds content-length: 0 to a 204 response, which RFC 9110 §8.6 forbids; the app sends each HTAB of a value as SP, since Jetty 9.4 fails the connection on a value with HTAB (both in docs/FINDINGS-live.md)",
	}
	tomcatTransform = live.Transform{
		Add: []string{"date"},
		Why: "Tomcat adds date",
	}
	warpTransform = live.Transform{
		Replace: []string{"date", "server"},
		Why:     "warp puts its own date and server (Warp/3.3.N) first in every response, even one that has them, so the app leaves the origin's out",
	}
)

// htabFields are the response fields of the script whose values hold
// HTAB.
var htabFields = []string{"x-octets-space", "x-octet-02"}

// servers2Targets are the targets of this file, appended to the
// catalogue in order.
var servers2Targets = []TargetSpec{
	{
		Name: "jetty9-server", Role: live.RoleServer, Package: "libjetty9-java", Binary: "java",
		Encoder:      "Jetty's own (jetty-http2-hpack, HpackEncoder)",
		Transform:    jettyTransform,
		NeverIndexes: JettyNeverIndex,
		NoLarge:      "Jetty 9.4 encodes a header block into one buffer of the peer's SETTINGS_MAX_FRAME_SIZE (16 KiB) and fails the connection (BufferOverflowException) on a larger one",
		MaxList:      12 << 10, MaxListWhy: "Jetty 9.4 fails the connection (BufferOverflowException) on a header block over one 16 KiB frame (docs/FINDINGS-live.md)",
		start:   builtAppServer("jetty9", javaApp("jetty9", "hpackcertlive.JettyServer")),
		version: debianVersion("libjetty9-java"),
	},
	{
		Name: "tomcat10-server", Role: live.RoleServer, Package: "libtomcat10-embed-java", Binary: "java",
		Encoder:   "Tomcat's own (org.apache.coyote.http2.HpackEncoder)",
		Transform: tomcatTransform,
		NoLarge:   "Tomcat sends a field of 16 KiB in one CONTINUATION frame over the peer's SETTINGS_MAX_FRAME_SIZE (docs/FINDINGS-live.md)",
		MaxList:   12 << 10, MaxListWhy: "Tomcat 10.1 sends a block over one 16 KiB frame in a CONTINUATION frame larger than SETTINGS_MAX_FRAME_SIZE, a connection error (docs/FINDINGS-live.md)",
		start:   builtAppServer("tomcat10", javaApp("tomcat10", "hpackcertlive.TomcatServer")),
		version: debianVersion("libtomcat10-embed-java"),
	},
	{
		Name: "warp-server", Role: live.RoleServer, Package: "libghc-warp-dev",
		Encoder:          "Haskell http2's (Network.HPACK)",
		Transform:        warpTransform,
		OneSettingsFrame: "warp ends the connection (GOAWAY PROTOCOL_ERROR \"too many settings\") after a few SETTINGS frames in a row, so several sizes before one block go in one frame, as RFC 9113 §6.5.3 lets a peer send them",
		start: builtAppServer("warp", func(dir string) ([]string, error) {
			return []string{filepath.Join(dir, "hpackcert-warp")}, nil
		}),
		version: debianVersion("libghc-warp-dev"),
	},
	{
		Name: "lws-server", Role: live.RoleServer, Package: "libwebsockets-test-server", Binary: "libwebsockets-test-server",
		Encoder: "libwebsockets' own (lib/roles/h2/hpack.c)",
		NoH2C:   "libwebsockets-test-server takes no HTTP/2 with prior knowledge on a cleartext port: it answers the preface with an HTTP/1.0 403",
		Transform: live.Transform{
			Drop: []string{"x-hpackcert"}, Replace: []string{"content-type", "content-length"},
			Why: "it serves its own files, so every answer is its own 404 page (content-type text/html, its content-length): the script's one 404 step is compared as it wrote it",
		},
		start:   startLWS,
		version: debianVersion("libwebsockets-test-server"),
	},
	{
		Name: "jdk-client", Role: live.RoleClient, Package: "openjdk-17-jdk-headless", Binary: "java",
		Encoder: "OpenJDK's java.net.http (jdk.internal.net.http.hpack.Encoder)", Transform: jdkClientTransform,
		NoH2C:   "java.net.http.HttpClient has no HTTP/2 with prior knowledge: on an http URL it sends an HTTP/1.1 request with Upgrade: h2c, which hpackcert's server does not take",
		client:  jdkClient,
		fields:  newClientFields("jdk-client", true, nil),
		version: debianVersion("openjdk-17-jre-headless"),
	},
}

// jdkClientTransform is what HttpClient does to the requests it is told
// to make: a client's additions, less proxy-authorization, which it keeps
// for a proxy and leaves out of a direct request.
var jdkClientTransform = live.Transform{
	Drop: []string{"proxy-authorization"},
	Add:  clientTransform.Add,
	Why:  "HttpClient adds its own user-agent, and leaves a proxy-authorization set on the request out of a request that goes to no proxy",
}

// appOf names the app ci/live-apps.sh builds for each target of this
// file that has one.
var appOf = map[string]string{
	"jetty9-server":   "jetty9",
	"tomcat10-server": "tomcat10",
	"warp-server":     "warp",
	"jdk-client":      "jdk-client",
}

// startLWS runs libwebsockets-test-server on a loopback port
// (startListening). It serves its own files, so its responses are its
// own, graded on their decoded lists.
func startLWS(env *startEnv) (*running, error) {
	var args []string
	scheme := "http://"
	if env.tls {
		cert, key := filepath.Join(env.dir, "cert.pem"), filepath.Join(env.dir, "key.pem")
		if err := os.WriteFile(cert, env.cert.CertPEM, 0o644); err != nil {
			return nil, err
		}
		if err := os.WriteFile(key, env.cert.KeyPEM, 0o600); err != nil {
			return nil, err
		}
		args = append(args, "-s", "-C", cert, "-K", key)
		scheme = "https://"
	}
	var addr string
	run, err := startListening(env, func(l *listening) (*running, error) {
		addr = l.Addr
		return startProcess(env, l, nil, "libwebsockets-test-server", append([]string{"-p", strconv.Itoa(l.Port), "-i", "127.0.0.1"}, args...)...)
	})
	if err != nil {
		return nil, err
	}
	run.url = scheme + addr
	run.version = env.spec.version()
	return run, nil
}

// jdkClient runs the JDK client app over TLS (HttpClient has no h2c with
// prior knowledge: on an http URL it asks for an upgrade). The fields it
// adds travel in a file of hex-coded names and values, one field a line,
// since a JVM decodes its arguments in the locale's charset and the
// fields hold octets 0x80 to 0xff.
func jdkClient(tlsOn bool, headers []vectors.Field) (*live.ClientCommand, func(context.Context, []string) error, error) {
	cp, err := javaClasspath("jdk-client")
	if err != nil {
		return nil, nil, err
	}
	args := append(append([]string{"java"}, javaOptions...),
		"-Djdk.internal.httpclient.disableHostnameVerification=true",
		"-cp", cp, "hpackcertlive.JdkClient", "--headers", "{headers}", "{urls}")
	cmd := &live.ClientCommand{Args: args, Headers: headers}
	run := func(ctx context.Context, urls []string) error {
		dir, err := os.MkdirTemp("", "hpackcert-jdk-client-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		var b strings.Builder
		for _, f := range headers {
			fmt.Fprintf(&b, "%s %s\n", hex.EncodeToString([]byte(f.Name)), hex.EncodeToString([]byte(f.Value)))
		}
		path := filepath.Join(dir, "headers")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			return err
		}
		withFile := *cmd
		withFile.Args = append([]string(nil), cmd.Args...)
		for i, a := range withFile.Args {
			if a == "{headers}" {
				withFile.Args[i] = path
			}
		}
		return withFile.Run(ctx, urls)
	}
	return cmd, run, nil
}

func init() {
	targets = append(targets, servers2Targets...)
}
