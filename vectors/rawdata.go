package vectors

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

//go:generate go run gen_rawdata.go

// RawDataSource names the traffic RawData returns, for reports.
const RawDataSource = "hpack-test-case raw-data (embedded, commit 8a1406e, 32 stories)"

// rawDataGzip holds the header lists of the raw-data stories of
// hpack-test-case, written by gen_rawdata.go. Uncompressed, it is
//
//	"hpackcert raw-data 1\n"
//	story count, case count, field count (of all stories)
//	per story: file name, context, case count,
//	  per case: field count, then per field: name, value
//
// where a count is a uvarint and a string is its length as a uvarint
// followed by its octets.
//
//go:embed rawdata/headers.bin.gz
var rawDataGzip []byte

//go:embed rawdata/LICENSE
var rawDataLicense string

// maxRawDataSize bounds the allocation the gzip trailer asks for; the data
// is about 1.2 MB.
const maxRawDataSize = 16 << 20

// rawDataMagic opens the uncompressed stream; gen_rawdata.go writes it.
const rawDataMagic = "hpackcert raw-data 1\n"

// RawData returns the 32 stories of the raw-data folder of hpack-test-case
// (https://github.com/http2jp/hpack-test-case, commit
// 8a1406e7d14bfcb6c046021f13cc15cfb162726d), 3,384 header blocks of real
// browsing traffic, embedded in the package: the traffic the certifier
// uses when it is given no other. Stories come in file-name order; each has
// Path "raw-data/story_NN.json", the Context of its file, and Cases whose
// Headers keep the files' order and duplicates and whose Seqno is the
// case's index. There is no Wire, HeaderTableSize, TableSizes or Sensitive.
//
// The data is decoded once; every call returns fresh stories, cases and
// header slices, which the caller may modify. The data is distributed under
// the licence RawDataLicense returns.
func RawData() ([]*Story, error) {
	set, err := decodedRawData()
	if err != nil {
		return nil, err
	}
	return set.copyStories(), nil
}

// RawDataLicense returns the licence of hpack-test-case, under which the
// data RawData returns is distributed: a program that carries the data
// carries the licence with it.
func RawDataLicense() string {
	return rawDataLicense
}

// rawDataSet is the embedded data decoded: every story's cases in one
// list, every case's fields in one list, names and values slices of one
// string.
type rawDataSet struct {
	stories []rawDataStory
	cases   []rawDataCase
	fields  []Field
}

type rawDataStory struct {
	path, context    string // path is "raw-data/" and the file name
	firstCase, cases int    // cases[firstCase : firstCase+cases]
}

type rawDataCase struct {
	firstField, fields int // fields[firstField : firstField+fields]
}

var decodedRawData = sync.OnceValues(func() (*rawDataSet, error) {
	return decodeRawData(rawDataGzip)
})

// copyStories returns a copy of the set as stories. It allocates four times,
// whatever the number of stories: their pointers, the stories, the cases
// and the fields. Each story's Cases and each case's Headers are capped at
// their length, so that appending to one never writes over the next.
func (set *rawDataSet) copyStories() []*Story {
	fields := slices.Clone(set.fields)
	cases := make([]Case, len(set.cases))
	stories := make([]Story, len(set.stories))
	ptrs := make([]*Story, len(set.stories))
	for i, rs := range set.stories {
		storyCases := cases[rs.firstCase : rs.firstCase+rs.cases : rs.firstCase+rs.cases]
		for j := range storyCases {
			rc := set.cases[rs.firstCase+j]
			storyCases[j] = Case{
				Seqno:   j,
				Headers: fields[rc.firstField : rc.firstField+rc.fields : rc.firstField+rc.fields],
			}
		}
		stories[i] = Story{Path: rs.path, Context: rs.context, Cases: storyCases}
		ptrs[i] = &stories[i]
	}
	return ptrs
}

