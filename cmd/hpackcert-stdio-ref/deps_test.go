package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// forbiddenDep says why a package may not be linked into a program that
// speaks hpack-stdio/1, "" when it may: the certifier's engine
// (certify/) and its oracles (oracle/) of module mainModule, and x/net's
// HPACK decoder, which an oracle wraps. The one exception is
// oracle/qstrict, the strict QPACK decoder, which the program serves as
// its QPACK decoder (-qpack-decoder): a decoder standing alone, that
// links no engine and no other oracle (which this rule still checks of
// everything it imports).
func forbiddenDep(path, module, mainModule string) string {
	if path == "golang.org/x/net/http2/hpack" {
		return "x/net's HPACK decoder, an oracle's"
	}
	if module != mainModule {
		return ""
	}
	rel := strings.TrimPrefix(path, mainModule+"/")
	if rel == "oracle/qstrict" {
		return ""
	}
	for _, dir := range []string{"certify", "oracle"} {
		if rel == dir || strings.HasPrefix(rel, dir+"/") {
			return "under " + dir + "/ of " + mainModule
		}
	}
	return ""
}

// TestForbiddenDep checks the rule itself, so that the test below cannot
// pass by a rule that forbids nothing.
func TestForbiddenDep(t *testing.T) {
	const m = "example.com/m"
	tests := []struct {
		path, module string
		forbidden    bool
	}{
		{"example.com/m/certify", m, true},
		{"example.com/m/certify/internal/x", m, true},
		{"example.com/m/oracle", m, true},
		{"example.com/m/oracle/strict", m, true},
		{"example.com/m/oracle/qstrict/internal", m, true},
		{"example.com/m/oracle/qstrict", m, false},
		{"golang.org/x/net/http2/hpack", "golang.org/x/net", true},
		{"example.com/m/certifyx", m, false},
		{"example.com/m/encoder", m, false},
		{"example.com/m/hpackstdio", m, false},
		{"golang.org/x/net/http2", "golang.org/x/net", false},
		{"other.org/certify", "other.org", false},
		{"fmt", "", false},
	}
	for _, tt := range tests {
		if got := forbiddenDep(tt.path, tt.module, m) != ""; got != tt.forbidden {
			t.Errorf("forbiddenDep(%q, %q) forbids %t; want %t", tt.path, tt.module, got, tt.forbidden)
		}
	}
}

// TestLinksNoEngine checks, with go list -deps, that this program and
// the protocol package it is built on link no package of the engine, no
// oracle and not x/net's decoder (issue 37: the protocol stands alone).
func TestLinksNoEngine(t *testing.T) {
	goTool := testenv.GoTool(t, "to list the packages hpackcert-stdio-ref links")
	mod, err := exec.Command(goTool, "list", "-m").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	mainModule := strings.TrimSpace(string(mod))
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{end}}",
		".", mainModule+"/hpackstdio").Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("go list -deps: %v\n%s", err, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	seen := false
	for _, line := range lines {
		path, module, _ := strings.Cut(line, " ")
		if why := forbiddenDep(path, module, mainModule); why != "" {
			t.Errorf("hpackcert-stdio-ref links %s: %s", path, why)
		}
		seen = seen || path == mainModule+"/encoder"
	}
	// The listing is of the program: it links the reference encoder.
	if !seen {
		t.Errorf("go list -deps names no %s/encoder, which the program links:\n%s", mainModule, out)
	}
}
