package livegrade

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/encoder"
	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/vectors"
)

// decodedFrom reads "name: value" pairs separated by "|".
func decodedFrom(s string) []oracle.Field {
	var out []oracle.Field
	for _, p := range strings.Split(s, "|") {
		if p == "" {
			continue
		}
		name, value, _ := strings.Cut(p, ": ")
		out = append(out, oracle.Field{Name: name, Value: value})
	}
	return out
}

func listFrom(s string) []vectors.Field { return asHeaders(decodedFrom(s)) }

func TestExpectList(t *testing.T) {
	nginx := Transform{Drop: []string{"x-pad"}, Replace: []string{"date", "server"}}
	for _, tc := range []struct {
		name    string
		sent    string
		decoded string
		tr      Transform
		want    string
	}{
		{
			name: "relayed unchanged", sent: ":status: 200|a: 1|b: 2", decoded: ":status: 200|a: 1|b: 2",
			want: ":status: 200|a: 1|b: 2",
		},
		{
			name: "a value the encoder broke is expected as sent", sent: ":status: 200|a: 1", decoded: ":status: 200|a: 7",
			want: ":status: 200|a: 1",
		},
		{
			name: "fields of different names reordered", sent: ":status: 200|a: 1|b: 2", decoded: ":status: 200|b: 2|a: 1",
			want: ":status: 200|b: 2|a: 1",
		},
		{
			name: "repeated fields keep their order", sent: ":status: 200|c: x|c: y", decoded: ":status: 200|c: y|c: x",
			want: ":status: 200|c: x|c: y",
		},
		{
			name: "replaced and dropped fields", sent: ":status: 200|date: old|server: origin|x-pad: p|a: 1", tr: nginx,
			decoded: ":status: 200|server: nginx|date: new|a: 1",
			want:    ":status: 200|server: nginx|date: new|a: 1",
		},
		{
			name: "an added field is expected only when none of its name is left", sent: ":status: 200|date: origin", tr: Transform{Add: []string{"date"}},
			decoded: ":status: 200|date: origin|date: added",
			want:    ":status: 200|date: origin|date: added",
		},
		{
			name: "an undeclared field is not expected", sent: ":status: 200|a: 1", decoded: ":status: 200|a: 1|extra: 1",
			want: ":status: 200|a: 1",
		},
		{
			name: "a missing field is expected last", sent: ":status: 200|a: 1|b: 2", decoded: ":status: 200|b: 2",
			want: ":status: 200|b: 2|a: 1",
		},
		{
			name: "a name the encoder broke takes the place of the field sent", sent: ":status: 200|abc: 1|d: 2", decoded: ":status: 200|abx: 1|d: 2",
			want: ":status: 200|abc: 1|d: 2",
		},
		{
			name: "nothing decoded: what was sent, less what the target decides", sent: ":status: 200|date: d|a: 1", tr: nginx,
			want: ":status: 200|a: 1",
		},
	} {
		got := expectList(listFrom(tc.sent), decodedFrom(tc.decoded), tc.tr)
		if want := listFrom(tc.want); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %v\n want %v", tc.name, got, want)
		}
	}
}

func TestStoriesKnownUnknownAndUnrelayed(t *testing.T) {
	sent := listFrom(":status: 200|a: 1")
	enc := newTestEncoder()
	conn := Conn{Name: "c", Blocks: []Block{
		{Wire: enc.block(t, ":status: 200|a: 1"), Sent: sent, Step: "known"},
		{Wire: enc.block(t, ":status: 200|b: 9"), Step: "unknown"},
		{Wire: enc.block(t, ":status: 502|server: proxy"), Sent: sent, Step: "the proxy answered"},
		{Wire: enc.block(t, ":status: 200|a: 2", 0), Sent: sent, Acked: []uint32{0}, Step: "a value other than sent"},
	}}
	stories, notes := Stories([]Conn{conn, {Name: "empty"}}, Transform{})
	if len(stories) != 1 {
		t.Fatalf("%d stories; want 1 (a connection without blocks has none)", len(stories))
	}
	st := stories[0]
	for i, want := range []string{":status: 200|a: 1", ":status: 200|b: 9", ":status: 502|server: proxy", ":status: 200|a: 1"} {
		if got := st.Cases[i].Headers; !reflect.DeepEqual(got, listFrom(want)) {
			t.Errorf("case %d (%s): headers %v; want %v", i, conn.Blocks[i].Step, got, listFrom(want))
		}
	}
	if got := st.Cases[3].TableSizes; !reflect.DeepEqual(got, []uint32{0}) {
		t.Errorf("case 3: table sizes %v; want [0]", got)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"1 of 4 blocks with a header list hpackcert does not know", "1 blocks are not the response scripted", "the proxy answered (status 502)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes %q lack %q", joined, want)
		}
	}
}

// testEncoder encodes test blocks with the reference encoder.
type testEncoder struct{ enc certify.Encoder }

func newTestEncoder() *testEncoder { return &testEncoder{certify.NewReference(encoder.Config{})} }

// block encodes the fields of list ("name: value|...") after the settings
// acked.
func (e *testEncoder) block(t testing.TB, list string, acked ...uint32) []byte {
	t.Helper()
	for _, n := range acked {
		if err := e.enc.SetMaxDynamicTableSize(n); err != nil {
			t.Fatal(err)
		}
	}
	wire, err := e.enc.EncodeBlock(nil, listFrom(list))
	if err != nil {
		t.Fatal(err)
	}
	return wire
}

// TestExpectListDropEmpty checks Transform.DropEmpty: a field sent with
// an empty value is not expected, and one sent with a value still is.
func TestExpectListDropEmpty(t *testing.T) {
	tr := Transform{DropEmpty: true}
	sent := ":status: 200|etag: |a: 1|b: "
	got := expectList(listFrom(sent), decodedFrom(":status: 200|a: 1"), tr)
	if want := listFrom(":status: 200|a: 1"); !reflect.DeepEqual(got, want) {
		t.Errorf("empty fields dropped:\n got  %v\n want %v", got, want)
	}
	got = expectList(listFrom(sent), decodedFrom(":status: 200"), tr)
	if want := listFrom(":status: 200|a: 1"); !reflect.DeepEqual(got, want) {
		t.Errorf("a field with a value is still expected:\n got  %v\n want %v", got, want)
	}
	if got := expectList(listFrom(sent), decodedFrom(":status: 200|a: 1"), Transform{}); len(got) != 4 {
		t.Errorf("without DropEmpty the empty fields are expected: got %v", got)
	}
	if s := tr.String(); !strings.Contains(s, "drops fields with empty values") {
		t.Errorf("String() = %q, want it to say empty fields are dropped", s)
	}
}