// decodeRawData decodes the format written by gen_rawdata.go.
func decodeRawData(compressed []byte) (*rawDataSet, error) {
	zr, err := gzip.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("vectors: embedded raw-data: %v", err)
	}
	// The gzip trailer ends with the uncompressed size (modulo 2^32), which
	// lets the one string that holds every name and value be allocated at
	// its size; a damaged trailer only costs a regrowth or a larger block.
	var raw strings.Builder
	if n := len(compressed); n >= 4 {
		raw.Grow(int(min(binary.LittleEndian.Uint32(compressed[n-4:]), maxRawDataSize)))
	}
	if _, err := io.Copy(&raw, zr); err != nil {
		return nil, fmt.Errorf("vectors: embedded raw-data: %v", err)
	}
	d := &rawDataDecoder{data: raw.String()}
	return d.decode()
}

// rawDataDecoder reads the uncompressed stream. Names and values are
// slices of data, so the whole set holds one copy of the octets.
type rawDataDecoder struct {
	data string
	off  int
	err  error
}

func (d *rawDataDecoder) decode() (*rawDataSet, error) {
	if len(d.data) < len(rawDataMagic) || d.data[:len(rawDataMagic)] != rawDataMagic {
		return nil, d.fail("not the hpackcert raw-data format")
	}
	d.off = len(rawDataMagic)
	set := new(rawDataSet)
	// Every story, case and field takes at least one octet, so no count
	// read from valid data exceeds what remains: checking that first keeps
	// damaged data from asking for a huge allocation.
	nStories, nCases, nFields := d.count("story count"), d.count("case total"), d.count("field total")
	set.stories = make([]rawDataStory, 0, nStories)
	set.cases = make([]rawDataCase, 0, nCases)
	set.fields = make([]Field, 0, nFields)
	for range nStories {
		rs := rawDataStory{path: "raw-data/" + d.str("file name"), context: d.str("context"), firstCase: len(set.cases)}
		rs.cases = d.count("case count")
		for range rs.cases {
			rc := rawDataCase{firstField: len(set.fields), fields: d.count("field count")}
			for range rc.fields {
				set.fields = append(set.fields, Field{Name: d.str("name"), Value: d.str("value")})
			}
			set.cases = append(set.cases, rc)
		}
		set.stories = append(set.stories, rs)
	}
	if d.err != nil {
		return nil, d.err
	}
	if d.off != len(d.data) {
		return nil, d.fail("data after the last story")
	}
	if len(set.cases) != nCases || len(set.fields) != nFields {
		return nil, d.fail(fmt.Sprintf("%d cases and %d fields; the totals say %d and %d",
			len(set.cases), len(set.fields), nCases, nFields))
	}
	return set, nil
}

// count reads a uvarint that counts items still to come.
func (d *rawDataDecoder) count(what string) int {
	if d.err != nil {
		return 0
	}
	n, size := uvarint(d.data[d.off:])
	if size <= 0 || n > uint64(len(d.data)-d.off-size) {
		d.err = d.fail("bad " + what)
		return 0
	}
	d.off += size
	return int(n)
}

// str reads a string: its length as a uvarint, then its octets.
func (d *rawDataDecoder) str(what string) string {
	if d.err != nil {
		return ""
	}
	n, size := uvarint(d.data[d.off:])
	if size <= 0 || n > uint64(len(d.data)-d.off-size) {
		d.err = d.fail("bad " + what + " length")
		return ""
	}
	d.off += size
	s := d.data[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *rawDataDecoder) fail(reason string) error {
	return fmt.Errorf("vectors: embedded raw-data: offset %d of the uncompressed stream: %s", d.off, reason)
}

// uvarint is binary.Uvarint on the first octets of s, as many as a uvarint
// can take.
func uvarint(s string) (uint64, int) {
	const maxLen = binary.MaxVarintLen64
	if len(s) > maxLen {
		s = s[:maxLen]
	}
	var buf [maxLen]byte
	return binary.Uvarint(buf[:copy(buf[:], s)])
}
