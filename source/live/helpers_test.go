package live

import (
	"context"
	"io"
	"net"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/certify/livegrade"
)

// gradeCaptures grades captures as hpackcert live does: the engine grades
// their transcripts.
func gradeCaptures(captures []*Capture, opts certify.Options) (*certify.Report, error) {
	return livegrade.Grade(Transcripts(captures), ScheduleText(), opts)
}

// testScript is the script of the tests: the targeted connection and two
// traffic stories of 24 blocks, every change of the schedule on each.
var testScript = sync.OnceValues(func() (*Script, error) { return DefaultScript(2, 24) })

func script(t testing.TB) *Script {
	t.Helper()
	sc, err := testScript()
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// servePreface does what a test's HTTP/2 server does first on a
// connection it accepted: a deadline of 10 s, the client preface read,
// a Framer on the connection and its empty SETTINGS frame written. It
// returns nil when the preface does not come.
func servePreface(nc net.Conn) *http2.Framer {
	nc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.ReadFull(nc, make([]byte, len(http2.ClientPreface))); err != nil {
		return nil
	}
	fr := http2.NewFramer(nc, nc)
	fr.WriteSettings()
	return fr
}

// soReusePort is Linux's SO_REUSEPORT, which package syscall does not
// name.
const soReusePort = 0xf

// refusingListener returns a loopback listener whose port, once the
// listener is closed, refuses connections until the test ends. A port
// merely closed after use could be taken by another program in between,
// which would answer: here a second socket, bound to the port beside the
// listener (both with SO_REUSEPORT) and never listening, holds it.
func refusingListener(t *testing.T) net.Listener {
	t.Helper()
	reusePort := func(fd uintptr) error {
		return syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, soReusePort, 1)
	}
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		var err error
		if cerr := c.Control(func(fd uintptr) { err = reusePort(fd) }); cerr != nil {
			return cerr
		}
		return err
	}}
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	holder, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(holder) })
	addr := &syscall.SockaddrInet4{Port: ln.Addr().(*net.TCPAddr).Port, Addr: [4]byte{127, 0, 0, 1}}
	if err := reusePort(uintptr(holder)); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Bind(holder, addr); err != nil {
		t.Fatal(err)
	}
	return ln
}
