//go:build !nghttp2

package bench

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestCompressionVsNghttp2(t *testing.T) {
	testenv.Missing(t, "built without -tags nghttp2")
}
