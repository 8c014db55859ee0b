//go:build ignore

// This program writes rawdata/headers.bin.gz, the header lists of the
// hpack-test-case raw-data stories that RawData returns, from the story
// files themselves. Run it with "go generate" in this directory; the
// stories are read from -dir, by default the raw-data folder of the
// hpack-test-case checkout the tests use ($HPACKCERT_TESTCASE_DIR, else
// ../shared/hpack-test-case relative to the module root).
//
// It reads the JSON with encoding/json rather than with ReadStory: it must
// run while package vectors does not build (the embedded file missing, or
// written in an older format), and the package's tests then compare what it wrote with what
// ReadStory reads, two readers that share no code.
//
// The output is the same bytes on every run: files are taken in name order
// and the gzip header carries no name and no modification time.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// magic opens the uncompressed stream; rawdata.go's decoder checks it.
const magic = "hpackcert raw-data 1\n"

// story is the part of a story file that is kept: "context" and each
// case's "headers", a list of one-key objects.
type story struct {
	Context string
	Cases   []struct {
		Headers []map[string]string
	}
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen_rawdata: ")
	defaultDir := ""
	if root := testenv.TestCaseDirPath(); root != "" {
		defaultDir = filepath.Join(root, "raw-data")
	}
	dir := flag.String("dir", defaultDir, "hpack-test-case raw-data folder to read")
	output := flag.String("output", filepath.Join("rawdata", "headers.bin.gz"), "file to write")
	flag.Parse()
	if *dir == "" {
		log.Fatal("no module root found to locate hpack-test-case; pass -dir")
	}

	paths, err := filepath.Glob(filepath.Join(*dir, "*.json"))
	if err != nil {
		log.Fatal(err)
	}
	if len(paths) == 0 {
		log.Fatalf("no *.json story in %s", *dir)
	}
	sort.Strings(paths)

	var body []byte
	var cases, fields int
	for _, path := range paths {
		if body, err = appendStory(body, path, &cases, &fields); err != nil {
			log.Fatal(err)
		}
	}
	raw := []byte(magic)
	for _, n := range []int{len(paths), cases, fields} {
		raw = binary.AppendUvarint(raw, uint64(n))
	}
	raw = append(raw, body...)

	var out bytes.Buffer
	zw, err := gzip.NewWriterLevel(&out, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := zw.Write(raw); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*output, out.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d stories, %d cases, %d fields: %d octets, %d compressed, written to %s",
		len(paths), cases, fields, len(raw), out.Len(), *output)
}

// appendStory appends the story in the file at path to dst: its file name,
// its context, and each case's header list. It adds the story's cases and
// fields to the counts.
func appendStory(dst []byte, path string, cases, fields *int) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s story
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	dst = appendString(dst, filepath.Base(path))
	dst = appendString(dst, s.Context)
	dst = binary.AppendUvarint(dst, uint64(len(s.Cases)))
	*cases += len(s.Cases)
	for i, c := range s.Cases {
		if c.Headers == nil {
			return nil, fmt.Errorf("%s: case %d: no \"headers\" list", path, i)
		}
		dst = binary.AppendUvarint(dst, uint64(len(c.Headers)))
		*fields += len(c.Headers)
		for j, h := range c.Headers {
			if len(h) != 1 {
				return nil, fmt.Errorf("%s: case %d: header %d has %d keys; want one name", path, i, j, len(h))
			}
			for name, value := range h {
				dst = appendString(dst, name)
				dst = appendString(dst, value)
			}
		}
	}
	return dst, nil
}

// appendString appends s with its length in front, as a uvarint.
func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}
