// Command startup measures what package encoder costs a program that
// imports it, before and after it encodes: the time the package's
// initialization takes (GODEBUG=inittrace=1) and the program's resident
// anonymous memory (RssAnon in /proc/self/status, Linux only) at the start
// of main and after one header block is encoded. It runs itself -n times
// as a child process and prints the medians.
//
// Usage:
//
//	go run ./bench/cmd/startup [-n 21]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hpackcert/hpackcert/encoder"
)

const childEnv = "HPACKCERT_STARTUP_CHILD"

// initLine matches the encoder's line of GODEBUG=inittrace=1 output; a
// package with no initialization work prints none.
var initLine = regexp.MustCompile(`^init github\.com/hpackcert/hpackcert/encoder @\S+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes, ([0-9]+) allocs`)

func main() {
	if os.Getenv(childEnv) == "1" {
		child()
		return
	}
	runs := flag.Int("n", 21, "child runs")
	flag.Parse()
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	var initMs, initBytes, before, after []float64
	for range *runs {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), childEnv+"=1", "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			fail(fmt.Errorf("child: %v\n%s", err, stderr.Bytes()))
		}
		ms, heap := 0.0, 0.0 // no line: no initialization work
		for sc := bufio.NewScanner(&stderr); sc.Scan(); {
			if m := initLine.FindStringSubmatch(sc.Text()); m != nil {
				ms, _ = strconv.ParseFloat(m[1], 64)
				heap, _ = strconv.ParseFloat(m[2], 64)
			}
		}
		initMs, initBytes = append(initMs, ms), append(initBytes, heap)
		var b, a float64
		if _, err := fmt.Sscan(string(out), &b, &a); err != nil {
			fail(fmt.Errorf("child output %q: %v", out, err))
		}
		before, after = append(before, b), append(after, a)
	}
	fmt.Printf("medians of %d runs:\n", *runs)
	fmt.Printf("  encoder package initialization: %.3f ms, %.0f heap bytes\n", median(initMs), median(initBytes))
	fmt.Printf("  RssAnon at the start of main:    %.0f kB\n", median(before))
	fmt.Printf("  RssAnon after one block encoded: %.0f kB\n", median(after))
}

// child prints RssAnon at the start of main and after encoding a block
// whose values need the Huffman coder's eight-octet step.
func child() {
	before := rssAnonKB()
	e := encoder.New(encoder.Config{})
	dst := make([]byte, 0, 1024)
	dst = e.AppendFieldString(dst, ":method", "GET", false)
	dst = e.AppendFieldString(dst, ":path", "/api/v1/resource", false)
	dst = e.AppendFieldString(dst, "user-agent", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36", false)
	_ = dst
	fmt.Println(before, rssAnonKB())
}

// rssAnonKB returns RssAnon of /proc/self/status in kB, 0 if unknown.
func rssAnonKB() int {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return kb
		}
	}
	return 0
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "startup:", err)
	os.Exit(2)
}
