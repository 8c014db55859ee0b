//go:build nghttp3

package bench

import (
	"github.com/hpackcert/hpackcert/internal/libnghttp3"
	"github.com/hpackcert/hpackcert/internal/spec"
)

func init() {
	// libnghttp3's encoder runs through internal/libnghttp3's EncodeBatch:
	// the traffic is copied into C memory once and n passes are one cgo
	// call, so that no crossing is charged to it. Its settings are those
	// of qpackOursPasses: MaxTableCapacity is 4096 and the batch's
	// blocked streams 100.
	newNghttp3QPACKEncode = func(conns [][][]spec.Field) (PairedOp, error) {
		b, err := libnghttp3.NewEncodeBatch(conns)
		if err != nil {
			return PairedOp{}, err
		}
		return PairedOp{Impl: "nghttp3", Op: func(n int) error { _, err := b.Passes(n); return err }, Close: b.Close}, nil
	}
}
