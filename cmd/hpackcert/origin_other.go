//go:build !unix

package main

import "errors"

// checkListening refuses every descriptor: a listener handed down by
// number is a Unix way.
func checkListening(int) error {
	return errors.New("fd:N needs a Unix system; give a loopback address")
}
