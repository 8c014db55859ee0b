// Package corpus keeps hpackcert's seed corpus and converts it between the
// formats fuzz engines read.
//
// The seeds live as raw files, one input a file, in corpus/<Target>/, the
// layout go-fuzz, libFuzzer, AFL and OSS-Fuzz seed archives use. Go's native
// fuzzing reads fuzz/testdata/fuzz/<Target>/ instead, in the "go test fuzz v1"
// format; Sync keeps the two in step in both directions, so a seed added on
// either side (or a failing input the go command saved) reaches the other.
// New files are named by content hash the way the go command names them, and
// a Sync that finds both sides in step writes nothing.
//
// The targets take one []byte argument, so a "go test fuzz v1" file here holds
// exactly one []byte value.
//
// The package is one file, corpus.go: the "go test fuzz v1" form (Marshal,
// Unmarshal, Name), libFuzzer's framing, and Sync, Plan, ExportLibFuzzer
// and ImportLibFuzzer over the folders. Command corpussync
// (corpus/cmd/corpussync) runs them from the module root.
package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// header is the first line of a file in the "go test fuzz v1" format.
const header = "go test fuzz v1"

// Marshal returns data as a file in the "go test fuzz v1" format with one
// []byte value, byte for byte as the go command writes it.
func Marshal(data []byte) []byte {
	return fmt.Appendf(nil, "%s\n[]byte(%q)\n", header, data)
}

// Unmarshal returns the []byte value of a file in the "go test fuzz v1"
// format. It fails, naming the line, unless the file holds exactly one
// []byte value.
func Unmarshal(file []byte) ([]byte, error) {
	lines := strings.Split(string(file), "\n")
	if strings.TrimSpace(lines[0]) != header {
		return nil, fmt.Errorf("line 1: got %q; want %q", firstLine(lines[0]), header)
	}
	var value []byte
	found := false
	for i, line := range lines[1:] {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		lineNo := i + 2
		if found {
			return nil, fmt.Errorf("line %d: a second value; the fuzz targets take one []byte", lineNo)
		}
		lit, ok := strings.CutPrefix(line, "[]byte(")
		if !ok || !strings.HasSuffix(lit, ")") {
			return nil, fmt.Errorf("line %d: got %q; want []byte(\"...\")", lineNo, firstLine(line))
		}
		s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
		if err != nil {
			return nil, fmt.Errorf("line %d: bad string literal: %v", lineNo, err)
		}
		value, found = []byte(s), true
	}
	if !found {
		return nil, errors.New("no value after the header line")
	}
	return value, nil
}

func firstLine(s string) string {
	const show = 60
	if len(s) > show {
		return s[:show] + "..."
	}
	return s
}

// Name returns the name the go command gives a corpus file: the first 16 hex
// digits of the SHA-256 of its contents.
func Name(contents []byte) string {
	sum := sha256.Sum256(contents)
	return fmt.Sprintf("%x", sum)[:16]
}

// LibFuzzerInput returns data framed as a libFuzzer binary built by
// go-118-fuzz-build (OSS-Fuzz's compile_native_go_fuzzer) reads a []byte
// argument: a 4-octet big-endian length, then the octets.
func LibFuzzerInput(data []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(data))), data...)
}

// FromLibFuzzerInput returns the []byte argument that a binary built by
// go-118-fuzz-build hands its target for the libFuzzer input in, read as
// that harness reads it (go-fuzz-headers' GetBytes): a 4-octet big-endian
// length n, then n octets, where n = 0 stands for 30 and an n other than
// the number of octets left is taken modulo that number. It is the inverse
// of LibFuzzerInput, and gives a value for every input the engine's
// mutations make; ok is false for an input of 4 octets or fewer, for which
// the harness does not call the target.
func FromLibFuzzerInput(input []byte) (data []byte, ok bool) {
	if len(input) <= 4 {
		return nil, false
	}
	n, left := binary.BigEndian.Uint32(input), uint32(len(input)-4)
	if n == 0 {
		n = 30
	}
	if n != left {
		n %= left
	}
	return input[4 : 4+n], true
}

// A Write is one file Sync creates.
type Write struct {
	Path     string
	Contents []byte
}

