package h3

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/proc"
	"github.com/hpackcert/hpackcert/source/live"
)

const caddyName = "caddy-h3"

// caddyPath returns where the caddy program is, or an error saying it is
// not installed.
func caddyPath() (string, error) {
	path, err := exec.LookPath("caddy")
	if err != nil {
		return "", fmt.Errorf("h3: %s needs the caddy program (Debian package caddy), not found: %w", caddyName, err)
	}
	return path, nil
}

// caddyfile serves HTTP/3 alone on 127.0.0.1:%[1]d with the run's
// certificate in %[2]s, answering every request with response fields
// like respond's: some repeat, one follows the path, one the request.
const caddyfile = `{
	admin off
	auto_https off
	storage file_system %[2]s/data
	servers {
		protocols h3
	}
}
https://127.0.0.1:%[1]d {
	bind 127.0.0.1
	tls %[2]s/cert.pem %[2]s/key.pem
	header cache-control "private, max-age=60"
	header x-h3live-repeat "the same value on every response"
	header x-h3live-path {path}
	header x-h3live-index {header.x-h3live-index}
	respond "h3live" 200
}
`

// caddyTries bounds how many times Caddy is started, each time on a new
// port, when another program took the port before Caddy could bind it:
// Caddy binds its port itself and takes no listening socket from its
// parent.
const caddyTries = 4

// caddyStart bounds how long Caddy may take to start serving.
const caddyStart = 20 * time.Second

var (
	caddyRunning = regexp.MustCompile(`"msg":"server running"`)
	caddyInUse   = regexp.MustCompile(`(?i)address already in use`)
	// errCaddyPort is a start that failed on a port taken meanwhile.
	errCaddyPort = errors.New("its port was taken by another program before it could listen there")
)

// captureCaddy starts Caddy on loopback in a process group of its own,
// captures its response encoder with the certifier's client, and kills
// it.
func captureCaddy(ctx context.Context, name string, opts Options) (*qpack.Transcript, error) {
	path, err := caddyPath()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "hpackcert-caddy-h3-")
	if err != nil {
		return nil, fmt.Errorf("h3: %w", err)
	}
	defer os.RemoveAll(dir)
	cert, err := live.NewCertificate()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), cert.CertPEM, 0o600); err != nil {
		return nil, fmt.Errorf("h3: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), cert.KeyPEM, 0o600); err != nil {
		return nil, fmt.Errorf("h3: %w", err)
	}
	for try := 1; ; try++ {
		t, err := caddyRun(ctx, path, dir, name, opts)
		if !errors.Is(err, errCaddyPort) || try == caddyTries {
			return t, err
		}
	}
}

// caddyRun starts Caddy once, on a port free a moment before, and
// captures it when it serves.
func caddyRun(ctx context.Context, path, dir, name string, opts Options) (*qpack.Transcript, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "Caddyfile")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(caddyfile, port, dir)), 0o600); err != nil {
		return nil, fmt.Errorf("h3: %w", err)
	}
	logPath := filepath.Join(dir, "caddy.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("h3: %w", err)
	}
	defer logFile.Close()
	g := proc.Command(ctx, 5*time.Second, path, "run", "--config", conf, "--adapter", "caddyfile")
	g.Cmd.Dir = dir
	// Caddy keeps its state under HOME and the XDG folders: the run's
	// own, removed with it.
	g.Cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	g.Cmd.Stdout, g.Cmd.Stderr = logFile, logFile
	if err := g.Start(); err != nil {
		return nil, fmt.Errorf("h3: starting caddy: %w", err)
	}
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = g.Wait()
		close(exited)
	}()
	stop := func() {
		g.Kill()
		<-exited
	}
	if err := waitServing(ctx, logPath, exited, &waitErr); err != nil {
		stop()
		return nil, err
	}
	t, err := CaptureServer(ctx, name, "127.0.0.1:"+strconv.Itoa(port), opts)
	stop()
	return t, err
}

// waitServing waits until Caddy's log says it serves, or it failed;
// exited is closed when Caddy exited, with *waitErr then set.
func waitServing(ctx context.Context, logPath string, exited <-chan struct{}, waitErr *error) error {
	ctx, cancel := context.WithTimeout(ctx, caddyStart)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		log, _ := os.ReadFile(logPath)
		switch {
		case caddyInUse.Match(log):
			return errCaddyPort
		case caddyRunning.Match(log):
			return nil
		}
		select {
		case <-exited:
			if log, _ = os.ReadFile(logPath); caddyInUse.Match(log) {
				return errCaddyPort
			}
			return fmt.Errorf("h3: caddy exited before serving (%v): %s", *waitErr, lastLines(string(log), 5))
		case <-ctx.Done():
			return fmt.Errorf("h3: caddy not serving after %v: %s", caddyStart, lastLines(string(log), 5))
		case <-tick.C:
		}
	}
}

// lastLines returns the last n lines of log, for an error.
func lastLines(log string, n int) string {
	lines := strings.Split(strings.TrimSpace(log), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// freePort returns a loopback port that was free for both UDP and TCP a
// moment before: Caddy listens on both.
func freePort() (int, error) {
	pc, err := listenUDP()
	if err != nil {
		return 0, err
	}
	defer pc.Close()
	port := pc.LocalAddr().(*net.UDPAddr).Port
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return 0, errCaddyPort
	}
	ln.Close()
	return port, nil
}
