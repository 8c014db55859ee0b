//go:build !nghttp3

package inprocess_test

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestNghttp3QPACKBuilt(t *testing.T) {
	testenv.Missing(t, "built without -tags nghttp3: libnghttp3's QPACK encoder and decoder are not tested")
}
