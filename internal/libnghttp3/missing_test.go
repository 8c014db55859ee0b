//go:build !nghttp3

package libnghttp3

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestBuiltWithNghttp3(t *testing.T) {
	testenv.Missing(t, "built without -tags nghttp3: libnghttp3's QPACK encoder and decoder are not tested")
}
