//go:build !nghttp2

package inprocess_test

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

func TestNghttp2Grades(t *testing.T) {
	testenv.Missing(t, "built without -tags nghttp2: the nghttp2 encoder is not certified")
}
