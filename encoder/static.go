package encoder

//go:generate go run gen.go -output static_lookup.go

// RFC 7541 Appendix A indices of the static names the indexing policy
// looks at. TestStaticIndexConstants checks them against spec.StaticTable.
const (
	staticPath               = 4
	staticAge                = 21
	staticAuthorization      = 23
	staticContentLength      = 28
	staticCookie             = 32
	staticETag               = 34
	staticIfModifiedSince    = 40
	staticIfNoneMatch        = 41
	staticLastModified       = 44
	staticLocation           = 46
	staticProxyAuthorization = 49
	staticSetCookie          = 55
)

// nameRule is what the indexing policy's name rules (see Policy) do with
// fields of a static name, unless IndexAll is set.
type nameRule uint8

const (
	ruleNone          nameRule = iota
	ruleNeverIndexed           // authorization, proxy-authorization: "Never Indexed"
	ruleCookie                 // cookie: "Never Indexed" when short
	ruleRarelyRepeats          // values that rarely repeat: "without Indexing"
	rulePath                   // :path: "without Indexing" when long or with a query
)

// staticNameRule returns the rule of the static name with RFC index i.
func staticNameRule(i int) nameRule {
	switch i {
	case staticAuthorization, staticProxyAuthorization:
		return ruleNeverIndexed
	case staticCookie:
		return ruleCookie
	case staticPath:
		return rulePath
	case staticAge, staticContentLength, staticETag, staticIfModifiedSince,
		staticIfNoneMatch, staticLastModified, staticLocation, staticSetCookie:
		return ruleRarelyRepeats
	}
	return ruleNone
}
