package main

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/source/live"
)

// originFlag is live's --origin: the loopback address hpackcert's origin
// listens on, or fd:N, a listening socket hpackcert inherited as file
// descriptor N. A program that starts hpackcert in front of a proxy it
// also starts (a test, a CI step, a supervisor's socket unit) opens the
// listener on port 0 itself, configures the proxy with its address and
// hands it down, so that no port is chosen free and bound later, when
// another program may have taken it.
type originFlag struct {
	value string
	// file is the inherited descriptor of fd:N, held open (an *os.File
	// closes its descriptor when it is collected) so that every --proxy
	// of the run is served from it.
	file *os.File
}

// String returns the flag's value as given.
func (o *originFlag) String() string { return o.value }

// Set takes ADDR, checked when the origin starts, or fd:N, checked now:
// N must be an inherited listening TCP socket.
func (o *originFlag) Set(v string) error {
	o.value, o.file = v, nil
	n, isFD := strings.CutPrefix(v, "fd:")
	if !isFD {
		return nil
	}
	fd, err := strconv.Atoi(n)
	if err != nil || fd < 3 {
		return fmt.Errorf("want fd:N with N a descriptor number of 3 or more (0 to 2 are standard input, output and error)")
	}
	if err := checkListening(fd); err != nil {
		return err
	}
	o.file = os.NewFile(uintptr(fd), "--origin "+v)
	return nil
}

// given reports whether --origin was set.
func (o *originFlag) given() bool { return o.value != "" }

// start starts hpackcert's origin for script where the flag says.
func (o *originFlag) start(script *live.Script) (*live.Origin, error) {
	if o.file == nil {
		return live.StartOrigin(o.value, script)
	}
	// FileListener duplicates the descriptor: closing the origin leaves
	// the inherited one to the next --proxy.
	ln, err := net.FileListener(o.file)
	if err != nil {
		return nil, fmt.Errorf("--origin %s: %v", o.value, err)
	}
	origin, err := live.ServeOrigin(ln, script)
	if err != nil {
		return nil, fmt.Errorf("--origin %s: %v", o.value, err)
	}
	return origin, nil
}
