package live

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
)

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
