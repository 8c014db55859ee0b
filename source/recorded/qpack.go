package recorded

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hpackcert/hpackcert/certify/qpack"
	"github.com/hpackcert/hpackcert/internal/qspec"
	"github.com/hpackcert/hpackcert/vectors/qif"
)

// QPACKDir returns the QPACK encoder targets of the recordings in dir, in
// the QPACK Offline Interop output format (files named
// "<qif>.out.<table size>.<blocked streams>.<immediate ack>", as in
// qpackers/qifs' encoded/qpack-05): one target for dir itself when it
// holds such files, or else one for each subdirectory that does, named
// after it (qifs keeps one folder per implementation). Each file is a
// connection: its encoder-stream records are what the encoder wrote, its
// field sections the QIF file's header lists in order, delivered at once
// in file order, and the decoder-stream octets the strict decoder owes are
// taken as told to the encoder as soon as they are written (the format
// records no decoder). The header lists are the embedded QIF traffic of
// the same name (vectors/qif), unknown for any other name.
//
// The recordings date from QPACK's drafts, whose dynamic table started at
// its maximum capacity: a file that inserts before any Set Dynamic Table
// Capacity is reported once under qenc/3.2.2/1 and otherwise graded as if
// it had set the capacity to its table size (qpack.Transcript's
// AssumedCapacity).
func QPACKDir(dir string) ([]qpack.EncoderTarget, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("recorded QPACK: %w", err)
	}
	files, subdirs := interopFiles(dir, entries)
	if len(files) > 0 {
		return []qpack.EncoderTarget{&qpackRecording{name: filepath.Base(filepath.Clean(dir)), files: files}}, nil
	}
	var out []qpack.EncoderTarget
	for _, sub := range subdirs {
		es, err := os.ReadDir(sub)
		if err != nil {
			return nil, fmt.Errorf("recorded QPACK: %w", err)
		}
		if fs, _ := interopFiles(sub, es); len(fs) > 0 {
			out = append(out, &qpackRecording{name: filepath.Base(sub), files: fs})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("recorded QPACK: %s holds no QPACK Offline Interop output file (<qif>.out.<table size>.<blocked streams>.<immediate ack>), nor a folder of them", dir)
	}
	return out, nil
}

// interopFiles returns the output files among a directory's entries,
// sorted, and its subdirectories.
func interopFiles(dir string, entries []fs.DirEntry) (files, subdirs []string) {
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			subdirs = append(subdirs, path)
		case strings.Contains(e.Name(), ".out."):
			files = append(files, path)
		}
	}
	sort.Strings(files)
	sort.Strings(subdirs)
	return files, subdirs
}

// qpackRecording is one implementation's recorded output, a target the
// certifier cannot drive.
type qpackRecording struct {
	name  string
	files []string
}

func (r *qpackRecording) Name() string { return r.name }
func (r *qpackRecording) Close() error { return nil }
func (r *qpackRecording) NewEncoder(qpack.Settings) (qpack.Encoder, error) {
	return nil, fmt.Errorf("recorded QPACK encoder %q cannot encode: it is graded from its recordings", r.name)
}

// Transcripts reads every file of the recording; the first file that
// cannot be read is the error, naming it.
func (r *qpackRecording) Transcripts() ([]*qpack.Transcript, error) {
	traffic, err := qif.Traffic()
	if err != nil {
		return nil, err
	}
	lists := map[string][][]qpack.Field{}
	for _, f := range traffic {
		lists[strings.TrimSuffix(f.Name, ".qif")] = f.HeaderLists
	}
	var out []*qpack.Transcript
	var total int64
	for _, path := range r.files {
		if fi, err := os.Stat(path); err == nil {
			if total += fi.Size(); total > MaxQPACKRecording {
				return out, fmt.Errorf("%s: the recording %q passes %d MiB of files with this one, hpackcert's bound on a recording held for grading (MaxQPACKRecording)", path, r.name, MaxQPACKRecording>>20)
			}
		}
		t, err := readQPACKFile(path, lists)
		if err != nil {
			return out, err
		}
		out = append(out, t)
	}
	return out, nil
}

