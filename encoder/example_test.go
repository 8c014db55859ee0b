package encoder_test

import (
	"fmt"

	"github.com/hpackcert/hpackcert/encoder"
)

// Example encodes two requests on one connection. The second block is
// shorter: its fields are now in the dynamic table, except the
// authorization, which DefaultPolicy never indexes.
func Example() {
	enc := encoder.New(encoder.Config{})
	fields := [][2]string{
		{":method", "GET"},
		{":path", "/api/v1/resource"},
		{"user-agent", "example/1.0"},
		{"authorization", "Bearer token"},
	}
	buf := make([]byte, 0, 256)
	for i := range 2 {
		buf = buf[:0]
		for _, f := range fields {
			buf = enc.AppendFieldString(buf, f[0], f[1], false)
		}
		fmt.Printf("block %d: %x\n", i+1, buf)
	}
	fmt.Println("table entries:", enc.TableLen())
	// Output:
	// block 1: 82448c6075998ee162c2a0f6d842ff7a882f91d35d05602b831f0889ba51d85b1449fa96af
	// block 2: 82bfbe1f0889ba51d85b1449fa96af
	// table entries: 2
}
