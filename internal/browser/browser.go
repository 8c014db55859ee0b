// Package browser renders an HTML report of hpackcert in headless
// Chromium, as a user's browser shows it, and says whether the page shows
// as written: it loaded, every resource it names loaded, nothing was
// logged as an error (a script error, console.error, a Content Security
// Policy violation, a network error), and what rendered is a report (an
// "hpackcert" heading, a matrix with a row per case).
//
// It drives Chromium over the DevTools protocol with
// github.com/chromedp/chromedp.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/inspector"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ErrNoBrowser is returned when no Chromium is found.
var ErrNoBrowser = errors.New("browser: no Chromium found (set CHROMIUM, or install chromium: ci/apt-install.sh chromium)")

// Find returns the Chromium to run: $CHROMIUM when set, else chromium or
// chromium-browser on PATH.
func Find() (string, error) {
	if b := os.Getenv("CHROMIUM"); b != "" {
		path, err := exec.LookPath(b)
		if err != nil {
			return "", fmt.Errorf("browser: CHROMIUM=%s: %w", b, err)
		}
		return path, nil
	}
	for _, b := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(b); err == nil {
			return path, nil
		}
	}
	return "", ErrNoBrowser
}

// Options configures Render. The zero value renders in a 1280x800 window
// with the Chromium Find returns, each step within 30 seconds.
type Options struct {
	// Browser is the Chromium program; empty means Find's.
	Browser string
	// Width and Height are the window's, in CSS pixels.
	Width, Height int
	// Screenshot asks for a PNG of the first screen.
	Screenshot bool
	// Timeout bounds the whole rendering.
	Timeout time.Duration
}

// Page is what rendered, as measured in the page.
type Page struct {
	// Rows are the rows of the matrix (the table of grade cells), its
	// heading row included; Sections the <section> elements.
	Rows, Sections int
	// FirstFailure is where the first failure's section starts, in pixels
	// from the top of the screen; -1 when there is none.
	FirstFailure int
	// Height is the height of the screen.
	Height int
	// Heading is the text of the first <h1>.
	Heading string
	// Errors are what the page logged as errors, whatever logged them.
	Errors []string
	// Screenshot is the first screen as a PNG, when asked for.
	Screenshot []byte
}

// String says what rendered on one line, every character of the heading
// outside printable ASCII shown as "?".
func (p *Page) String() string {
	heading := strings.Map(func(r rune) rune {
		if r < ' ' || r > '~' {
			return '?'
		}
		return r
	}, p.Heading)
	return fmt.Sprintf("rows=%d sections=%d first-failure=%d height=%d heading=%s", p.Rows, p.Sections, p.FirstFailure, p.Height, heading)
}

// Check returns an error when the page did not show as a report: it
// logged errors, or has no hpackcert heading, or no matrix of cases.
func (p *Page) Check() error {
	switch {
	case len(p.Errors) > 0:
		return fmt.Errorf("the page logged errors:\n%s", strings.Join(p.Errors, "\n"))
	case !strings.HasPrefix(p.Heading, "hpackcert"):
		return fmt.Errorf("rendered without an hpackcert heading (%s)", p)
	case p.Rows < 2:
		return fmt.Errorf("rendered without a matrix of cases (%s)", p)
	}
	return nil
}

// probe measures the page in the page.
const probe = `(() => {
	const h1 = document.querySelector("h1"), cell = document.querySelector("td.g"), matrix = cell && cell.closest("table");
	const first = document.querySelector("section.fail, section.expected");
	return {
		rows: matrix ? matrix.rows.length : 0,
		sections: document.querySelectorAll("section").length,
		firstFailure: first ? Math.round(first.getBoundingClientRect().top) : -1,
		height: window.innerHeight,
		heading: h1 ? h1.textContent : "",
	};
})()`

// Render loads the HTML file at path in a fresh headless Chromium and
// returns what rendered. An error means the page could not be rendered at
// all; a page that rendered badly is a Page whose Check fails.
func Render(ctx context.Context, path string, opts Options) (*Page, error) {
	if opts.Width <= 0 || opts.Height <= 0 {
		opts.Width, opts.Height = 1280, 800
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.Browser == "" {
		b, err := Find()
		if err != nil {
			return nil, err
		}
		opts.Browser = b
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(abs); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	// --no-sandbox: the page is a local file, and CI containers often run
	// as root, where Chromium's sandbox does not start.
	alloc := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(opts.Browser),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(opts.Width, opts.Height),
	)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, alloc...)
	defer cancelAlloc()
	// The listener sees every event of the tab from its start, in the
	// order they arrive, on the goroutine reading the browser's messages.
	var mu sync.Mutex
	var logged []string
	ctx, cancelTab := chromedp.NewContext(ctx, chromedp.WithListener(func(ev any) {
		if msg := pageError(ev); msg != "" {
			mu.Lock()
			if len(logged) < maxErrors {
				logged = append(logged, msg)
			}
			mu.Unlock()
		}
	}))
	defer cancelTab()

	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(int64(opts.Width), int64(opts.Height)),
		chromedp.Navigate(u.String()),
	); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", path, err)
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
		Rows         int    `json:"rows"`
		Sections     int    `json:"sections"`
		FirstFailure int    `json:"firstFailure"`
		Height       int    `json:"height"`
		Heading      string `json:"heading"`
	}](probe))
	if err != nil {
		return nil, fmt.Errorf("measuring %s: %w", path, err)
	}
	page := &Page{Rows: found.Rows, Sections: found.Sections, FirstFailure: found.FirstFailure, Height: found.Height, Heading: found.Heading}
	if opts.Screenshot {
		if page.Screenshot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot()); err != nil {
			return nil, fmt.Errorf("screenshot of %s: %w", path, err)
		}
	}
	mu.Lock()
	page.Errors = logged
	mu.Unlock()
	return page, nil
}

// maxErrors is the most errors a Page keeps: enough to say what broke.
const maxErrors = 64

// pageError describes ev when it is an error the page logged, else "".
func pageError(ev any) string {
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		if d == nil {
			return "exception"
		}
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		return fmt.Sprintf("exception: %s (line %d)", text, d.LineNumber)
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return ""
		}
		var args []string
		for _, a := range ev.Args {
			if a.Value != nil {
				args = append(args, string(a.Value))
			} else {
				args = append(args, a.Description)
			}
		}
		return fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " "))
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level != cdplog.EntryLevelError {
			return ""
		}
		return fmt.Sprintf("%s error: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
	case *inspector.EventDetached:
		return "the page was detached: " + ev.Reason
	case *inspector.EventTargetCrashed:
		return "the page crashed"
	}
	return ""
}
