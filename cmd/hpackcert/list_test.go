package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
)

func TestList(t *testing.T) {
	status, out, _ := runCLI(t, "list")
	if status != 0 {
		t.Fatalf("list: exit %d", status)
	}
	for _, c := range certify.Cases() {
		if !strings.Contains(out, c.ID+" ") {
			t.Errorf("list lacks %s", c.ID)
		}
	}
	status, out, _ = runCLI(t, "list", "--cases", "enc/4.2")
	if lines := strings.Count(out, "\n"); status != 0 || lines != 5 {
		t.Errorf("list --cases enc/4.2: exit %d, %d lines; want 0, a header and 4 cases:\n%s", status, lines, out)
	}
	// The comma lists run accepts.
	status, out, _ = runCLI(t, "list", "--cases", "enc/4.1, enc/5.1")
	if lines := strings.Count(out, "\n"); status != 0 || lines != 3 {
		t.Errorf("list --cases 'enc/4.1, enc/5.1': exit %d, %d lines; want 0, a header and 2 cases:\n%s", status, lines, out)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/list.golden")

// TestListGolden keeps the case list, with the RFC text of each case, in
// testdata/list.golden: a change to a case shows up in review.
func TestListGolden(t *testing.T) {
	status, out, _ := runCLI(t, "list", "-v")
	if status != 0 {
		t.Fatalf("list -v: exit %d", status)
	}
	golden := filepath.Join("testdata", "list.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("list -v differs from %s (run go test -update if the change is meant):\n%s", golden, out)
	}
}
