//go:build nghttp2

package inprocess_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/internal/certifytest"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// TestNghttp2Grades certifies libnghttp2's deflater strictly: it breaks
// no MUST, and one rule of enc/7.1.3/2 — it never indexes authorization
// and short cookies, but indexes proxy-authorization (the credentials
// scenario sends it, so the grade does not depend on the traffic).
func TestNghttp2Grades(t *testing.T) {
	target, err := inprocess.Builtin("nghttp2")
	if err != nil {
		t.Fatal(err)
	}
	opts := certifytest.Quick()
	opts.Strict = true
	rep, err := certify.Run([]certify.Target{target}, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(certifytest.GradesWithout(rep, "nghttp2"), "\n")
	if !regexp.MustCompile(`^enc/7\.1\.3/2 fail: \(strict\) [^\n]*"proxy-authorization"[^\n]*$`).MatchString(got) {
		t.Errorf("nghttp2 with Strict, grades other than pass/info:\n%s\nwant only enc/7.1.3/2 failing on proxy-authorization", got)
	}
	t.Logf("nghttp2 coverage: %s", rep.Coverage["nghttp2"])
}
