//go:build nghttp2

package all

import _ "github.com/hpackcert/hpackcert/oracle/nghttp2" // registers "nghttp2"
