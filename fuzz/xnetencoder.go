package fuzz

import (
	"bytes"
	"fmt"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/oracle/strict"
)

// CheckCertifyXNetEncoder is the body of FuzzCertifyXNetEncoder: it drives
// the encoder of golang.org/x/net/http2/hpack with the script decoded from
// data and checks every block with the strict oracle, which must accept it
// and decode the script's fields (sensitive ones never indexed). The
// script's Capacity becomes the library's SetMaxDynamicTableSizeLimit (0
// leaves its default of 4096); IndexAll has no counterpart and is ignored.
// The error, if any, ends with the script.
func CheckCertifyXNetEncoder(data []byte) error {
	s := ParseScript(data)
	if err := runXNetEncoder(s); err != nil {
		return errScript(s, err)
	}
	return nil
}

func runXNetEncoder(s *Script) error {
	var buf bytes.Buffer
	var enc *hpack.Encoder
	var dec *strict.Decoder
	var want []Op
	conn, blockNum := 0, 0
	newConnection := func() {
		buf.Reset()
		enc = hpack.NewEncoder(&buf)
		if s.Capacity != 0 {
			enc.SetMaxDynamicTableSizeLimit(s.Capacity)
		}
		dec = strict.New()
		conn++
		blockNum = 1
	}
	endBlock := func() error {
		if len(want) == 0 {
			return nil
		}
		block := buf.Bytes()
		got, err := dec.DecodeBlock(block)
		if err != nil {
			return fmt.Errorf("connection %d, block %d: x/net's encoder wrote %x, which the strict oracle rejects: %v", conn, blockNum, block, err)
		}
		if err := compareFields(got, want); err != nil {
			return fmt.Errorf("connection %d, block %d: x/net's encoder wrote %x, which the strict oracle decodes differently: %v", conn, blockNum, block, err)
		}
		buf.Reset()
		want = want[:0]
		blockNum++
		return nil
	}
	newConnection()
	for _, op := range s.Ops {
		var err error
		switch op.Kind {
		case OpField:
			err = enc.WriteField(hpack.HeaderField{Name: op.Name, Value: op.Value, Sensitive: op.Sensitive})
			want = append(want, op)
		case OpTableSize:
			err = endBlock()
			enc.SetMaxDynamicTableSize(op.Size)
			dec.SetMaxDynamicTableSize(op.Size)
		case OpEndBlock:
			err = endBlock()
		case OpReset:
			err = endBlock()
			newConnection()
		}
		if err != nil {
			return err
		}
	}
	return endBlock()
}
