package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// measureEnv makes a re-executed test binary run its arguments as a
// command and write the command's peak RSS, in KiB, to the file it names.
// The peak is exact only so: Linux carries the peak RSS of the process
// that execs into the rusage of what it execs, and a child started
// straight from a test binary that has run other tests would report the
// test binary's peak; the small re-executed binary's own is noise.
const measureEnv = "HPACKCERT_MEASURE_RSS"

// addressSpaceEnv, when set with measureEnv, is an address-space ceiling
// (RLIMIT_AS, in octets) put on the command.
const addressSpaceEnv = "HPACKCERT_MEASURE_AS"

// RunMeasured is the re-executed side of MeasuredCommand: a TestMain calls
// it first; in a re-executed binary it runs the command, records its peak
// RSS and exits with the command's status, and otherwise it returns.
func RunMeasured() {
	out := os.Getenv(measureEnv)
	if out == "" {
		return
	}
	os.Unsetenv(measureEnv)
	if as := os.Getenv(addressSpaceEnv); as != "" {
		os.Unsetenv(addressSpaceEnv)
		n, err := strconv.ParseUint(as, 10, 64)
		if err == nil {
			err = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "measure:", err)
			os.Exit(3)
		}
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.ExtraFiles = inheritedFiles()
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(3)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		os.WriteFile(out, []byte(strconv.FormatInt(int64(ru.Maxrss), 10)), 0o644)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// inheritedFiles returns the descriptors from 3 up that this process
// inherited (a listener its starter put in exec.Cmd.ExtraFiles), so that
// the command gets them as it would have without the re-execution. They
// are the run of descriptors from 3 without close-on-exec: everything
// the Go runtime opens itself has it.
func inheritedFiles() []*os.File {
	var files []*os.File
	for fd := 3; ; fd++ {
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
		if errno != 0 || flags&syscall.FD_CLOEXEC != 0 {
			return files
		}
		files = append(files, os.NewFile(uintptr(fd), "inherited"))
	}
}

// MeasuredCommand returns a command that runs name with args through a
// re-execution of the test binary (whose TestMain calls RunMeasured),
// under an address-space ceiling of addressSpace octets unless it is 0,
// and a function that returns the command's peak RSS in KiB once it ran.
// The caller sets the command's environment from the one it returns, adds
// to it, and runs it.
func MeasuredCommand(t testing.TB, addressSpace uint64, name string, args ...string) (*exec.Cmd, func() (int64, error)) {
	t.Helper()
	file := t.TempDir() + "/peak-rss"
	cmd := exec.Command(os.Args[0], append([]string{name}, args...)...)
	cmd.Env = append(os.Environ(), measureEnv+"="+file)
	if addressSpace > 0 {
		cmd.Env = append(cmd.Env, addressSpaceEnv+"="+strconv.FormatUint(addressSpace, 10))
	}
	return cmd, func() (int64, error) {
		data, err := os.ReadFile(file)
		if err != nil {
			return 0, fmt.Errorf("no peak RSS measured: %w", err)
		}
		return strconv.ParseInt(string(data), 10, 64)
	}
}

// GoMemLimit returns the environment entry that sets the Go memory limit
// (GOMEMLIMIT) of a measured Go program at three quarters of bound, the
// peak RSS a test allows it. Without it the collector lets the heap grow
// to twice what is live before it collects, and further when a loaded
// machine starves its background workers, so that the peak measures the
// machine's load as much as the program; with it the collector works
// harder as the heap nears the limit, and the peak measures what the
// program keeps: memory it holds on to goes past the limit and the bound
// all the same. The last quarter is room for what the limit does not
// cover: the binary's text, C memory (libnghttp2).
func GoMemLimit(bound int64) string {
	return "GOMEMLIMIT=" + strconv.FormatInt(bound/4*3, 10)
}
