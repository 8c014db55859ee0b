//go:build !linux

package bench

import "time"

// threadCPUTime reports that the CPU time of one thread is unknown here.
func threadCPUTime() (time.Duration, bool) { return 0, false }
