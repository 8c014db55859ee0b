//go:build nghttp2

package oracle_test

const builtWithNghttp2 = true
