package live

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/internal/shell"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// The hostile-peer battery runs the real hpackcert live in a subprocess
// against HTTP/2 peers that misbehave on purpose, in every role and over
// h2c and TLS, under a 2 GiB address-space ceiling (which keeps a runaway from taking the machine; Go reserves more than 1 GiB of it for its own threads and heap arenas), and holds each run to
// a clear error or verdict (exit 1 or 2) and the memory bound the README
// states (peak RSS 256 MiB). Each run ends by its own --timeout; the
// battery asserts no time (a hang is left to go test's -timeout), only
// that the output names what the peer did.

// hostileClientEnv names the hostile client a re-executed test binary
// plays (hpackcert live runs it as its --client); see TestMain.
const hostileClientEnv = "HPACKCERT_HOSTILE_CLIENT"

// Bounds of the battery: every hostile peer stops by itself after
// hostileRun, so that none outlives the test binary for long.
const (
	hostileRun    = 20 * time.Second
	maxPeakRSSKiB = 256 << 10
	addressSpace  = 2 << 30
)

func TestMain(m *testing.M) {
	testenv.RunMeasured()
	if peer := os.Getenv(hostileClientEnv); peer != "" {
		os.Exit(runHostileClient(peer, os.Args[1:]))
	}
	code := m.Run()
	testenv.RemoveBuilt()
	os.Exit(code)
}

