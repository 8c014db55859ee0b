//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// checkListening returns why descriptor fd cannot be the origin's
// listener, or nil when it is a listening socket.
func checkListening(fd int) error {
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return fmt.Errorf("descriptor %d: %v (was it handed down to hpackcert?)", fd, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return fmt.Errorf("descriptor %d is not a socket", fd)
	}
	if listening, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_ACCEPTCONN); err != nil || listening == 0 {
		return fmt.Errorf("descriptor %d is not a listening socket (call listen on it before handing it down)", fd)
	}
	return nil
}
