// Package layout holds the test that keeps the module's layout within the
// targets README's Layout section states: no package over 15% of the
// module's non-test, non-generated Go lines, no top-level folder over 25%,
// and no non-generated Go file, tests included, over 500 lines.
package layout

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const (
	maxPackageShare = 0.15
	maxFolderShare  = 0.25
	maxFileLines    = 500
)

// goFile is what the layout rules need of one Go file.
type goFile struct {
	path      string // slash-separated, relative to the module root
	lines     int
	test      bool
	generated bool
}

// generated reports whether src carries the line Go's convention puts in
// generated files (https://go.dev/s/generatedcode) before its package clause.
func generated(src []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "// Code generated ") && strings.HasSuffix(line, " DO NOT EDIT.") {
			return true
		}
		if strings.HasPrefix(line, "package ") {
			return false
		}
	}
	return false
}

// moduleFiles lists the module's Go files, leaving out testdata folders
// (inputs of tests, not the module's code) and hidden folders.
func moduleFiles(t *testing.T, root string) []goFile {
	t.Helper()
	var files []goFile
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (name == "testdata" || strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files = append(files, goFile{
			path:      rel,
			lines:     bytes.Count(src, []byte("\n")),
			test:      strings.HasSuffix(rel, "_test.go"),
			generated: generated(src),
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// moduleRoot is two folders up from this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found from the test's folder: %v", err)
	}
	return root
}

func TestLayout(t *testing.T) {
	files := moduleFiles(t, moduleRoot(t))
	total := 0
	packages := map[string]int{}
	folders := map[string]int{}
	for _, f := range files {
		if !f.generated && f.lines > maxFileLines {
			t.Errorf("%s: %d lines, over the %d a file may hold: split it by concern", f.path, f.lines, maxFileLines)
		}
		if f.test || f.generated {
			continue
		}
		total += f.lines
		packages[filepath.ToSlash(filepath.Dir(f.path))] += f.lines
		top, _, _ := strings.Cut(f.path, "/")
		if !strings.Contains(f.path, "/") {
			top = "."
		}
		folders[top] += f.lines
	}
	if total == 0 {
		t.Fatal("no non-test Go lines found: the walk did not reach the module")
	}
	check := func(kind string, sizes map[string]int, limit float64) {
		names := make([]string, 0, len(sizes))
		for n := range sizes {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			share := float64(sizes[n]) / float64(total)
			if testing.Verbose() {
				t.Logf("%s %s: %d lines, %.1f%%", kind, n, sizes[n], 100*share)
			}
			if share > limit {
				t.Errorf("%s %s holds %d of the module's %d non-test, non-generated Go lines (%.1f%%), over %.0f%%",
					kind, n, sizes[n], total, 100*share, 100*limit)
			}
		}
	}
	check("package", packages, maxPackageShare)
	check("top-level folder", folders, maxFolderShare)
	t.Logf("%d non-test, non-generated Go lines in %d files", total, len(files))
}
