package targets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// listening is the loopback address a target started as a program
// listens on.
type listening struct {
	Addr string // 127.0.0.1:Port
	Port int
	// file is the listening socket hpackcert opened, which the program
	// inherits as descriptor 3 (inheritedFD), or nil for a program that
	// binds Port itself.
	file *os.File
}

// inheritedFD is the descriptor a program that takes its listening
// socket from hpackcert finds it on: the first after standard error, as
// in systemd's socket activation and Go's exec.Cmd.ExtraFiles.
const inheritedFD = 3

// portTries bounds how many times a target that binds its port itself is
// started, each time on a new port, when another program took the port
// before it could bind it.
const portTries = 4

// errPortTaken is the error of a start that failed because another
// program listened on the target's port first.
var errPortTaken = errors.New("its port was taken by another program before it could listen there")

// portTakenLog matches what the programs of the catalogue log when their
// port is taken: strerror(EADDRINUSE) in every spelling they use.
var portTakenLog = regexp.MustCompile(`(?i)address already in use|EADDRINUSE|address in use`)

// newListening opens a listener on a loopback port the kernel chooses.
// With handDown it stays open, to be handed to the program; otherwise it
// is closed and only its port is kept. A test replaces it to make a port
// taken.
var newListening = func(handDown bool) (*listening, error) {
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	l := &listening{Addr: ln.Addr().String(), Port: ln.Addr().(*net.TCPAddr).Port}
	if handDown {
		if l.file, err = ln.File(); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// startListening starts a target on a loopback port with start. A target
// whose program takes an inherited listening socket (env.spec.inherits)
// is handed one opened on a port the kernel chose, so the port is never
// free for another program to take. Any other is told a port that was
// free a moment before: another program (a parallel test, anything on
// the machine) may take it before the target binds it, so a start that
// failed because of that (errPortTaken) is tried again on a new port, at
// most portTries times in all.
func startListening(env *startEnv, start func(l *listening) (*running, error)) (*running, error) {
	for try := 1; ; try++ {
		l, err := newListening(env.spec.inherits)
		if err != nil {
			return nil, err
		}
		run, err := start(l)
		if l.file != nil {
			// The program has its own copy; hpackcert's would keep the
			// socket open after the program stops.
			l.file.Close()
		}
		if !errors.Is(err, errPortTaken) || try == portTries {
			return run, err
		}
		removeLogs(env.dir)
	}
}

// removeLogs removes the logs of a failed start from dir, so that the
// next start's log says only what happened to it.
func removeLogs(dir string) {
	for _, pattern := range []string{"*.log", "*.out"} {
		names, _ := filepath.Glob(filepath.Join(dir, pattern))
		for _, name := range names {
			os.Remove(name)
		}
	}
}

// tcpSocket is a line of /proc/net/tcp or tcp6: a TCP socket of this
// network namespace.
type tcpSocket struct {
	localPort, remotePort int
	state                 string // "0A" listening, "01" established, ...
	inode                 string // "0" for a connection no program accepted yet
}

// tcpSockets returns every IPv4 and IPv6 TCP socket of the machine's
// network namespace.
func tcpSockets() ([]tcpSocket, error) {
	var out []tcpSocket
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		for sc.Scan() {
			// sl local_address rem_address st queues tr retrnsmt uid timeout inode ...
			f := strings.Fields(sc.Text())
			if len(f) < 10 {
				continue
			}
			local, lerr := hexPort(f[1])
			remote, rerr := hexPort(f[2])
			if lerr != nil || rerr != nil {
				continue // the header line
			}
			out = append(out, tcpSocket{localPort: local, remotePort: remote, state: f[3], inode: f[9]})
		}
	}
	return out, nil
}

// hexPort returns the port of an ADDRESS:PORT of /proc/net/tcp, in hex.
func hexPort(addr string) (int, error) {
	_, h, ok := strings.Cut(addr, ":")
	if !ok {
		return 0, fmt.Errorf("no port in %q", addr)
	}
	p, err := strconv.ParseUint(h, 16, 16)
	return int(p), err
}

// listensThere reports whether some program listens on port, and
// whether it is the program of process group pgid: the group holds every
// listening socket on port (one that another program holds means the
// port was taken).
func listensThere(sockets []tcpSocket, port, pgid int) (some, ours bool, err error) {
	inodes := map[string]bool{}
	for _, s := range sockets {
		if s.state == "0A" && s.localPort == port {
			inodes[s.inode] = true
		}
	}
	if len(inodes) == 0 {
		return false, false, nil
	}
	ours, err = groupHolds(pgid, inodes)
	return true, ours, err
}

// acceptedFrom reports whether a program accepted the connection to port
// from peerPort: its side of it has a file (an inode), which a
// connection waiting in the listener's queue has not, or the program
// already closed it (a closing state on its side, CLOSE_WAIT on the
// peer's), which it can do only once it accepted it. A listener with
// TCP_DEFER_ACCEPT (httpd's AcceptFilter) keeps a connection without data
// half-open (SYN_RECV) instead: the program set it up, and will accept
// what comes, which is as much as can be seen of it.
func acceptedFrom(sockets []tcpSocket, port, peerPort int) bool {
	for _, s := range sockets {
		switch {
		case s.localPort == port && s.remotePort == peerPort:
			if s.inode != "0" || closedByProgram[s.state] || s.state == "03" {
				return true
			}
		case s.localPort == peerPort && s.remotePort == port && s.state == "08":
			return true
		}
	}
	return false
}

// closedByProgram holds the states of /proc/net/tcp a connection is in
// once the side that accepted it closed it: FIN_WAIT1, FIN_WAIT2,
// TIME_WAIT, LAST_ACK, CLOSING.
var closedByProgram = map[string]bool{"04": true, "05": true, "06": true, "09": true, "0B": true}

// groupHolds reports whether the processes of the target whose leader
// is pid hold every socket of inodes: those of its process group, or of
// the session it made its own (httpd calls setsid even in the
// foreground).
func groupHolds(pid int, inodes map[string]bool) (bool, error) {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return false, err
	}
	held := map[string]bool{}
	for _, p := range procs {
		member, err := strconv.Atoi(p.Name())
		if err != nil || !inTarget(member, pid) {
			continue
		}
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", member))
		for _, fd := range fds {
			link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", member, fd.Name()))
			if inode, ok := strings.CutPrefix(link, "socket:["); err == nil && ok {
				if inode = strings.TrimSuffix(inode, "]"); inodes[inode] {
					held[inode] = true
				}
			}
		}
	}
	return len(held) == len(inodes), nil
}

// inTarget reports whether process member is in the process group or the
// session of leader.
func inTarget(member, leader int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", member))
	if err != nil {
		return false
	}
	// pid (comm) state ppid pgrp session ...: comm may hold spaces and ")".
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return false
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 4 {
		return false
	}
	return fields[2] == strconv.Itoa(leader) || fields[3] == strconv.Itoa(leader)
}
