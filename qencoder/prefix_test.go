package qencoder

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/hpackcert/hpackcert/internal/spec"
)

// TestLongPrefix plays sections that insert a new field each, 600 of them,
// so that the Required Insert Count comes to encode as 255 and 256 (mod
// 2*MaxEntries, §4.5.1.1), past its 8-bit prefix, and, with the peer's
// MaxEntries large, to over 255 outright: each such prefix takes more than
// the room AppendSection leaves it. Every section must decode at qstrict.
func TestLongPrefix(t *testing.T) {
	var lists [][]spec.Field
	for i := range 600 {
		f := spec.Field{Name: "x-id", Value: strconv.Itoa(i)}
		// Seen, then inserted, then referenced with others.
		lists = append(lists, []spec.Field{f}, []spec.Field{f}, []spec.Field{{Name: ":method", Value: "GET"}, f})
	}
	for _, peer := range []uint64{4096, 1 << 20} {
		for _, blocked := range []uint64{0, 100} {
			cfg := Config{TableCapacity: 4096, PeerMaxTableCapacity: peer, BlockedStreams: blocked}
			s := newSchedule(t, fmt.Sprintf("peer capacity %d, blocked streams %d", peer, blocked), peer+blocked, cfg)
			play(s, lists)
			checkUse(t, s, true)
		}
	}
}
