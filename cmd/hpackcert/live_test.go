package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/source/live"
	"github.com/hpackcert/hpackcert/source/live/targets"
)

func TestLiveUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "live needs a --target"},
		{[]string{"--target", "no-such"}, `no target "no-such"`},
		{[]string{"--server", "ftp://127.0.0.1:1"}, "want http://HOST:PORT"},
		{[]string{"--proxy", "http://127.0.0.1:1"}, "--proxy needs --origin"},
		{[]string{"--client", "curl http://x"}, "no {url} or {urls}"},
		{[]string{"--target", "go-client", "--name", "x"}, "apply to the --server, --proxy or --client that follows"},
		{[]string{"--target", "go-client", "--transform", "remove=a"}, "unknown key"},
		{[]string{"--target", "go-client", "--transform", "drop-empty=yes"}, `"drop-empty=yes": drop-empty takes no names`},
		{[]string{"--target", "go-client", "--transform", "set=x pad"}, `"x pad" is not a field name`},
		{[]string{"--target", "go-client", "--transform", "drop-empty"}, "apply to the --server, --proxy or --client that follows"},
		{[]string{"--target", "go-client", "--blocks", "0"}, "--blocks 0: must be positive"},
		{[]string{"--target", "go-client", "--cases", "enc/99"}, "no case id starts with"},
		{[]string{"--target", "go-client", "--md", "/no/such/dir/x.md"}, "cannot write the report"},
		{[]string{"--target", "nginx:bogus"}, `unknown option "bogus"`},
		{[]string{"--target", "go-server:h2c-origin"}, "cannot reach the origin over h2c"},
	} {
		var out bytes.Buffer
		status, err := liveCmd(tc.args, &out)
		if status != 2 || err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("live %q: status %d, error %v; want 2 and an error containing %q", tc.args, status, err, tc.want)
		}
	}
}

func TestLiveHelp(t *testing.T) {
	var out bytes.Buffer
	status, err := liveCmd([]string{"--help"}, &out)
	if status != 0 || err != nil || !strings.Contains(out.String(), "usage: hpackcert live") {
		t.Errorf("live --help: status %d, error %v, output %q; want the live usage", status, err, out.String())
	}
	// --transform's usage spells every word ParseTransform reads.
	for _, word := range []string{"drop=NAMES", "add=NAMES", "set=NAMES", "replace=", "drop-empty"} {
		if !strings.Contains(out.String(), word) {
			t.Errorf("live --help does not spell %q for --transform:\n%s", word, out.String())
		}
	}
	// Every target of the catalogue is named in --target's help, which
	// wraps at spaces: the names are searched among its words.
	_, target, _ := strings.Cut(out.String(), "--target ")
	target, _, _ = strings.Cut(target, "\n\n")
	words := strings.FieldsFunc(target, func(r rune) bool { return r == ' ' || r == ',' || r == '\n' || r == ';' || r == '(' || r == ')' })
	for _, name := range targets.TargetNames() {
		if !slices.Contains(words, name) {
			t.Errorf("live --help: --target does not name %s:\n%s", name, target)
		}
	}
}

func TestLiveGoTargets(t *testing.T) {
	md := filepath.Join(t.TempDir(), "live.md")
	// Go's reverse proxy loses the never-indexed mark of the fields an
	// h2c origin sends (docs/FINDINGS-live.md): a known failure.
	expect := filepath.Join(t.TempDir(), "expect-fail.txt")
	if err := os.WriteFile(expect, []byte("go-proxy-h2c-origin enc/7.1.3/1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	status, err := liveCmd([]string{"--target", "go-proxy", "--target", "go-proxy:h2c-origin", "--target", "go-client:tls", "--stories", "1", "--blocks", "12", "--md", md, "--expect-fail", expect,
		"--declare-unsupported", "enc/4.4/1 for go-client-tls: twelve blocks of a client's requests do not fill its dynamic table"}, &out)
	if status != 0 || err != nil {
		t.Fatalf("live: status %d, error %v; want 0\n%s", status, err, out.String())
	}
	for _, want := range []string{"go-proxy: proxy over h2c", ", version go1.", "go-client-tls: client over TLS", "go-proxy-h2c-origin: proxy over h2c", "0 requests over HTTP/1.1 and ", "declared transformation: adds date", "enc/7.1.3/2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Live certification", `| go\-proxy | go1\.`, "| client |", "### Matrix"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("--md file lacks %q:\n%s", want, data)
		}
	}
}

