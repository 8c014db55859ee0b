package targets

import (
	"net"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// takeFirstPort makes the first port newListening gives a start already
// taken by another listener (this test's, to the target another
// program's), as another test binary would take a port chosen free in
// the moment before the target binds it; it returns that address and
// how many listenings were made.
func takeFirstPort(t *testing.T) (taken string, made *int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	original := newListening
	t.Cleanup(func() { newListening = original })
	made = new(int)
	newListening = func(handDown bool) (*listening, error) {
		*made++
		if *made == 1 && !handDown {
			return &listening{Addr: ln.Addr().String(), Port: ln.Addr().(*net.TCPAddr).Port}, nil
		}
		return original(handDown)
	}
	return ln.Addr().String(), made
}

// TestStartRetriesATakenPort starts httpd, which binds the port written
// in its configuration itself, on a port another program took first: the
// start fails on "Address already in use" and is made again on a new
// port, and the target is certified there.
func TestStartRetriesATakenPort(t *testing.T) {
	spec := installedTarget(t, "apache2")
	if spec.inherits {
		t.Fatal("apache2 takes an inherited socket; this test needs a target that binds its port")
	}
	taken, made := takeFirstPort(t)
	c, _ := certifyWith(t, "apache2", Options{})
	if *made != 2 {
		t.Errorf("%d ports made; want 2 (the taken one, then a new one)", *made)
	}
	if c.Where == "http://"+taken {
		t.Errorf("certified at %s, the port another program held", c.Where)
	}
	if c.Blocks() == 0 {
		t.Errorf("no block captured at %s", c.Where)
	}
}

// TestStartHandsDownItsListener starts nginx, which takes the listening
// socket hpackcert opened: the port is never free, so no other program
// can take it between its choice and the start, and one start is made.
func TestStartHandsDownItsListener(t *testing.T) {
	spec := installedTarget(t, "nginx")
	if !spec.inherits {
		t.Fatal("nginx binds its port; this test needs a target that takes an inherited socket")
	}
	original := newListening
	t.Cleanup(func() { newListening = original })
	var handed []string
	newListening = func(handDown bool) (*listening, error) {
		l, err := original(handDown)
		if err != nil {
			return nil, err
		}
		handed = append(handed, l.Addr)
		// Another program trying the port before the target starts.
		if other, err := net.Listen("tcp", l.Addr); err == nil {
			other.Close()
			t.Errorf("another program could listen on %s before the target started: the port was free", l.Addr)
		}
		return l, nil
	}
	c, _ := certifyWith(t, "nginx", Options{})
	if len(handed) != 1 || c.Where != "http://"+handed[0] {
		t.Errorf("listeners handed down at %q, certified at %s; want one, where the target was certified", handed, c.Where)
	}
	if c.Blocks() == 0 {
		t.Errorf("no block captured at %s", c.Where)
	}
}

// TestWaitListeningWantsTheTargetsOwnSocket checks the readiness test of
// a start: a port another program listens on is not the target's, one
// the target's process group holds is, and a connection the target has
// not accepted is not accepted.
func TestWaitListeningWantsTheTargetsOwnSocket(t *testing.T) {
	other, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	mine, err := newListening(true)
	if err != nil {
		t.Fatal(err)
	}
	// The target: a process holding mine's socket, in a group of its own.
	target := exec.Command("sleep", "60")
	target.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	target.ExtraFiles = []*os.File{mine.file}
	if err := target.Start(); err != nil {
		t.Fatal(err)
	}
	mine.file.Close()
	defer func() { target.Process.Kill(); target.Wait() }()
	otherPort := other.Addr().(*net.TCPAddr).Port
	probe, err := net.Dial("tcp", other.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	peer := probe.LocalAddr().(*net.TCPAddr).Port
	sockets, err := tcpSockets()
	if err != nil {
		t.Fatal(err)
	}
	if some, ours, err := listensThere(sockets, otherPort, target.Process.Pid); err != nil || !some || ours {
		t.Errorf("listensThere(another program's port) = %v, %v, %v; want true, false", some, ours, err)
	}
	if some, ours, err := listensThere(sockets, mine.Port, target.Process.Pid); err != nil || !some || !ours {
		t.Errorf("listensThere(the target's port) = %v, %v, %v; want true, true", some, ours, err)
	}
	if acceptedFrom(sockets, otherPort, peer) {
		t.Errorf("a connection waiting in the queue counts as accepted")
	}
	accepted, err := other.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if sockets, err = tcpSockets(); err != nil {
		t.Fatal(err)
	}
	if !acceptedFrom(sockets, otherPort, peer) {
		t.Errorf("an accepted connection does not count as accepted")
	}
	// A program may close the connection it accepted before it is seen.
	accepted.Close()
	if sockets, err = tcpSockets(); err != nil {
		t.Fatal(err)
	}
	if !acceptedFrom(sockets, otherPort, peer) {
		t.Errorf("a connection accepted and closed does not count as accepted")
	}
}

// TestPortTakenLog checks that the bind errors of the catalogue's
// programs that bind their port themselves are read as a port taken.
func TestPortTakenLog(t *testing.T) {
	for _, line := range []string{
		"(98)Address already in use: AH00072: make_sock: could not bind to address 127.0.0.1:8080", // httpd
		"Error: Could not get socket 127.0.0.1:8080: Address already in use",                       // varnishd
		"listen tcp 127.0.0.1:8080: bind: address already in use",                                  // caddy
		"java.net.BindException: Address already in use",                                           // Jetty, Tomcat
		"Error: listen EADDRINUSE: address already in use 127.0.0.1:8080",                          // Bun
	} {
		if !portTakenLog.MatchString(line) {
			t.Errorf("%q is not read as a port taken", line)
		}
	}
	if portTakenLog.MatchString("AH00489: Apache/2.4.71 (Debian) configured -- resuming normal operations") {
		t.Errorf("a start's notice is read as a port taken")
	}
}
