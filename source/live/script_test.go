package live

import (
	"bytes"
	"compress/gzip"
	"io"
	"reflect"
	"strconv"
	"testing"

	"github.com/hpackcert/hpackcert/vectors"
)

func TestScheduleSendsEachChangeOnce(t *testing.T) {
	for _, n := range []int{1, 2, 5, 9, 10, 17, 64} {
		var got [][]uint32
		for i := range n {
			if s := Schedule(i, n); s != nil {
				got = append(got, s)
			}
		}
		want := len(scheduleChanges)
		if n-1 < want {
			want = n - 1
		}
		if len(got) != want {
			t.Errorf("n=%d: %d requests carry settings; want %d", n, len(got), want)
			continue
		}
		for i, s := range got {
			if !reflect.DeepEqual(s, scheduleChanges[i]) {
				t.Errorf("n=%d: change %d is %v; want %v", n, i, s, scheduleChanges[i])
			}
		}
		if Schedule(0, n) != nil {
			t.Errorf("n=%d: the first request carries settings", n)
		}
	}
}

func TestScheduleReachesEveryRule(t *testing.T) {
	// The schedule must go to 0, go down then up, and above 4096: the
	// size-update cases have nothing to judge otherwise.
	var zero, downUp, above bool
	for _, c := range scheduleChanges {
		for i, v := range c {
			zero = zero || v == 0
			above = above || v > 4096
			downUp = downUp || (i > 0 && v > c[i-1])
		}
	}
	if !zero || !downUp || !above {
		t.Errorf("schedule %v: to zero %v, down then up %v, above 4096 %v; want all", scheduleChanges, zero, downUp, above)
	}
}

func TestScriptLookup(t *testing.T) {
	sc, err := DefaultScript(2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Conns) != 7 {
		t.Fatalf("%d connections; want the targeted one, 2 stories, the exercise, sizes and start-at-zero ones, and the first story again", len(sc.Conns))
	}
	if again := sc.Conns[2]; again.ReplayOf != sc.Conns[1].Name || !again.Traffic || len(again.Steps) != len(sc.Conns[1].Steps) {
		t.Errorf("connection %s replays %q (traffic %v, %d steps); want %s again, traffic, %d steps", again.Name, again.ReplayOf, again.Traffic, len(again.Steps), sc.Conns[1].Name, len(sc.Conns[1].Steps))
	}
	if n := len(sc.Conns[1].Steps); n != 5 {
		t.Errorf("story connection has %d steps; want 5", n)
	}
	step, ok := sc.Lookup(Path(1, 4))
	if !ok || step != &sc.Conns[1].Steps[4] {
		t.Errorf("Lookup(%q) = %v, %v; want step 4 of connection 1", Path(1, 4), step, ok)
	}
	for _, bad := range []string{"/hpackcert/1/5", "/hpackcert/7/0", "/hpackcert/x/0", "/other/0/0", "/hpackcert/1"} {
		if _, ok := sc.Lookup(bad); ok {
			t.Errorf("Lookup(%q) found a step", bad)
		}
	}
}

func TestOriginResponse(t *testing.T) {
	h := func(pairs ...string) []vectors.Field { return fields(pairs...) }
	for _, tc := range []struct {
		name     string
		in       []vectors.Field
		want     []vectors.Field
		bodySize int
	}{
		{
			name:     "hop-by-hop fields dropped, content-length is the body's, in its place",
			in:       h(":status", "200", "Connection", "keep-alive", "content-length", "10", "transfer-encoding", "chunked", "X-A", " padded\t"),
			want:     h(":status", "200", "content-length", "10", "x-a", "padded"),
			bodySize: 10,
		},
		{
			name:     "no content-length: 64 octets, last",
			in:       h(":status", "404", "x-b", "1"),
			want:     h(":status", "404", "x-b", "1", "content-length", "64"),
			bodySize: 64,
		},
		{
			name: "304 has no body and no content-length",
			in:   h(":status", "304", "content-length", "100", "etag", `"x"`),
			want: h(":status", "304", "etag", `"x"`),
		},
		{
			name:     "a value with a control octet and a bad name are left out; a bad status becomes 200",
			in:       h(":status", "101", "x-c", "a\x01b", "bad name", "v", "x-d", "ok"),
			want:     h(":status", "200", "x-d", "ok", "content-length", "64"),
			bodySize: 64,
		},
		{
			name:     "a large body is cut to 16 KiB",
			in:       h(":status", "200", "content-length", "1000000"),
			want:     h(":status", "200", "content-length", strconv.Itoa(MaxBody)),
			bodySize: MaxBody,
		},
	} {
		got, body := OriginResponse(tc.in)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %v; want %v", tc.name, got, tc.want)
		}
		if len(body) != tc.bodySize {
			t.Errorf("%s: body of %d octets; want %d", tc.name, len(body), tc.bodySize)
		}
	}
}

func TestOriginResponseGzip(t *testing.T) {
	got, body := OriginResponse(fields(":status", "200", "content-encoding", "gzip", "content-length", "500"))
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("the body of a gzip response is not gzip: %v", err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil || len(plain) != 500 {
		t.Errorf("gunzipped body: %d octets, %v; want 500", len(plain), err)
	}
	if want := strconv.Itoa(len(body)); got[len(got)-1].Value != want {
		t.Errorf("content-length %q; want the compressed length %s", got[len(got)-1].Value, want)
	}
}
