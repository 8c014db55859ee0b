//go:build !nghttp2

package bench

// nghttp2Impl is empty without the nghttp2 build tag.
var nghttp2Impl Impl
