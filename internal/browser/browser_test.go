package browser_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/browser"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// chromium returns the browser to render with, or stops the test through
// testenv.Missing.
func chromium(t *testing.T) string {
	t.Helper()
	b, err := browser.Find()
	if errors.Is(err, browser.ErrNoBrowser) {
		testenv.Missing(t, "chromium, to render the HTML report (ci/apt-install.sh chromium)")
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writePage(t *testing.T, html string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRenderReport renders the HTML report of the reference encoder, as
// hpackcert writes it, in a 1000x700 window: it shows cleanly, with a row
// of the matrix per case and a section per case, and the screenshot is of
// that window.
func TestRenderReport(t *testing.T) {
	b := chromium(t)
	ref, err := inprocess.Builtin("ref")
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	rep, err := certify.Run([]certify.Target{ref}, certify.Options{Cases: []string{"enc/4", "enc/5.2"}, TrafficStories: 1, TrafficBlocks: 10})
	if err != nil {
		t.Fatal(err)
	}
	var html bytes.Buffer
	if err := report.WriteHTML(&html, rep); err != nil {
		t.Fatal(err)
	}
	page, err := browser.Render(context.Background(), writePage(t, html.String()), browser.Options{Browser: b, Width: 1000, Height: 700, Screenshot: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := page.Check(); err != nil {
		t.Fatalf("the reference's report: %v", err)
	}
	if page.Rows != 1+len(rep.Cases) || page.Sections != len(rep.Cases) || page.FirstFailure != -1 || page.Height != 700 || page.Heading != "hpackcert: PASS" {
		t.Errorf("rendered %s; want %d rows, %d sections, no failure, a 700px screen and the heading hpackcert: PASS", page, 1+len(rep.Cases), len(rep.Cases))
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(page.Screenshot))
	if err != nil || cfg.Width != 1000 || cfg.Height != 700 {
		t.Errorf("screenshot: %dx%d, %v; want a 1000x700 PNG", cfg.Width, cfg.Height, err)
	}
}

// TestRenderRefuses renders pages that must not pass, each for its reason.
func TestRenderRefuses(t *testing.T) {
	b := chromium(t)
	const page = "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>t</title></head><body><h1>hpackcert: PASS</h1><table><tr><th>case</th></tr><tr><td class=g>pass</td></tr></table>"
	const policy = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`
	tests := []struct {
		label, html, why string
	}{
		{"clean", page, ""},
		{"console error", page + "<script>console.error('broken')</script>", "console.error"},
		{"exception", page + "<script>null.x</script>", "exception"},
		{"missing image", page + `<img src="missing.png" alt="">`, "ERR_FILE_NOT_FOUND"},
		{"style against the policy", strings.Replace(page, "<title>", policy+"<title>", 1) + "<style>h1{color:red}</style>", "the page logged errors"},
		{"no heading", strings.Replace(page, "<h1>hpackcert: PASS</h1>", "", 1), "without an hpackcert heading"},
		{"no matrix", strings.Replace(page, "<tr><td class=g>pass</td></tr>", "", 1), "without a matrix of cases"},
	}
	for _, tt := range tests {
		p, err := browser.Render(context.Background(), writePage(t, tt.html), browser.Options{Browser: b})
		if err != nil {
			t.Errorf("%s: %v", tt.label, err)
			continue
		}
		err = p.Check()
		switch {
		case tt.why == "" && err != nil:
			t.Errorf("%s: %v; want a clean page", tt.label, err)
		case tt.why != "" && (err == nil || !strings.Contains(err.Error(), tt.why)):
			t.Errorf("%s: %v; want an error saying %q", tt.label, err, tt.why)
		}
	}
	if _, err := browser.Render(context.Background(), filepath.Join(t.TempDir(), "none.html"), browser.Options{Browser: b}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v; want os.ErrNotExist", err)
	}
}
