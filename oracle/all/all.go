// Package all registers every oracle built into the binary with package
// oracle. Import it for its side effect:
//
//	import _ "github.com/hpackcert/hpackcert/oracle/all"
//
// It always brings in oracle/strict ("strict"), oracle/xnet ("x/net") and
// oracle/ref ("ref", package decoder); built with -tags nghttp2 it also
// brings in oracle/nghttp2 ("nghttp2"). all.go imports the first three;
// all_nghttp2.go, built with the tag only, the fourth.
package all

import (
	_ "github.com/hpackcert/hpackcert/oracle/ref"    // registers "ref"
	_ "github.com/hpackcert/hpackcert/oracle/strict" // registers "strict"
	_ "github.com/hpackcert/hpackcert/oracle/xnet"   // registers "x/net"
)
