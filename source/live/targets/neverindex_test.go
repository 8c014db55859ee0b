package targets

import "testing"

// TestNeverIndexPolicies checks the libraries' policies field by field:
// libnghttp2 covers authorization and cookies under 20 octets, python-h2
// proxy-authorization too, Jetty authorization and set-cookie but for
// fields equal to a static entry (set-cookie2 has none), and no cookie.
func TestNeverIndexPolicies(t *testing.T) {
	if !Nghttp2NeverIndex.Covers("cookie", "sid=31d4") || Nghttp2NeverIndex.Covers("cookie", "a-cookie-of-20-octet") || Nghttp2NeverIndex.Covers("proxy-authorization", "x") || !PythonH2NeverIndex.Covers("proxy-authorization", "x") ||
		!JettyNeverIndex.Covers("set-cookie", "a=1") || JettyNeverIndex.Covers("cookie", "sid=31d4") || JettyNeverIndex.Covers("authorization", "") ||
		!JettyNeverIndex.Covers("set-cookie2", "") || !Nghttp2NeverIndex.Covers("authorization", "") {
		t.Error("Covers: nghttp2 covers authorization and cookies under 20 octets, python-h2 proxy-authorization too, Jetty authorization and set-cookie but for fields equal to a static entry (set-cookie2 has none), no cookie")
	}
}
