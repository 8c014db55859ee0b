package livegrade

import (
	"testing"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/vectors"
)

// TestNeverIndexPolicyGraded: a target whose HPACK library never-indexes
// credentials by itself (Transcript.NeverIndexes) is graded under enc/7.1.3/1
// on them, once: an indexed credential fails that case and not also
// enc/7.1.3/2; without the policy it is enc/7.1.3/2's, and enc/7.1.3/1 is
// declared.
func TestNeverIndexPolicyGraded(t *testing.T) {
	sent := []vectors.Field{{Name: ":status", Value: "200"}, {Name: "authorization", Value: "Basic aHBhY2s="}, {Name: "cookie", Value: "sid=31d4"}, {Name: "x-plain", Value: "p"}}
	// libnghttp2's policy and python-h2's, as the catalogue declares them.
	nghttp2 := &NeverIndexPolicy{Names: []string{"authorization"}, ShortCookie: 20, Why: "nghttp2"}
	pythonH2 := &NeverIndexPolicy{Names: []string{"authorization", "proxy-authorization"}, ShortCookie: 20, Why: "python-h2"}
	// str is a raw string literal; rep writes authorization (static
	// name 23) and cookie (32) with the representation's prefix.
	str := func(s string) []byte { return append([]byte{byte(len(s))}, s...) }
	block := func(kind string) []byte {
		b := []byte{0x88} // :status 200
		switch kind {
		case "never": // §6.2.3, 4-bit prefix: 15 + 8, 15 + 17
			b = append(append(b, 0x1f, 0x08), str("Basic aHBhY2s=")...)
			b = append(append(b, 0x1f, 0x11), str("sid=31d4")...)
		case "indexed": // §6.2.1, 6-bit prefix
			b = append(append(b, 0x40|23), str("Basic aHBhY2s=")...)
			b = append(append(b, 0x40|32), str("sid=31d4")...)
		case "without": // §6.2.2, 4-bit prefix
			b = append(append(b, 0x0f, 0x08), str("Basic aHBhY2s=")...)
			b = append(append(b, 0x0f, 0x11), str("sid=31d4")...)
		}
		b = append(b, 0x40)
		b = append(append(b, str("x-plain")...), str("p")...)
		return b
	}
	for _, tc := range []struct {
		kind        string
		policy      *NeverIndexPolicy
		want, want2 certify.Grade
	}{
		{"never", nghttp2, certify.Pass, certify.Pass},
		{"indexed", nghttp2, certify.Fail, certify.Pass},
		{"without", nghttp2, certify.Fail, certify.Pass},
		{"indexed", nil, certify.Unsupported, certify.NonStrict},
		{"never", pythonH2, certify.Pass, certify.Pass},
	} {
		results := gradeOneBlock(t, &Transcript{NeverIndexes: tc.policy}, block(tc.kind), sent)
		res := results["enc/7.1.3/1"]
		if res.Grade != tc.want || (tc.want == certify.Unsupported) != (res.Declared != "") {
			t.Errorf("%s, policy %v: enc/7.1.3/1 %v (%s; declared %q); want %v", tc.kind, tc.policy != nil, res.Grade, res.Detail, res.Declared, tc.want)
		}
		if res2 := results["enc/7.1.3/2"]; res2.Grade != tc.want2 {
			t.Errorf("%s, policy %v: enc/7.1.3/2 %v (%s); want %v", tc.kind, tc.policy != nil, res2.Grade, res2.Detail, tc.want2)
		}
	}
}

// gradeOneBlock grades tr as a server's transcript of one connection of
// one block, wire, the answer to sent (a connection without blocks before
// it), and returns its results.
func gradeOneBlock(t *testing.T, tr *Transcript, wire []byte, sent []vectors.Field) map[string]*certify.Result {
	t.Helper()
	tr.Name, tr.Role, tr.Where, tr.Transport = "t", RoleServer, "test", "h2c"
	tr.Conns = []Conn{{Name: "empty"}, {Name: "c", Blocks: []Block{{Wire: wire, Sent: sent, Step: "s"}}}}
	rep, err := Grade([]Transcript{*tr}, "", certify.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Results[rep.Encoders[0]]
}
