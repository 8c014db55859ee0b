//go:build !nghttp2

package nghttp2deflate

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestBuiltWithNghttp2(t *testing.T) {
	testenv.Missing(t, "built without -tags nghttp2")
}
