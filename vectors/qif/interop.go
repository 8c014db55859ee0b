package qif

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// InteropHeaderSize is the size of a record's header in the QPACK Offline
// Interop output format: an 8-octet stream id and a 4-octet length, both
// big-endian.
const InteropHeaderSize = 12

// Record is one record of a QPACK Offline Interop output file: stream 0
// is the encoder stream, stream n (from 1) the field section of the QIF
// file's n-th header list.
type Record struct {
	StreamID uint64
	Data     []byte // a slice of the octets ReadInterop read
	Offset   int64  // of the record's header in the input
}

// InteropError is an output file that does not follow the format: the
// offset of the record at fault and what is wrong with it.
type InteropError struct {
	Offset int64
	Reason string
}

func (e *InteropError) Error() string {
	return fmt.Sprintf("qif: interop output: offset %d: %s", e.Offset, e.Reason)
}

// ReadInterop reads a QPACK Offline Interop output file from r, at most
// limit octets of it (a negative limit is 0): the largest file of the qifs
// repository's encoded/qpack-05 folder has 214,549. It returns the records
// in file order. Input longer than limit, a header cut short and a length running
// past the end of the input are each an *InteropError naming the offset
// of the record; a failure of r is returned wrapped.
func ReadInterop(r io.Reader, limit int64) ([]Record, error) {
	// One octet past the limit is read to tell a longer input from one of
	// exactly limit octets.
	limit = min(max(limit, 0), math.MaxInt64-1)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("qif: interop output: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, &InteropError{limit, fmt.Sprintf("input longer than the limit of %d octets", limit)}
	}
	var records []Record
	for off := 0; off < len(data); {
		rest := data[off:]
		if len(rest) < InteropHeaderSize {
			return nil, &InteropError{int64(off), fmt.Sprintf("record header cut short: %d of %d octets", len(rest), InteropHeaderSize)}
		}
		id := binary.BigEndian.Uint64(rest)
		n := binary.BigEndian.Uint32(rest[8:])
		if uint64(n) > uint64(len(rest)-InteropHeaderSize) {
			return nil, &InteropError{int64(off), fmt.Sprintf("stream %d: length %d runs past the end of the input (%d octets left)", id, n, len(rest)-InteropHeaderSize)}
		}
		end := InteropHeaderSize + int(n)
		records = append(records, Record{StreamID: id, Data: rest[InteropHeaderSize:end:end], Offset: int64(off)})
		off += end
	}
	return records, nil
}

// InteropName is what the name of an output file says: the QIF file
// encoded and the encoder's settings.
type InteropName struct {
	QIF            string // the QIF file's name without ".qif", e.g. "fb-req"
	TableSize      uint64 // SETTINGS_QPACK_MAX_TABLE_CAPACITY
	BlockedStreams uint64 // SETTINGS_QPACK_BLOCKED_STREAMS
	ImmediateAck   bool   // the decoder acknowledged every section at once
}

// ParseInteropName reads the name of an output file,
// "<qif>.out.<table size>.<blocked streams>.<immediate ack>", from the last
// element of path: the sizes are decimal and the acknowledgement mode is
// 0 or 1. Any other name is an error saying which part is wrong.
func ParseInteropName(path string) (InteropName, error) {
	base := filepath.Base(path)
	fail := func(reason string) (InteropName, error) {
		return InteropName{}, fmt.Errorf("qif: %q is not an interop output name <qif>.out.<table size>.<blocked streams>.<0|1>: %s", base, reason)
	}
	qif, params, ok := strings.Cut(base, ".out.")
	if !ok || qif == "" {
		return fail("no <qif>.out. prefix")
	}
	parts := strings.Split(params, ".")
	if len(parts) != 3 {
		return fail(fmt.Sprintf("%d parameters after .out.; want 3", len(parts)))
	}
	var nums [2]uint64
	for i, what := range []string{"table size", "blocked streams"} {
		n, err := strconv.ParseUint(parts[i], 10, 64)
		if err != nil {
			return fail(fmt.Sprintf("%s %q is not a decimal number", what, parts[i]))
		}
		nums[i] = n
	}
	if parts[2] != "0" && parts[2] != "1" {
		return fail(fmt.Sprintf("immediate ack %q is not 0 or 1", parts[2]))
	}
	return InteropName{QIF: qif, TableSize: nums[0], BlockedStreams: nums[1], ImmediateAck: parts[2] == "1"}, nil
}