// Plan returns the files a sync of rawDir (corpus/) and testdataDir
// (fuzz/testdata/fuzz/) must write so that for every target (a
// subdirectory of either whose name starts with "Fuzz"), each raw seed has a "go test fuzz v1" twin
// with the same value and each such file has a raw twin. Files whose
// names start with "." or "_", and README files, are ignored. Writes come
// sorted by path.
func Plan(rawDir, testdataDir string) ([]Write, error) {
	targets, err := targetNames(rawDir, testdataDir)
	if err != nil {
		return nil, err
	}
	var writes []Write
	for _, target := range targets {
		raw, err := readDir(filepath.Join(rawDir, target), func(b []byte) ([]byte, error) { return b, nil })
		if err != nil {
			return nil, err
		}
		goFiles, err := readDir(filepath.Join(testdataDir, target), Unmarshal)
		if err != nil {
			return nil, err
		}
		for value := range raw {
			if _, ok := goFiles[value]; !ok {
				file := Marshal([]byte(value))
				writes = append(writes, Write{filepath.Join(testdataDir, target, Name(file)), file})
			}
		}
		for value := range goFiles {
			if _, ok := raw[value]; !ok {
				writes = append(writes, Write{filepath.Join(rawDir, target, Name([]byte(value))), []byte(value)})
			}
		}
	}
	sort.Slice(writes, func(i, j int) bool { return writes[i].Path < writes[j].Path })
	return writes, nil
}

// Sync carries out Plan and returns the writes it made.
func Sync(rawDir, testdataDir string) ([]Write, error) {
	writes, err := Plan(rawDir, testdataDir)
	if err != nil {
		return nil, err
	}
	for _, w := range writes {
		if err := os.MkdirAll(filepath.Dir(w.Path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(w.Path, w.Contents, 0o644); err != nil {
			return nil, err
		}
	}
	return writes, nil
}

// ExportLibFuzzer writes every raw seed of rawDir to outDir/<Target>/ framed
// by LibFuzzerInput, named by content hash, and returns how many it wrote.
func ExportLibFuzzer(rawDir, outDir string) (int, error) {
	targets, err := targetNames(rawDir, "")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, target := range targets {
		raw, err := readDir(filepath.Join(rawDir, target), func(b []byte) ([]byte, error) { return b, nil })
		if err != nil {
			return n, err
		}
		if err := os.MkdirAll(filepath.Join(outDir, target), 0o755); err != nil {
			return n, err
		}
		for value := range raw {
			input := LibFuzzerInput([]byte(value))
			if err := os.WriteFile(filepath.Join(outDir, target, Name(input)), input, 0o644); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// ImportLibFuzzer adds to rawDir/<Target>/ the inputs of the libFuzzer
// corpora in libFuzzerDir/<Target>/ (as OSS-Fuzz and ClusterFuzzLite keep
// them, framed for go-118-fuzz-build; see FromLibFuzzerInput) whose values
// rawDir/<Target>/ does not hold yet, named by content hash, and returns
// the writes it made, sorted by path. Run Sync afterwards to carry them
// into the "go test fuzz v1" corpus.
func ImportLibFuzzer(libFuzzerDir, rawDir string) ([]Write, error) {
	targets, err := targetNames(libFuzzerDir)
	if err != nil {
		return nil, err
	}
	var writes []Write
	for _, target := range targets {
		raw, err := readDir(filepath.Join(rawDir, target), func(b []byte) ([]byte, error) { return b, nil })
		if err != nil {
			return nil, err
		}
		if raw == nil {
			raw = map[string]bool{}
		}
		inputs, err := readDir(filepath.Join(libFuzzerDir, target), func(b []byte) ([]byte, error) { return b, nil })
		if err != nil {
			return nil, err
		}
		for input := range inputs {
			value, ok := FromLibFuzzerInput([]byte(input))
			if !ok || raw[string(value)] {
				continue
			}
			raw[string(value)] = true
			writes = append(writes, Write{filepath.Join(rawDir, target, Name(value)), value})
		}
	}
	sort.Slice(writes, func(i, j int) bool { return writes[i].Path < writes[j].Path })
	for _, w := range writes {
		if err := os.MkdirAll(filepath.Dir(w.Path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(w.Path, w.Contents, 0o644); err != nil {
			return nil, err
		}
	}
	return writes, nil
}

// targetNames returns the sorted union of the subdirectory names of the
// given directories (an empty or missing directory has none).
func targetNames(dirs ...string) ([]string, error) {
	seen := map[string]bool{}
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() && strings.HasPrefix(e.Name(), "Fuzz") {
				seen[e.Name()] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for name := range seen {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

func ignored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || strings.HasPrefix(name, "README")
}

// readDir returns the values of the regular files in dir, decoded by
// decode, as a set keyed by value. A missing dir is empty.
func readDir(dir string, decode func([]byte) ([]byte, error)) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	values := map[string]bool{}
	for _, e := range entries {
		if !e.Type().IsRegular() || ignored(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		value, err := decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		values[string(value)] = true
	}
	return values, nil
}
