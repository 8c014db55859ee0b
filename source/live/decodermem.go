package live

import (
	"bytes"
	"os"
	"strconv"
)

// groupPeakMemory returns the sum of the peak resident set sizes (VmHWM
// of /proc/PID/status), in octets, of the processes of the process group
// pgid: a server started in a group of its own and the workers it
// forked. It is false when pgid is 0 or no process of the group can be
// read (no /proc, the group gone).
func groupPeakMemory(pgid int) (int64, bool) {
	if pgid <= 0 {
		return 0, false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	var sum int64
	found := false
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		if g, ok := processGroup(pid); !ok || g != pgid {
			continue
		}
		if kib, ok := statusKiB(pid, "VmHWM:"); ok {
			sum += kib << 10
			found = true
		}
	}
	return sum, found
}

// processGroup returns the process group of pid, field 5 of
// /proc/PID/stat, read after the command name, which is in parentheses
// and may hold spaces and parentheses itself.
func processGroup(pid int) (int, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, false
	}
	// After the name: state, ppid, pgrp.
	fields := bytes.Fields(stat[end+1:])
	if len(fields) < 3 {
		return 0, false
	}
	g, err := strconv.Atoi(string(fields[2]))
	return g, err == nil
}

// statusKiB returns the value in KiB of the line of /proc/PID/status
// that begins with key ("VmHWM:").
func statusKiB(pid int, key string) (int64, bool) {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range bytes.Split(status, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte(key))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) == 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(string(fields[0]), 10, 64)
		return n, err == nil
	}
	return 0, false
}
