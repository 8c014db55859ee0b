package fuzz

import (
	"bytes"
	"fmt"

	"golang.org/x/net/http2/hpack"

	"github.com/hpackcert/hpackcert/oracle/strict"
)

// A ScriptEncoder is an HPACK encoder under test, as CertifyScript drives
// it: one value per connection.
type ScriptEncoder interface {
	// WriteField encodes a field into the current block.
	WriteField(name, value string, sensitive bool) error
	// SetMaxDynamicTableSize tells the encoder that the peer's
	// SETTINGS_HEADER_TABLE_SIZE is now n (and acknowledged).
	SetMaxDynamicTableSize(n uint32)
	// EndBlock returns the block written since the last EndBlock and starts
	// a new one. The slice may be reused after the next call.
	EndBlock() []byte
}

// CheckCertifyXNetEncoder is the body of the x/net encoder target: it drives
// the encoder of golang.org/x/net/http2/hpack with the script decoded from
// data through CertifyScript. The script's Capacity becomes the library's
// SetMaxDynamicTableSizeLimit (0 leaves its default of 4096); IndexAll and
// Huffman have no counterpart and are ignored. The error, if any, ends
// with the script.
func CheckCertifyXNetEncoder(data []byte) error {
	return newChecker(nil).certifyXNetEncoder(data)
}

func (c *checker) certifyXNetEncoder(data []byte) error {
	s := &c.script
	s.parse(data)
	if err := certifyScript(s, newXNetEncoder, c.ref); err != nil {
		return errScript(s, err)
	}
	return nil
}

type xnetEncoder struct {
	buf bytes.Buffer
	enc *hpack.Encoder
}

func newXNetEncoder(capacity uint32) ScriptEncoder {
	e := &xnetEncoder{}
	e.enc = hpack.NewEncoder(&e.buf)
	if capacity != 0 {
		e.enc.SetMaxDynamicTableSizeLimit(capacity)
	}
	return e
}

func (e *xnetEncoder) WriteField(name, value string, sensitive bool) error {
	return e.enc.WriteField(hpack.HeaderField{Name: name, Value: value, Sensitive: sensitive})
}

func (e *xnetEncoder) SetMaxDynamicTableSize(n uint32) { e.enc.SetMaxDynamicTableSize(n) }

func (e *xnetEncoder) EndBlock() []byte {
	block := bytes.Clone(e.buf.Bytes())
	e.buf.Reset()
	return block
}

// CertifyScript runs the script s through encoders made by newEncoder (one
// per connection, given the script's Capacity) and checks every block with
// the strict oracle, which must accept it and decode the script's fields,
// sensitive ones never indexed (RFC 7541 §6.2.3). Blocks without fields
// are not written.
func CertifyScript(s *Script, newEncoder func(capacity uint32) ScriptEncoder) error {
	return certifyScript(s, newEncoder, strict.New())
}

// certifyScript is CertifyScript with dec as the strict oracle, reset for
// each connection.
func certifyScript(s *Script, newEncoder func(capacity uint32) ScriptEncoder, dec *strict.Decoder) error {
	var (
		enc      ScriptEncoder
		want     []Op
		conn     int
		blockNum int
	)
	newConnection := func() {
		enc = newEncoder(s.Capacity)
		dec.Reset()
		conn++
		blockNum = 1
	}
	endBlock := func() error {
		defer func() { blockNum++ }()
		if len(want) == 0 {
			return nil
		}
		block := enc.EndBlock()
		got, err := dec.DecodeBlock(block)
		if err != nil {
			return fmt.Errorf("connection %d, block %d: the encoder wrote %x, which the strict oracle rejects: %v", conn, blockNum, block, err)
		}
		if err := compareFields(got, want); err != nil {
			return fmt.Errorf("connection %d, block %d: the encoder wrote %x, which the strict oracle decodes differently: %v", conn, blockNum, block, err)
		}
		want = want[:0]
		return nil
	}
	newConnection()
	for i, op := range s.Ops {
		var err error
		switch op.Kind {
		case OpField:
			if werr := enc.WriteField(op.Name, op.Value, op.Sensitive); werr != nil {
				err = fmt.Errorf("op %d: WriteField: %v", i, werr)
			}
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
