package encoder

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestStaticLookup checks staticLookup against a scan of the static table
// for every static entry, for each entry's name with other values, and for
// every name with one byte changed.
func TestStaticLookup(t *testing.T) {
	scan := func(name, value string) (nameIndex, fieldIndex int) {
		for i, f := range spec.StaticTable {
			if f.Name == name && nameIndex == 0 {
				nameIndex = i + 1
			}
			if f.Name == name && f.Value == value && fieldIndex == 0 {
				fieldIndex = i + 1
			}
		}
		return nameIndex, fieldIndex
	}
	check := func(name, value string) {
		t.Helper()
		gotName, gotField, gotRule := staticLookup(name, value)
		wantName, wantField := scan(name, value)
		wantRule := ruleNone
		if wantName != 0 {
			wantRule = staticNameRule(wantName)
		}
		if gotName != wantName || gotField != wantField || gotRule != wantRule {
			t.Errorf("staticLookup(%q, %q) = %d, %d, rule %d; want %d, %d, rule %d", name, value, gotName, gotField, gotRule, wantName, wantField, wantRule)
		}
	}
	for _, f := range spec.StaticTable {
		check(f.Name, f.Value)
		check(f.Name, f.Value+"x")
		check(f.Name, "GET")
		for i := range len(f.Name) {
			for _, c := range []byte{'a', 'z', '-', ':', f.Name[i] ^ 0x20} {
				mutated := []byte(f.Name)
				mutated[i] = c
				check(string(mutated), "")
			}
		}
		for i := range len(f.Value) {
			mutated := []byte(f.Value)
			mutated[i] ^= 1
			check(f.Name, string(mutated))
		}
		check(f.Name[1:], "")
		check(f.Name+"s", "")
	}
	for _, name := range []string{"", "a", "ab", "x-custom", "content-languagf", "AUTHORIZATION"} {
		check(name, "")
	}
}

// TestStaticIndexConstants checks the static indices the policy names.
func TestStaticIndexConstants(t *testing.T) {
	tests := []struct {
		index int
		name  string
	}{
		{staticPath, ":path"},
		{staticAge, "age"},
		{staticAuthorization, "authorization"},
		{staticContentLength, "content-length"},
		{staticCookie, "cookie"},
		{staticETag, "etag"},
		{staticIfModifiedSince, "if-modified-since"},
		{staticIfNoneMatch, "if-none-match"},
		{staticLastModified, "last-modified"},
		{staticLocation, "location"},
		{staticProxyAuthorization, "proxy-authorization"},
		{staticSetCookie, "set-cookie"},
	}
	for _, tt := range tests {
		if got := spec.StaticTable[tt.index-1].Name; got != tt.name {
			t.Errorf("static index %d is %q; want %q", tt.index, got, tt.name)
		}
		if tt.index > 1 && spec.StaticTable[tt.index-2].Name == tt.name {
			t.Errorf("static index %d is not the first entry named %q", tt.index, tt.name)
		}
	}
}

// TestGeneratedLookupUpToDate fails when static_lookup.go is not what
// "go generate" writes (an edited or stale file, or a change in
// internal/spec).
func TestGeneratedLookupUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping go run in -short mode")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		testenv.Missing(t, "go command not found in PATH: "+err.Error())
	}
	out := filepath.Join(t.TempDir(), "static_lookup.go")
	if output, err := exec.Command(goCmd, "run", "gen.go", "-output", out).CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, output)
	}
	generated, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("static_lookup.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(generated, committed) {
		t.Errorf("static_lookup.go differs from the output of gen.go; run go generate ./encoder")
	}
}