// TestLiveNothingJudged grades a live server on a case that does not
// apply to it alone: nothing is judged, and the run fails saying so,
// unless the expect file declares it.
func TestLiveNothingJudged(t *testing.T) {
	args := []string{"--target", "go-server", "--cases", "enc/7.3/2", "--stories", "1", "--blocks", "4"}
	var out bytes.Buffer
	status, err := liveCmd(args, &out)
	if status != 1 || err != nil || !strings.Contains(out.String(), "\nverdict: FAIL: nothing judged for go-server (enc/7.3/2: not applicable") {
		t.Errorf("live on an n/a case alone: status %d, error %v; want 1 and nothing judged\n%s", status, err, out.String())
	}
	expect := filepath.Join(t.TempDir(), "expect-fail.txt")
	if err := os.WriteFile(expect, []byte("go-server nothing-judged\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if status, err := liveCmd(append(args, "--expect-fail", expect), &out); status != 0 || err != nil {
		t.Errorf("live with \"go-server nothing-judged\" expected: status %d, error %v; want 0\n%s", status, err, out.String())
	}
}

// startPlanted starts plantedsrv with a bug and returns its URL; it stops
// when the test ends.
func startPlanted(t *testing.T, bug string, args ...string) string {
	t.Helper()
	bin := testenv.BuildCommands(t, "source/live/testdata/plantedsrv")
	cmd := exec.Command(filepath.Join(bin, "plantedsrv"), append([]string{"-bug", bug}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("plantedsrv said nothing: %v", err)
	}
	return strings.TrimSpace(line)
}

// TestLivePlantedBug: hpackcert live finds a bug planted in a server's
// encoder with the case id hpackcert run gives it (source/live tests
// compare the two grades).
func TestLivePlantedBug(t *testing.T) {
	for _, tc := range []struct {
		bug, id string
		tls     bool
	}{
		{bug: "huffman-zero-padding", id: "enc/5.2/1"},
		{bug: "no-update-after-down-up", id: "enc/4.2/2"},
		{bug: "update-above-setting", id: "enc/6.3/1", tls: true},
	} {
		t.Run(tc.bug, func(t *testing.T) {
			args := []string{"-stories", "1", "-blocks", "12"}
			if tc.tls {
				args = append(args, "-tls")
			}
			server := startPlanted(t, tc.bug, args...)
			var out bytes.Buffer
			status, err := liveCmd([]string{"--name", "planted", "--server", server, "--scripted", "--stories", "1", "--blocks", "12"}, &out)
			if status != 1 || err != nil {
				t.Fatalf("live: status %d, error %v; want 1\n%s", status, err, out.String())
			}
			if want := "planted " + tc.id + " fail:"; !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		})
	}
}

func TestLiveCorrectPlantedServerPasses(t *testing.T) {
	server := startPlanted(t, "none", "-stories", "1", "-blocks", "12")
	var out bytes.Buffer
	status, err := liveCmd([]string{"--server", server, "--scripted", "--stories", "1", "--blocks", "12"}, &out)
	if status != 0 || err != nil {
		t.Fatalf("live: status %d, error %v; want 0\n%s", status, err, out.String())
	}
}

// TestLiveProxy certifies a proxy the test runs, in front of the origin
// hpackcert live serves on the listener it is handed with --origin fd:N:
// the test listens on port 0, gives the proxy that address, and the port
// is never free for another program to take.
func TestLiveProxy(t *testing.T) {
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	originAddr := ln.Addr().String()
	originFD := handDown(t, ln)
	proxy := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) { r.SetURL(&url.URL{Scheme: "http", Host: originAddr}) }}
	var protocols http.Protocols
	protocols.SetUnencryptedHTTP2(true)
	srv := &http.Server{Handler: proxy, Protocols: &protocols, ReadHeaderTimeout: 10 * time.Second}
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(pl)
	defer srv.Close()
	var out bytes.Buffer
	status, err := liveCmd([]string{
		"--name", "test-proxy", "--transform", "add=date,content-type",
		"--proxy", "http://" + pl.Addr().String(), "--origin", fmt.Sprintf("fd:%d", originFD), "--stories", "1", "--blocks", "12",
	}, &out)
	// Go's encoder indexes authorization: non-strict, not a failure.
	if status != 0 || err != nil {
		t.Fatalf("live: status %d, error %v; want 0\n%s", status, err, out.String())
	}
	for _, want := range []string{"test-proxy: proxy over h2c", "declared transformation: adds date, content-type", "non-strict"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// handDown returns a descriptor of ln's socket that hpackcert live, run
// in this process, then owns, as a program started with it would; ln
// itself is closed.
func handDown(t *testing.T, ln interface {
	File() (*os.File, error)
	Close() error
}) int {
	t.Helper()
	defer ln.Close()
	f, err := ln.File()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	return fd
}

// TestLiveOriginFDErrors checks that --origin fd:N names what is wrong
// with a descriptor that cannot be the origin's listener.
func TestLiveOriginFDErrors(t *testing.T) {
	file, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	bound, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(bound)
	unix, err := net.ListenUnix("unix", &net.UnixAddr{Name: t.TempDir() + "/origin.sock", Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		origin, want string
	}{
		{"fd:x", "want fd:N with N a descriptor number of 3 or more"},
		{"fd:1", "want fd:N with N a descriptor number of 3 or more"},
		{"fd:100000", "descriptor 100000: bad file descriptor"},
		{fmt.Sprintf("fd:%d", file.Fd()), "is not a socket"},
		{fmt.Sprintf("fd:%d", bound), "is not a listening socket"},
		{fmt.Sprintf("fd:%d", handDown(t, unix)), "loopback TCP address only"},
	} {
		var out bytes.Buffer
		status, err := liveCmd([]string{"--proxy", "http://127.0.0.1:1", "--origin", tc.origin, "--stories", "1", "--blocks", "1"}, &out)
		if status != 2 || err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "origin") {
			t.Errorf("live --origin %s: status %d, error %v; want 2 and an error naming --origin and containing %q", tc.origin, status, err, tc.want)
		}
	}
}

// TestLiveClientCommand certifies curl from a command line, over TLS: its
// run of 4 requests, the same again, and the steady run; then, with
// {headers} in the line, with hpackcert's fields and the generated run.
func TestLiveClientCommand(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		testenv.Missing(t, "curl (Debian package curl), for a client command line")
	}
	var out bytes.Buffer
	status, err := liveCmd([]string{"--tls", "--client", "curl -s -k --http2 -H 'x-test: 1' {urls}", "--requests", "4",
		"--declare-unsupported", "enc/4.4/1 for curl: libnghttp2 indexes no :path, so x-test is all it inserts"}, &out)
	if status != 0 || err != nil {
		t.Fatalf("live: status %d, error %v; want 0\n%s", status, err, out.String())
	}
	want := fmt.Sprintf("%d header blocks on 3 connections in", 4+4+live.SteadyRequests)
	if !strings.Contains(out.String(), "curl: client over TLS") || !strings.Contains(out.String(), want) {
		t.Errorf("output lacks the capture of curl's runs (%q):\n%s", want, out.String())
	}
	if !strings.Contains(out.String(), "the command line has no {headers}") {
		t.Errorf("output does not say the line has no {headers}:\n%s", out.String())
	}

	report := filepath.Join(t.TempDir(), "live.json")
	out.Reset()
	status, err = liveCmd([]string{"--tls", "--client", "curl -s -k --http2 {headers} {urls}", "--json", report}, &out)
	if status != 0 || err != nil {
		t.Fatalf("live with {headers}: status %d, error %v; want 0\n%s", status, err, out.String())
	}
	want = fmt.Sprintf("%d header blocks on 4 connections in", 3*live.DefaultRequests+live.SteadyRequests)
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks the capture of the four runs (%q):\n%s", want, out.String())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	grades := reportGrades(t, data)["curl"]
	// The fields of {headers} carry every field octet and credentials;
	// the generated run is judged by enc/3.2/2; the replay by enc/2.2/1.
	for id, grade := range map[string]string{"enc/5.2/3": "pass", "enc/3.2/2": "pass", "enc/2.2/1": "info", "enc/7.1.3/2": "non-strict", "enc/4.4/1": "pass"} {
		if got := grades[id]; got != grade {
			t.Errorf("with {headers}: %s graded %q; want %q", id, got, grade)
		}
	}
}