// MaxQPACKRecording bounds the octets of the files of one recorded QPACK
// encoder, all held while it is graded (each file is also bounded, by
// qif.MaxFileSize): qifs' largest folder has 2.4 MB.
const MaxQPACKRecording = 256 << 20

// readQPACKFile reads one output file into a transcript.
func readQPACKFile(path string, lists map[string][][]qpack.Field) (*qpack.Transcript, error) {
	name, err := qif.ParseInteropName(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := qif.ReadInterop(f, qif.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	known := lists[name.QIF]
	t := &qpack.Transcript{Name: filepath.Base(path), Lists: known, AssumedCapacity: name.TableSize, ToldAtOnce: true,
		Settings: qpack.Settings{MaxTableCapacity: name.TableSize, BlockedStreams: name.BlockedStreams}}
	t.Events, err = recordedEvents(recs, known, qspec.MaxEntries(name.TableSize))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// recordedEvents turns a file's records into a transcript's events,
// delivered in file order. The format interleaves encoder-stream records
// with the sections without saying which section an encoder record was
// written for, and implementations differ: most write a section's
// inserts before it, some after. So a record is taken as written in file
// order, except that the encoder records that follow a section are taken
// as written before it when, and as far as, the section needs their
// inserts (its Required Insert Count): the section then blocks at the
// decoder, as the file says, but the encoder is judged on what it meant.
func recordedEvents(recs []qif.Record, known [][]qpack.Field, maxEntries uint64) ([]qpack.Event, error) {
	after := insertsAfter(recs)
	var events []qpack.Event
	inserts := 0 // inserts written so far, in the encoder's order
	next := 0    // the first encoder record not yet written
	for i, rec := range recs {
		if rec.StreamID == 0 {
			if i >= next {
				events = append(events, qpack.Event{Kind: qpack.Wrote, Data: rec.Data})
				inserts = after[i]
			}
			events = append(events, qpack.Event{Kind: qpack.DeliverEncoderStream, Count: len(rec.Data)})
			continue
		}
		list := int(rec.StreamID - 1)
		if known == nil {
			list = -1
		} else if rec.StreamID > uint64(len(known)) {
			return nil, fmt.Errorf("record at offset %d: stream %d, but the QIF file has %d header lists", rec.Offset, rec.StreamID, len(known))
		}
		j := i + 1
		for j < len(recs) && recs[j].StreamID == 0 {
			j++
		}
		if ric := requiredInserts(rec.Data, maxEntries, after[j-1]); ric > inserts {
			for k := max(i+1, next); k < j && inserts < ric; k++ {
				events = append(events, qpack.Event{Kind: qpack.Wrote, Data: recs[k].Data})
				inserts, next = after[k], k+1
			}
		}
		events = append(events, qpack.Event{Kind: qpack.Section, Stream: rec.StreamID, Data: rec.Data, List: list},
			qpack.Event{Kind: qpack.DeliverSection, Stream: rec.StreamID})
	}
	return events, nil
}

// insertsAfter returns, for each record, the number of insertions the
// encoder stream holds up to its end.
func insertsAfter(recs []qif.Record) []int {
	out := make([]int, len(recs))
	var stream []byte
	p, n := 0, 0
	for i, rec := range recs {
		if rec.StreamID == 0 {
			stream = append(stream, rec.Data...)
			for p < len(stream) {
				in, end, err := qspec.ReadEncoderInstruction(stream, p)
				if err != nil {
					break // cut (the rest comes later) or malformed (the judge says so)
				}
				if in.Kind != qspec.SetCapacity {
					n++
				}
				p = end
			}
		}
		out[i] = n
	}
	return out
}

// requiredInserts returns the Required Insert Count of a section, 0 when
// it cannot be read (the judge reports why).
func requiredInserts(section []byte, maxEntries uint64, inserts int) int {
	pf, _, err := qspec.ReadPrefix(section)
	if err != nil {
		return 0
	}
	ric, err := pf.RequiredInsertCount(maxEntries, uint64(inserts))
	if err != nil {
		return 0
	}
	return int(ric)
}
