package targets

import "github.com/hpackcert/hpackcert/certify/livegrade"

// The never-index policies of the HPACK libraries in the catalogue: what
// each sends never-indexed of its own accord, whatever its user asks
// (TargetSpec.NeverIndexes).
var (
	// Nghttp2NeverIndex is libnghttp2's deflater's own choice:
	// authorization, and cookie values under 20 octets, go never-indexed
	// whatever the flags of the nghttp2_nv (nghttp2_hd.c, deflate_nv).
	Nghttp2NeverIndex = &livegrade.NeverIndexPolicy{Names: []string{"authorization"}, ShortCookie: 20, Why: "libnghttp2's deflater does so whatever the caller's flags"}
	// PythonH2NeverIndex is python-h2's: before its hpack encoder sees
	// them, h2 turns authorization and proxy-authorization fields, and
	// cookies under 20 octets, into never-indexed ones (h2.utilities,
	// secure headers).
	PythonH2NeverIndex = &livegrade.NeverIndexPolicy{Names: []string{"authorization", "proxy-authorization"}, ShortCookie: 20, Why: "python-h2 marks them so before encoding"}
	// JettyNeverIndex is Jetty 9.4's HpackEncoder's: authorization,
	// set-cookie and set-cookie2 go never-indexed, by name.
	JettyNeverIndex = &livegrade.NeverIndexPolicy{Names: []string{"authorization", "set-cookie", "set-cookie2"}, StaticFirst: true, Why: "Jetty's HpackEncoder never-indexes these names, after a field equal to a static entry"}
)
