package encoder

import (
	"fmt"
	"strings"
	"testing"
)

const allocRuns = 200

// field is a header field held both as strings and as byte slices, built
// before the measured code runs.
type field struct {
	name, value   string
	nameB, valueB []byte
	sensitive     bool
}

func makeField(name, value string, sensitive bool) field {
	return field{name, value, []byte(name), []byte(value), sensitive}
}

// batch is the 4-field request of the benchmarks.
var batch = []field{
	makeField(":method", "GET", false),
	makeField(":path", "/api/v1/resource", false),
	makeField("user-agent", chromeUserAgent, false),
	makeField("cookie", "session_token=deadbeef1234567890", false),
}

// chromeUserAgent is a 110-byte Chrome user-agent string, the one of
// bench.ChromeUserAgent.
const chromeUserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.0.0 Safari/537.36"

// appendAll appends fields as strings or as byte slices.
func appendAll(enc *Encoder, dst []byte, fields []field, strs bool) []byte {
	for _, f := range fields {
		if strs {
			dst = enc.AppendFieldString(dst, f.name, f.value, f.sensitive)
		} else {
			dst = enc.AppendField(dst, f.nameB, f.valueB, f.sensitive)
		}
	}
	return dst
}

// checkNoAllocs fails unless f allocates nothing on average over
// allocRuns runs.
func checkNoAllocs(t *testing.T, what string, f func()) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	if n := testing.AllocsPerRun(allocRuns, f); n != 0 {
		t.Errorf("%s: %v allocations per run; want 0", what, n)
	}
}

// TestNoAllocs checks the zero-allocation contract for every path of the
// encoder, with string and []byte inputs.
func TestNoAllocs(t *testing.T) {
	missFields := make([]field, 500)
	for i := range missFields {
		missFields[i] = makeField(fmt.Sprintf("x-miss-%d", i%37), fmt.Sprintf("value %d %s", i, strings.Repeat("m", i%90)), false)
	}
	giant := []field{
		makeField("x-giant", strings.Repeat("g", 5000), false),
		makeField("x-giant", strings.Repeat("g", 5000), true),
		makeField("x-large", strings.Repeat("l", 3500), false),
	}
	policyFields := []field{
		makeField("authorization", "Bearer 0123456789", false),
		makeField("cookie", "a=b", false),
		makeField(":path", "/search?q=allocations", false),
		makeField("content-length", "12345", false),
		makeField("x-secret", "hunter2", true),
		makeField("x-miss-3", "never indexed, name from the dynamic table", true),
	}

	for _, strs := range []bool{false, true} {
		kind := "[]byte"
		if strs {
			kind = "string"
		}
		t.Run(kind, func(t *testing.T) {
			if purego && !strs {
				t.Skip("the purego build copies AppendField's []byte arguments")
			}
			dst := make([]byte, 0, 1<<16)

			enc := New(Config{})
			appendAll(enc, dst, batch, strs)
			checkNoAllocs(t, "steady-state hits", func() {
				dst = appendAll(enc, dst[:0], batch, strs)
			})

			enc = New(Config{})
			next := 0
			checkNoAllocs(t, "misses with eviction", func() {
				dst = appendAll(enc, dst[:0], missFields[next:next+10], strs)
				next = (next + 10) % len(missFields)
			})

			enc = New(Config{Capacity: 512})
			before := enc.table.compactions
			checkNoAllocs(t, "misses forcing compaction", func() {
				dst = appendAll(enc, dst[:0], missFields[next:next+10], strs)
				next = (next + 10) % len(missFields)
			})
			if enc.table.compactions == before {
				t.Errorf("no compaction happened in the compaction run")
			}

			enc = New(Config{})
			appendAll(enc, dst, batch, strs)
			checkNoAllocs(t, "giant and large fields", func() {
				dst = appendAll(enc, dst[:0], giant, strs)
			})

			enc = New(Config{})
			appendAll(enc, dst, missFields[:10], strs)
			checkNoAllocs(t, "policy paths", func() {
				dst = appendAll(enc, dst[:0], policyFields, strs)
			})

			enc = New(Config{Capacity: 8192})
			sizes := []uint32{0, 4096, 256, 65536, 1024}
			step := 0
			checkNoAllocs(t, "table size changes", func() {
				enc.SetMaxDynamicTableSize(sizes[step%len(sizes)])
				enc.SetMaxDynamicTableSize(sizes[(step+2)%len(sizes)])
				step++
				dst = appendAll(enc, dst[:0], batch, strs)
			})

			enc = New(Config{})
			checkNoAllocs(t, "Reset", func() {
				dst = appendAll(enc, dst[:0], batch, strs)
				enc.Reset()
			})

			var pool Pool
			pool.Put(pool.Get())
			checkNoAllocs(t, "Pool Get and Put", func() {
				e := pool.Get()
				dst = appendAll(e, dst[:0], batch, strs)
				pool.Put(e)
			})
		})
	}
}
