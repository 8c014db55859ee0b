package report_test

import (
	"bytes"
	"flag"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/broken"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/internal/testenv"
	"github.com/hpackcert/hpackcert/report"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

var screenshot = flag.String("render.screenshot", "", "write the first screen of the failing matrix's HTML report, as Chromium renders it, to this PNG file")

// renderScript returns the path of ci/render-report.sh, or stops the test
// through testenv.Missing when bash or Chromium is missing (the script
// would install Chromium; a test does not).
func renderScript(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Missing(t, "bash, to run ci/render-report.sh")
	}
	if os.Getenv("CHROMIUM") == "" {
		if _, err := exec.LookPath("chromium"); err != nil {
			if _, err := exec.LookPath("chromium-browser"); err != nil {
				testenv.Missing(t, "chromium, to render the HTML report (ci/apt-install.sh chromium)")
			}
		}
	}
	root := testenv.ModuleRoot()
	if root == "" {
		t.Fatal("no module root to find ci/render-report.sh in")
	}
	return filepath.Join(root, "ci", "render-report.sh")
}

// render runs ci/render-report.sh with args and returns its output, its
// error output and its exit status.
func render(t *testing.T, script string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("running %s: %v", script, err)
		}
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// failingReport certifies the reference encoder beside three broken
// ones, on every case: failures, an unsupported case, a non-strict result,
// info and passes, the matrix a user of the gate sees when it fails.
func failingReport(t *testing.T) *certify.Report {
	t.Helper()
	ref, err := inprocess.Builtin("ref")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := certify.Run([]certify.Target{ref, certifytest.BrokenTarget(broken.HuffmanZeroPadding), certifytest.BrokenTarget(broken.AlwaysHuffman), certifytest.BrokenTarget(broken.SensitiveIndexed)}, certifytest.Quick())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestHTMLReportFailuresFirst writes the HTML report of a failing matrix
// and checks its structure: the verdict heading comes first; every section
// of a failure or a non-strict result comes before the matrix and before
// any section of a pass, outside any <details>; every pass is inside one.
// Then it renders the page in Chromium (ci/render-report.sh), which must
// find no error, and checks that the first failure starts on the first
// screen (1280x800).
func TestHTMLReportFailuresFirst(t *testing.T) {
	rep := failingReport(t)
	if !rep.Failed() {
		t.Fatal("the failing matrix did not fail")
	}
	var buf bytes.Buffer
	if err := report.WriteHTML(&buf, rep); err != nil {
		t.Fatal(err)
	}
	doc := parseHTML(t, buf.Bytes())
	// position numbers the elements in document order.
	position := map[*html.Node]int{}
	all := elements(doc, nil)
	for i, n := range all {
		position[n] = i
	}
	first := func(keep func(*html.Node) bool) (*html.Node, int) {
		for i, n := range all {
			if keep(n) {
				return n, i
			}
		}
		t.Fatal("no such element")
		return nil, -1
	}
	section := func(class string) func(*html.Node) bool {
		return func(n *html.Node) bool { return n.Data == "section" && attr(n, "class") == class }
	}
	_, h1 := first(func(n *html.Node) bool { return n.Data == "h1" })
	_, matrix := first(func(n *html.Node) bool { return n.Data == "table" && attr(n, "class") == "" })
	failure, firstFailure := first(section("fail"))
	_, firstPass := first(section("pass"))
	if !(h1 < firstFailure && firstFailure < matrix && matrix < firstPass) {
		t.Errorf("elements in the order: heading %d, first failure %d, matrix %d, first pass %d; want that order", h1, firstFailure, matrix, firstPass)
	}
	counts := map[string]int{}
	for _, n := range elements(doc, func(n *html.Node) bool { return n.Data == "section" }) {
		class := attr(n, "class")
		counts[class]++
		switch class {
		case "fail", "expected", "non-strict":
			if position[n] > matrix || within(n, "details") {
				t.Errorf("section %s (%s) is after the matrix or collapsed", attr(n, "id"), class)
			}
		case "pass":
			if !within(n, "details") {
				t.Errorf("section %s (pass) is not inside a <details>", attr(n, "id"))
			}
		}
	}
	// Each planted bug fails once, under the rule it breaks; what follows
	// from it is a consequence.
	if counts["fail"] != 2 || counts["non-strict"] != 1 || counts["consequence"] == 0 || counts["pass"] == 0 {
		t.Errorf("sections by grade %v; want 2 fail, 1 non-strict, consequences and passes", counts)
	}
	if got, want := attr(failure, "id"), "e1-enc-5_2-1"; got != want {
		t.Errorf("first failure section %s; want %s (the case broken huffman-zero-padding fails)", got, want)
	}

	script := renderScript(t)
	page := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	shot := *screenshot
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "first-screen.png")
	}
	out, errOut, status := render(t, script, "--screenshot", shot, page)
	if status != 0 {
		t.Fatalf("render-report.sh: exit %d; want 0\n%s%s", status, out, errOut)
	}
	t.Log(strings.TrimSpace(out))
	m := regexp.MustCompile(` rows=(\d+) sections=(\d+) first-failure=(-?\d+) height=(\d+) heading=hpackcert: FAIL\n$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("render-report.sh printed %q; want the rows, sections, first failure, height and heading", out)
	}
	rows, _ := strconv.Atoi(m[1])
	sections, _ := strconv.Atoi(m[2])
	top, _ := strconv.Atoi(m[3])
	height, _ := strconv.Atoi(m[4])
	if rows != 1+len(rep.Cases) || sections != len(rep.Cases)*len(rep.Encoders) {
		t.Errorf("Chromium rendered %d matrix rows and %d sections; want %d and %d", rows, sections, 1+len(rep.Cases), len(rep.Cases)*len(rep.Encoders))
	}
	if top < 0 || top >= height {
		t.Errorf("the first failure starts at %dpx of an %dpx screen; want it on the first screen", top, height)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width != 1280 || cfg.Height != 800 {
		t.Errorf("screenshot %s: %dx%d, %v; want a 1280x800 PNG", shot, cfg.Width, cfg.Height, err)
	}
}

// TestRenderReport runs ci/render-report.sh on pages it must refuse, each
// for the reason it must give, and on the HTML report of every hostile
// string at once, which it must find clean: no script ran, no resource
// was asked for, the style sheet applied under the page's policy.
func TestRenderReport(t *testing.T) {
	script := renderScript(t)
	var hostilePage bytes.Buffer
	if err := report.WriteHTML(&hostilePage, hostileReport(allHostile())); err != nil {
		t.Fatal(err)
	}
	report := hostilePage.String()
	const page = "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>t</title></head><body><h1>hpackcert: PASS</h1><table><tr><th>case</th></tr><tr><td class=g>pass</td></tr></table>"
	tests := []struct {
		label, html, why string
	}{
		{"hostile report", report, ""},
		{"console error", page + "<script>console.error('broken')</script>", "the page logged errors"},
		{"exception", page + "<script>null.x</script>", "the page logged errors"},
		{"missing image", page + `<img src="missing.png" alt="">`, "the page logged errors"},
		{"script in the report", strings.Replace(report, "</body>", "<script>document.title='x'</script></body>", 1), "the page logged errors"},
		{"style not in the policy", strings.Replace(report, "body{", "body {", 1), "the page logged errors"},
		{"no heading", strings.Replace(page, "<h1>hpackcert: PASS</h1>", "", 1), "without an hpackcert heading"},
		{"no matrix", strings.Replace(page, "<tr><td class=g>pass</td></tr>", "", 1), "without a matrix of cases"},
		{"no file", "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "report.html")
			if tt.html != "" {
				if err := os.WriteFile(path, []byte(tt.html), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out, errOut, status := render(t, script, path)
			switch {
			case tt.why == "" && status != 0:
				t.Errorf("exit %d; want 0\n%s%s", status, out, errOut)
			case tt.why != "" && (status != 1 || !strings.Contains(errOut, tt.why)):
				t.Errorf("exit %d, %q; want 1 and %q", status, errOut, tt.why)
			}
		})
	}
}
