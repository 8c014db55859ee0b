//go:build !linux

package cputime

import "time"

// Thread reports that the CPU time of one thread is unknown here.
func Thread() (time.Duration, bool) { return 0, false }
