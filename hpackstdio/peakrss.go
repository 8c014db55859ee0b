package hpackstdio

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// peakRSS returns the peak resident set size of process pid in octets,
// the VmHWM line of /proc/PID/status, and whether there is one: not
// where there is no /proc, nor for a process that exited.
func peakRSS(pid int) (int64, bool) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	return parseVmHWM(status)
}

// parseVmHWM reads the VmHWM line of a /proc/PID/status file,
// "VmHWM:\t    1234 kB", and returns it in octets.
func parseVmHWM(status []byte) (int64, bool) {
	for _, line := range bytes.Split(status, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) != 2 || string(fields[1]) != "kB" {
			return 0, false
		}
		kib, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil || kib < 0 || kib > 1<<53 {
			return 0, false
		}
		return kib << 10, true
	}
	return 0, false
}
