// Command renderreport renders an HTML report of hpackcert in headless
// Chromium and fails when the page would not show as written (see package
// browser). ci/render-report.sh builds and runs it.
//
// Usage: renderreport [--screenshot PNG] [--size WIDTHxHEIGHT] REPORT.html
//
// On success it prints one line: the matrix rows and sections it found,
// where the first failure's section starts on the screen, and the heading.
// Exit status: 0 rendered cleanly, 1 did not, 2 usage or no browser.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hpackcert/hpackcert/internal/browser"
)

const usage = "usage: ci/render-report.sh [--screenshot PNG] [--size WIDTHxHEIGHT] REPORT.html"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render-report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	screenshot := fs.String("screenshot", "", "also write what the first screen shows, as a PNG")
	size := fs.String("size", "1280x800", "the window, WIDTHxHEIGHT")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	width, height, ok := parseSize(*size)
	if !ok {
		fmt.Fprintf(stderr, "render-report.sh: --size %q: want WIDTHxHEIGHT\n%s\n", *size, usage)
		return 2
	}
	report := fs.Arg(0)
	timeout := 30 * time.Second
	if s := os.Getenv("RENDER_TIMEOUT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			fmt.Fprintf(stderr, "render-report.sh: RENDER_TIMEOUT=%s: want a number of seconds\n", s)
			return 2
		}
		timeout = time.Duration(n) * time.Second
	}
	page, err := browser.Render(context.Background(), report, browser.Options{
		Width: width, Height: height, Screenshot: *screenshot != "", Timeout: timeout,
	})
	switch {
	case errors.Is(err, browser.ErrNoBrowser):
		fmt.Fprintf(stderr, "render-report.sh: %v\n", err)
		return 2
	case errors.Is(err, os.ErrNotExist):
		fmt.Fprintf(stderr, "render-report.sh: %s: no such file\n", report)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "render-report.sh: %s: %v\n", report, err)
		return 1
	}
	if *screenshot != "" {
		if err := os.WriteFile(*screenshot, page.Screenshot, 0o644); err != nil {
			fmt.Fprintf(stderr, "render-report.sh: %v\n", err)
			return 1
		}
	}
	if err := page.Check(); err != nil {
		fmt.Fprintf(stderr, "render-report.sh: %s: %v\n", report, err)
		return 1
	}
	fmt.Fprintf(stdout, "render-report.sh: %s: rendered: %s\n", report, page)
	return 0
}

// parseSize parses "WIDTHxHEIGHT".
func parseSize(s string) (width, height int, ok bool) {
	w, h, found := strings.Cut(s, "x")
	width, werr := strconv.Atoi(w)
	height, herr := strconv.Atoi(h)
	return width, height, found && werr == nil && herr == nil && width > 0 && height > 0
}
