package targets

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/internal/proc"
	"github.com/hpackcert/hpackcert/source/live"
)

// KillTargets kills every server, proxy and client program hpackcert live
// started and that still runs, each with its process group (every group
// started through package internal/proc, in fact). It only sends
// signals, so a signal handler about to exit may call it: the programs run
// in process groups of their own, which the terminal's interrupt does not
// reach.
func KillTargets() { proc.KillAll() }

// startTimeout bounds how long a target may take to listen.
const startTimeout = 15 * time.Second

// serveOnLoopback serves srv on a free loopback port, with TLS when env
// asks for it.
func serveOnLoopback(env *startEnv, srv *live.Server) (*running, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	scheme := "http"
	if env.tls {
		srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{env.cert.TLS}, NextProtos: []string{"h2"}}
		scheme = "https"
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	return &running{
		url: scheme + "://" + ln.Addr().String(),
		stop: func() error {
			err := srv.Close()
			return errors.Join(err, <-done)
		},
	}, nil
}

// startProcess runs a server in a process group of its own, its output
// in a log file of env.dir, with l's socket as descriptor inheritedFD
// when it has one, waits until it listens on l and accepts connections
// there, and returns how to stop it: SIGTERM to the group, then SIGKILL
// after a few seconds. When it failed because another program took its
// port, the error is errPortTaken (see startListening).
func startProcess(env *startEnv, l *listening, extraEnv []string, name string, args ...string) (*running, error) {
	logPath := env.dir + "/" + env.spec.Name + ".out"
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	// Its output goes to a file: no pipe for Wait to wait for.
	group := proc.Command(context.Background(), 0, name, args...)
	cmd := group.Cmd
	cmd.Dir = env.dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = append(os.Environ(), extraEnv...)
	if l.file != nil {
		cmd.ExtraFiles = []*os.File{l.file}
	}
	if err := group.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- group.Wait() }()
	readLog := func() string { return logTail(env.dir) }
	stop := func() error {
		group.Terminate()
		select {
		case <-exited:
			return nil
		case <-time.After(5 * time.Second):
		}
		group.Kill()
		<-exited
		return errors.New("it did not stop within 5s of SIGTERM and was killed")
	}
	if err := waitListening(env.ctx, l, cmd.Process.Pid, exited); err != nil {
		stop()
		tail := readLog()
		if errors.Is(err, errPortTaken) || portTakenLog.MatchString(tail) {
			return nil, fmt.Errorf("%w (%s): %v; the end of its log: %s", errPortTaken, l.Addr, err, tail)
		}
		return nil, fmt.Errorf("%w; the end of its log: %s", err, tail)
	}
	return &running{stop: stop, log: readLog, pid: cmd.Process.Pid}, nil
}

// waitListening waits until the process group pgid listens on l and has
// accepted a connection made there, the process exits, or startTimeout
// passes. A connection that succeeds is not enough: another program may
// hold the port (the error is then errPortTaken), and a socket handed
// down listens before the program is ready to accept.
func waitListening(ctx context.Context, l *listening, pgid int, exited chan error) error {
	deadline := time.Now().Add(startTimeout)
	var probe net.Conn
	defer func() {
		if probe != nil {
			probe.Close()
		}
	}()
	for {
		sockets, err := tcpSockets()
		if err != nil {
			return err
		}
		some, ours, err := listensThere(sockets, l.Port, pgid)
		if err != nil {
			return err
		}
		if ours && probe == nil {
			// Dialled once: it waits in the listener's queue until the
			// program accepts it.
			if probe, err = net.DialTimeout("tcp", l.Addr, time.Second); err != nil {
				probe = nil
			}
		}
		if ours && probe != nil && acceptedFrom(sockets, l.Port, probe.LocalAddr().(*net.TCPAddr).Port) {
			return nil
		}
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("it exited before listening on %s: %v", l.Addr, err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			if some && !ours {
				return fmt.Errorf("%w: another program listens on %s", errPortTaken, l.Addr)
			}
			return fmt.Errorf("it did not listen and accept a connection on %s within %v", l.Addr, startTimeout)
		}
	}
}

// maxLogTail bounds the log quoted in an error.
const maxLogTail = 1500

// logTail returns the end of every log file in dir, for errors.
func logTail(dir string) string {
	entries, _ := os.ReadDir(dir)
	var b strings.Builder
	for _, e := range entries {
		if e.IsDir() || !(strings.HasSuffix(e.Name(), ".log") || strings.HasSuffix(e.Name(), ".out")) {
			continue
		}
		data, err := os.ReadFile(dir + "/" + e.Name())
		if err != nil || len(data) == 0 {
			continue
		}
		if len(data) > maxLogTail {
			data = data[len(data)-maxLogTail:]
		}
		fmt.Fprintf(&b, "[%s] %s ", e.Name(), strings.Join(strings.Fields(string(data)), " "))
	}
	return strings.TrimSpace(b.String())
}
