//go:build ignore

// This program writes traffic/qifs.bin.gz, the QIF files that Traffic
// returns, from the qifs folder of a qpackers/qifs checkout. Run it with
// "go generate" in this directory; the files are read from -dir, by
// default $HPACKCERT_QIFS_DIR/qifs, else ../shared/qifs/qifs relative to
// the module root.
//
// The files are kept as they are, octet for octet: Traffic parses them
// with Parse, so the embedded data is the upstream text and its test
// compares it with the files themselves. The output is the same bytes on
// every run: files are taken in name order and the gzip header carries no
// name and no modification time.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"flag"
	"log"
	"os"
	"path/filepath"
	"sort"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// magic opens the uncompressed stream; traffic.go's decoder checks it.
const magic = "hpackcert qif 1\n"

func main() {
	log.SetFlags(0)
	log.SetPrefix("gen_traffic: ")
	defaultDir := os.Getenv("HPACKCERT_QIFS_DIR")
	if defaultDir == "" {
		if root := testenv.ModuleRoot(); root != "" {
			defaultDir = filepath.Join(root, "..", "shared", "qifs")
		}
	}
	if defaultDir != "" {
		defaultDir = filepath.Join(defaultDir, "qifs")
	}
	dir := flag.String("dir", defaultDir, "qifs folder of a qpackers/qifs checkout to read")
	output := flag.String("output", filepath.Join("traffic", "qifs.bin.gz"), "file to write")
	flag.Parse()
	if *dir == "" {
		log.Fatal("no module root found to locate the qifs checkout; pass -dir")
	}
	paths, err := filepath.Glob(filepath.Join(*dir, "*.qif"))
	if err != nil {
		log.Fatal(err)
	}
	if len(paths) == 0 {
		log.Fatalf("no *.qif file in %s", *dir)
	}
	sort.Strings(paths)

	raw := binary.AppendUvarint([]byte(magic), uint64(len(paths)))
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil {
			log.Fatal(err)
		}
		raw = appendString(raw, filepath.Base(path))
		raw = appendString(raw, string(text))
	}

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
	log.Printf("%d files: %d octets, %d compressed, written to %s", len(paths), len(raw), out.Len(), *output)
}

// appendString appends s with its length in front, as a uvarint.
func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}
