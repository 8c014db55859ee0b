// Package vectors holds the test data hpackcert grades encoders with: the
// examples of RFC 7541 Appendix C, the story format of the hpack-test-case
// corpus, and a generator of stories of our own.
//
// # RFC 7541 Appendix C
//
// IntegerExamples returns the integer representations of C.1 (§5.1),
// FieldExamples the single header field representations of C.2 (§6.1,
// §6.2), and RFCAppendixC the four header block sequences C.3 to C.6:
// requests and responses, with and without Huffman coding (§5.2), C.5 and
// C.6 with a 256-octet dynamic table so that entries are evicted (§4.4).
// Every Step carries the wire bytes, the decoded header list and the dynamic
// table after decoding, newest entry first, with its size (§4.1). The hex is
// transcribed from the RFC; the tests decode it with
// golang.org/x/net/http2/hpack, an independent implementation.
//
// # Stories
//
// A Story is one file of the hpack-test-case format
// (https://github.com/http2jp/hpack-test-case): a JSON object whose "cases"
// list holds one header block each, all sharing one compression context.
// A case has "headers", a list of one-key objects ({"name": "value"}) whose
// order and duplicates are kept, and optionally "seqno", "wire" (the block
// in hex) and "header_table_size" (the SETTINGS_HEADER_TABLE_SIZE acked
// just before the case). hpackcert adds two optional case fields:
// "table_sizes", every SETTINGS_HEADER_TABLE_SIZE acked since the previous
// case in order (so that a size going down and back up between two blocks
// can be told, §4.2), and "sensitive", a list of booleans parallel to
// "headers" marking fields that must never be indexed (§7.1.3). The story
// may carry "context", "description" and "draft"; ReadStory skips keys it
// does not know. ReadStory, ReadStoryDir and WriteStory read and write the
// format; malformed input yields a *StoryError naming the file, the case
// and the byte offset.
//
// ReadStory accepts the files of every implementation of hpack-test-case
// as they were written: null for an absent member, keys in any order,
// extra keys, "seqno" missing (a case is then numbered by its position) or
// not starting at 0.
//
// # Real traffic, embedded
//
// RawData returns the header lists of hpack-test-case's 32 raw-data
// stories (3,384 blocks of real browsing traffic), embedded in the package
// compressed under rawdata/ with the corpus's licence (RawDataLicense) and
// a provenance note; RawDataSource names them for reports. They are the
// certifier's default traffic, the same wherever it runs.
//
// Names and values are JSON strings, which carry valid UTF-8 only. A case
// with "hex": true (our extension) holds every name and value in hex
// instead, so that any octet string travels; WriteStory writes a case that
// way when one of its names or values is not valid UTF-8, rather than
// change it.
//
// # Generated stories
//
// GenerateStories makes deterministic stories that exercise what traffic
// rarely does: table size changes (down to 0, and down then up between two
// blocks), sensitive fields, fields larger than the table or than 3/4 of
// it, empty names and values, every octet valid UTF-8 allows (0x00-0x7F,
// and 0x80-0xBF, 0xC2-0xF4 inside multi-octet sequences; never 0xC0, 0xC1
// or 0xF5-0xFF), many duplicates, and ordinary requests and responses. They
// have no "wire". A set generated with GeneratedSeed is checked in under
// testdata/generated.
//
// # Files
//
// vectors.go holds Field; appendix_c.go the examples of Appendix C.
// story.go holds Story, Case, StoryError and the readers of files and
// folders, story_parse.go the parser they use (token by token, so that
// order and duplicates survive and every error has its offset), and
// story_write.go WriteStory. rawdata.go decodes the embedded traffic,
// which gen_rawdata.go (build tag ignore, run by go generate) packs into
// rawdata/. generate.go is GenerateStories; targeted.go writes the
// stories aimed at one rule each; scenario.go names the scenarios the
// certifier plays, made of the stories of those two files.
package vectors

import "github.com/hpackcert/hpackcert/internal/spec"

// Field is a header field as RFC 7541 §1.3 defines it, a name and a value,
// each a string of octets: spec.Field, the module's one header-field type.
// In a story, a Case's Headers carry the sensitive flag of its
// "sensitive" member (Field.Sensitive).
type Field = spec.Field
