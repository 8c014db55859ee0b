package qif

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/hpackcert/hpackcert/internal/spec"
)

//go:generate go run gen_traffic.go

// TrafficSource names the traffic Traffic returns, for reports.
const TrafficSource = "qpackers/qifs QIF files (embedded, commit da52cd9, 7 files)"

// trafficGzip holds the QIF files of the qifs repository, written by
// gen_traffic.go. Uncompressed, it is
//
//	"hpackcert qif 1\n"
//	file count
//	per file: file name, file text
//
// where the count is a uvarint and a string is its length as a uvarint
// followed by its octets.
//
//go:embed traffic/qifs.bin.gz
var trafficGzip []byte

//go:embed traffic/LICENSE.md
var trafficLicense string

// maxTrafficSize bounds the uncompressed data; it is 1,187,120 octets.
const maxTrafficSize = 16 << 20

// trafficMagic opens the uncompressed stream; gen_traffic.go writes it.
const trafficMagic = "hpackcert qif 1\n"

// Traffic returns the seven QIF files of the qifs folder of
// https://github.com/qpackers/qifs (commit da52cd9, 2021-01-27)
// embedded in the package, in
// file-name order, each parsed by Parse: 1,571 header lists of Facebook
// requests and responses, netbsd.org and the draft's examples, with
// 20,685 fields. The data is decoded once; every call returns fresh files,
// header lists and fields, which the caller may modify. The data is
// distributed under the licence License returns.
func Traffic() ([]File, error) {
	files, err := decodedTraffic()
	if err != nil {
		return nil, err
	}
	return copyFiles(files), nil
}

// copyFiles returns a copy of files that shares nothing the caller can
// modify with them. It allocates 2 times plus once per file, whatever the
// number of header lists: the files, all the fields, and each file's
// lists. Each header list is capped at its length, so that appending to
// one never writes over the next.
func copyFiles(files []*File) []File {
	total := 0
	for _, f := range files {
		total += f.Fields()
	}
	fields := make([]spec.Field, 0, total)
	out := make([]File, len(files))
	for i, f := range files {
		lists := make([][]spec.Field, len(f.HeaderLists))
		for j, list := range f.HeaderLists {
			start := len(fields)
			fields = append(fields, list...)
			lists[j] = fields[start:len(fields):len(fields)]
		}
		out[i] = File{Name: f.Name, HeaderLists: lists}
	}
	return out
}

// License returns the licence of the qifs repository, under which the
// data Traffic returns is distributed: a program that carries the data
// carries the licence with it.
func License() string {
	return trafficLicense
}

var decodedTraffic = sync.OnceValues(func() ([]*File, error) {
	return decodeTraffic(trafficGzip)
})

// decodeTraffic decodes the format written by gen_traffic.go and parses
// each file it holds.
func decodeTraffic(compressed []byte) ([]*File, error) {
	fail := func(reason string) error {
		return fmt.Errorf("qif: embedded traffic: %s", reason)
	}
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fail(err.Error())
	}
	raw, err := io.ReadAll(io.LimitReader(zr, maxTrafficSize+1))
	if err != nil {
		return nil, fail(err.Error())
	}
	if len(raw) > maxTrafficSize {
		return nil, fail(fmt.Sprintf("more than %d octets uncompressed", maxTrafficSize))
	}
	rest, ok := bytes.CutPrefix(raw, []byte(trafficMagic))
	if !ok {
		return nil, fail("not the hpackcert qif format")
	}
	count, size := binary.Uvarint(rest)
	// Every file takes at least two octets, so a valid count never exceeds
	// what remains: checking it first keeps damaged data from asking for
	// a huge allocation.
	if size <= 0 || count > uint64(len(rest)-size)/2 {
		return nil, fail("bad file count")
	}
	rest = rest[size:]
	files := make([]*File, 0, count)
	for i := range count {
		var name, text []byte
		if name, rest, ok = cutString(rest); !ok {
			return nil, fail(fmt.Sprintf("file %d: bad name", i))
		}
		if text, rest, ok = cutString(rest); !ok {
			return nil, fail(fmt.Sprintf("%s: bad text length", name))
		}
		f, err := Parse(string(name), bytes.NewReader(text))
		if err != nil {
			return nil, fail(err.Error())
		}
		files = append(files, f)
	}
	if len(rest) != 0 {
		return nil, fail(fmt.Sprintf("%d octets after the last file", len(rest)))
	}
	return files, nil
}

// cutString cuts a string, its length as a uvarint and its octets, from
// the front of b.
func cutString(b []byte) (s, rest []byte, ok bool) {
	n, size := binary.Uvarint(b)
	if size <= 0 || n > uint64(len(b)-size) {
		return nil, b, false
	}
	b = b[size:]
	return b[:n], b[n:], true
}
