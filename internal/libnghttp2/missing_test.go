//go:build !nghttp2

package libnghttp2

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestBuiltWithNghttp2(t *testing.T) {
	testenv.Missing(t, "built without -tags nghttp2")
}