// returns its URL; it stops when the test ends.
func serveHostile(t *testing.T, h *hostile, tlsOn bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var cfg *tls.Config
	scheme := "http"
	if tlsOn {
		cert, err := NewCertificate()
		if err != nil {
			t.Fatal(err)
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{cert.TLS}, NextProtos: []string{"h2"}}
		scheme = "https"
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	conns := map[net.Conn]bool{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns[nc] = true
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { mu.Lock(); delete(conns, nc); mu.Unlock() }()
				if cfg != nil {
					tc := tls.Server(nc, cfg)
					tc.SetDeadline(time.Now().Add(5 * time.Second))
					if tc.Handshake() != nil {
						nc.Close()
						return
					}
					nc = tc
				}
				h.play(nc, true, nil, 0)
			}()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for nc := range conns {
			nc.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return scheme + "://" + ln.Addr().String()
}

// runHostileClient is the hostile client name[:tls], dialing the first of
// urls; it returns the exit status of the process.
func runHostileClient(name string, urls []string) int {
	peerName, opt, _ := strings.Cut(name, ":")
	h := lookupHostile(peerName)
	if h == nil || len(urls) == 0 {
		fmt.Fprintf(os.Stderr, "hostile client %q: no such peer, or no URL\n", name)
		return 2
	}
	u, err := url.Parse(urls[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	dial := func() (net.Conn, error) { return dialHostile(u, opt == "tls") }
	if h.name == "connection-churn" {
		stop := time.Now().Add(hostileRun)
		for i := 0; i < 5000 && time.Now().Before(stop); i++ {
			nc, err := dial()
			if err != nil {
				return 0
			}
			io.WriteString(nc, http2.ClientPreface)
			nc.Close()
		}
		return 0
	}
	nc, err := dial()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	h.play(nc, false, u, len(urls))
	return 0
}

// dialHostile dials u as a hostile client, over TLS when tlsOn.
func dialHostile(u *url.URL, tlsOn bool) (net.Conn, error) {
	nc, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil || !tlsOn {
		return nc, err
	}
	tc := tls.Client(nc, &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}})
	tc.SetDeadline(time.Now().Add(5 * time.Second))
	if err := tc.Handshake(); err != nil {
		nc.Close()
		return nil, err
	}
	tc.SetDeadline(time.Time{})
	return tc, nil
}

// hostileResult is one run of hpackcert live against a hostile peer.
type hostileResult struct {
	role, peer, transport string
	status                int
	peakKiB               int64
	took                  time.Duration
	said                  string
}

// TestHostilePeers runs hpackcert live against every hostile peer, as the
// client of a server and of a proxy and as the server of a client, over
// h2c and TLS.
func TestHostilePeers(t *testing.T) {
	testenv.ChildProcesses(t, "hpackcert live and its peak memory")
	bin := filepath.Join(testenv.BuildCommands(t, "cmd/hpackcert"), "hpackcert")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		results []hostileResult
	)
	slots := make(chan struct{}, 4)
	t.Run("peers", func(t *testing.T) {
		for _, role := range []string{RoleServer, RoleProxy, RoleClient} {
			for _, tlsOn := range []bool{false, true} {
				for i := range hostiles {
					h := &hostiles[i]
					transport := transportName(tlsOn)
					t.Run(role+"/"+transport+"/"+h.name, func(t *testing.T) {
						t.Parallel()
						slots <- struct{}{}
						defer func() { <-slots }()
						r := runHostile(t, bin, self, role, h, tlsOn)
						mu.Lock()
						results = append(results, r)
						mu.Unlock()
					})
				}
			}
		}
	})
	table := rssTable(results)
	t.Log("peak RSS of hpackcert live per hostile peer:\n" + table)
	if path := os.Getenv("HPACKCERT_HOSTILE_RSS"); path != "" {
		if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// runHostile runs hpackcert live once against h and checks its exit
// status, output and peak RSS; its time is only shown, in the table.
func runHostile(t *testing.T, bin, self, role string, h *hostile, tlsOn bool) hostileResult {
	// A client's breakdowns name its 5 s limit; a server's or proxy's six
	// connections, each waiting up to 1 s on a peer that never answers,
	// get 8 s.
	limit := "8s"
	if role == RoleClient {
		limit = "5s"
	}
	args := []string{"live", "--step-timeout", "1s", "--timeout", limit, "--stories", "1", "--blocks", "8", "--requests", strconv.Itoa(hostileRequests)}
	var env []string
	var inherited []*os.File
	switch role {
	case RoleServer, RoleProxy:
		u := serveHostile(t, h, tlsOn)
		args = append(args, "--"+role, u)
		if role == RoleProxy {
			// The origin's listener is handed down: a port chosen free
			// and bound later by hpackcert may be taken in between.
			inherited = append(inherited, loopbackListenerFile(t))
			args = append(args, "--origin", "fd:3")
		}
	case RoleClient:
		peer := h.name
		if tlsOn {
			peer += ":tls"
			args = append(args, "--tls")
		}
		args = append(args, "--client", shell.Quote(self)+" {urls}")
		env = append(env, hostileClientEnv+"="+peer)
	}
	cmd, peakKiB := testenv.MeasuredCommand(t, addressSpace, bin, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.ExtraFiles = inherited
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = time.Second
	began := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	r := hostileResult{role: role, peer: h.name, transport: transportName(tlsOn), took: time.Since(began), said: out.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.status = exit.ExitCode()
	default:
		t.Fatalf("hpackcert live: %v", err)
	}
	if kib, err := peakKiB(); err == nil {
		r.peakKiB = kib
	} else {
		t.Errorf("%v\n%s", err, lastLines(r.said, 6))
	}
	said := lastLines(r.said, 6)
	if r.status != 1 && r.status != 2 {
		t.Errorf("exit status %d; want 1 or 2 (a failed case or an error)\n%s", r.status, said)
	}
	if r.peakKiB > maxPeakRSSKiB {
		t.Errorf("peak RSS %d KiB; want at most %d KiB\n%s", r.peakKiB, maxPeakRSSKiB, said)
	}
	for _, bad := range []string{"panic:", "fatal error:", "out of memory", "goroutine "} {
		if strings.Contains(r.said, bad) {
			t.Errorf("output has %q: hpackcert crashed\n%s", bad, said)
		}
	}
	if !regexp.MustCompile(h.want).MatchString(r.said) {
		t.Errorf("output does not match %q (the peer's behaviour named)\n%s", h.want, said)
	}
	stop := h.stop
	if role == RoleClient {
		stop = h.clientStop
	}
	if note := stopNote(stop); stop != "" && !strings.Contains(r.said, note) {
		t.Errorf("output does not say %q (the breakdown, noted on its connection)\n%s", note, said)
	}
	if stop != "" && r.status != 1 {
		t.Errorf("exit status %d; want 1, the breakdown's failure\n%s", r.status, said)
	}
	if strings.ContainsAny(r.said, "\x1b\a\u009b\u202e") {
		t.Errorf("output holds a raw control or bidirectional character from the peer\n%q", said)
	}
	return r
}

// stopNote returns the note of the connection a breakdown happened on:
// "stopped at request N of M: what".
func stopNote(breakdown string) string {
	head, what, _ := strings.Cut(breakdown, ": ")
	head = strings.TrimPrefix(head, "target ")
	if i := strings.Index(head, " on connection "); i >= 0 {
		head = head[:i]
	}
	return head + ": " + what
}

// loopbackListenerFile returns the file of a listener on a loopback port
// of the kernel's choice, for the origin behind a hostile proxy; the test
// closes it at its end (the child holds its own copy).
func loopbackListenerFile(t *testing.T) *os.File {
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	f, err := ln.File()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 300 {
			lines[i] = l[:300] + "..."
		}
	}
	return strings.Join(lines, "\n")
}

// rssTable renders the results, one line per run, sorted by role,
// transport and peer.
func rssTable(results []hostileResult) string {
	sort.Slice(results, func(i, j int) bool {
		a, b := results[i], results[j]
		if a.role != b.role {
			return a.role < b.role
		}
		if a.transport != b.transport {
			return a.transport < b.transport
		}
		return a.peer < b.peer
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-7s %-4s %-28s %4s %9s %7s  %s\n", "role", "tr", "peer", "exit", "peak MiB", "time s", "what hpackcert said last")
	for _, r := range results {
		said := lastLines(r.said, 1)
		if len(said) > 400 {
			said = said[:400] + "..."
		}
		fmt.Fprintf(&b, "%-7s %-4s %-28s %4d %9.1f %7.1f  %s\n", r.role, r.transport, r.peer, r.status, float64(r.peakKiB)/1024, r.took.Seconds(), said)
	}
	return b.String()
}

// transportName is how the battery's table names a transport.
func transportName(tlsOn bool) string {
	if tlsOn {
		return "TLS"
	}
	return "h2c"
}
