package fuzz

import (
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hpackcert/hpackcert/oracle"
	"github.com/hpackcert/hpackcert/oracle/strict"
)

// faultyDecoder is a strict oracle under another name with one fault, to
// show that each check catches a decoder (or, seen from the decoder, an
// encoder) that goes wrong.
type faultyDecoder struct {
	*strict.Decoder
	name  string
	fault string
}

func (d *faultyDecoder) Name() string { return d.name }

func (d *faultyDecoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	fields, err := d.Decoder.DecodeBlock(block)
	switch d.fault {
	case "accept everything":
		return fields, nil
	case "reject everything":
		return nil, errors.New("hpack: refused")
	case "lose never-indexed":
		for i := range fields {
			fields[i].Sensitive = false
		}
	case "alter values":
		for i := range fields {
			fields[i].Value += "!"
		}
	}
	return fields, err
}

func (d *faultyDecoder) Table() []oracle.Field {
	table := d.Decoder.Table()
	if d.fault == "forget newest entry" && len(table) > 0 {
		return table[1:]
	}
	return table
}

func faulty(name, fault string) []func() oracle.Decoder {
	return []func() oracle.Decoder{
		func() oracle.Decoder { return strict.New() },
		func() oracle.Decoder { return &faultyDecoder{strict.New(), name, fault} },
	}
}

func scriptBytes(t *testing.T, s *Script) []byte {
	t.Helper()
	b, err := s.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckEncodeRoundTripCatches(t *testing.T) {
	data := scriptBytes(t, &Script{Capacity: 4096, Ops: []Op{
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
		{Kind: OpField, Name: "password", Value: "hunter2", Sensitive: true},
		{Kind: OpEndBlock},
		{Kind: OpField, Name: "custom-key", Value: "custom-value"},
	}})
	if err := CheckEncodeRoundTrip(data, faulty("honest", "")); err != nil {
		t.Fatalf("honest decoders: %v", err)
	}
	tests := []struct{ fault, wantErr string }{
		{"reject everything", "faulty rejects the encoder's block"},
		{"lose never-indexed", "sensitive but was not sent as never indexed"},
		{"alter values", `field 0 is "custom-key": "custom-value!"`},
		{"forget newest entry", "dynamic table differs"},
	}
	for _, tt := range tests {
		err := CheckEncodeRoundTrip(data, faulty("faulty", tt.fault))
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %v; want one containing %q", tt.fault, err, tt.wantErr)
			continue
		}
		if !strings.Contains(err.Error(), `"password": "hunter2" (sensitive)`) {
			t.Errorf("%s: error does not print the script:\n%v", tt.fault, err)
		}
	}
}

func TestCheckHuffmanCatches(t *testing.T) {
	data := []byte("www.example.com")
	if err := CheckHuffman(data, faulty("honest", "")); err != nil {
		t.Fatalf("honest decoders: %v", err)
	}
	for _, fault := range []string{"reject everything", "alter values", "lose never-indexed"} {
		if err := CheckHuffman(data, faulty("faulty", fault)); err == nil || !strings.Contains(err.Error(), "faulty") {
			t.Errorf("%s: error %v; want one naming the faulty decoder", fault, err)
		}
	}
}

func TestCheckIntegerCatches(t *testing.T) {
	for kind := range intKinds {
		data := []byte{byte(kind), 0, 0, 0x01, 0x00}
		if err := CheckInteger(data, faulty("honest", "")); err != nil {
			t.Fatalf("kind %d, honest decoders: %v", kind, err)
		}
		if err := CheckInteger(data, faulty("faulty", "reject everything")); err == nil || !strings.Contains(err.Error(), "faulty rejects") {
			t.Errorf("kind %d: error %v; want one saying the faulty decoder rejects", kind, err)
		}
	}
}

func TestCheckDecoderDifferentialCatches(t *testing.T) {
	indexZero := []byte{1, 0x80} // §6.1: index 0 is not used
	valid := []byte{1, 0x82}     // :method: GET
	tests := []struct {
		label, name, fault string
		data               []byte
		wantErr            string // "" when the check must pass
	}{
		{"honest", "faulty", "", indexZero, ""},
		{"accepts index 0", "faulty", "accept everything", indexZero, "strict rejects the block"},
		{"rejects a valid block", "faulty", "reject everything", valid, "it rejects the block"},
		{"alters a value", "faulty", "alter values", valid, `it decodes [":method": "GET!"]`},
		// x/net is listed as accepting what strict rejects under §4.2,
		// not under §6.1.
		{"unlisted leniency", "x/net", "accept everything", indexZero, "x/net and strict disagree"},
		{"listed leniency", "x/net", "accept everything", []byte{4, 0x82, 0x3f, 0xe1, 0x1f}, ""},
	}
	for _, tt := range tests {
		err := CheckDecoderDifferential(tt.data, faulty(tt.name, tt.fault))
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.label, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v; want one containing %q", tt.label, err, tt.wantErr)
		}
	}
}

// brokenEncoder writes every field as a literal never indexed with a new
// name, and forgets the sensitive flag or corrupts values as told.
type brokenEncoder struct {
	block []byte
	fault string
}

func (e *brokenEncoder) WriteField(name, value string, sensitive bool) error {
	switch e.fault {
	case "index 0":
		e.block = append(e.block, 0x80)
		return nil
	case "not never indexed":
		e.block = append(e.block, 0x00) // without indexing
	default:
		e.block = append(e.block, 0x10)
	}
	e.block = append(e.block, byte(len(name)))
	e.block = append(e.block, name...)
	e.block = append(e.block, byte(len(value)))
	e.block = append(e.block, value...)
	return nil
}

func (e *brokenEncoder) SetMaxDynamicTableSize(uint32) {}

func (e *brokenEncoder) EndBlock() []byte {
	b := e.block
	e.block = nil
	return b
}

func TestCertifyScriptCatches(t *testing.T) {
	s := &Script{Capacity: 4096, Ops: []Op{
		{Kind: OpField, Name: "a", Value: "b", Sensitive: true},
	}}
	newEncoder := func(fault string) func(uint32) ScriptEncoder {
		return func(uint32) ScriptEncoder { return &brokenEncoder{fault: fault} }
	}
	if err := CertifyScript(s, newEncoder("")); err != nil {
		t.Fatalf("a correct (if wasteful) encoder: %v", err)
	}
	tests := []struct{ fault, wantErr string }{
		{"index 0", "strict oracle rejects"},
		{"not never indexed", "not sent as never indexed"},
	}
	for _, tt := range tests {
		if err := CertifyScript(s, newEncoder(tt.fault)); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error %v; want one containing %q", tt.fault, err, tt.wantErr)
		}
	}
	// A setting that went down must be signalled (§4.2).
	down := &Script{Capacity: 4096, Ops: []Op{
		{Kind: OpField, Name: "a", Value: "b"},
		{Kind: OpTableSize, Size: 0},
		{Kind: OpField, Name: "a", Value: "b"},
	}}
	if err := CertifyScript(down, newEncoder("")); err == nil || !strings.Contains(err.Error(), "block 2") {
		t.Errorf("missing size update: error %v; want one about block 2", err)
	}
}

func TestCheckCertifyXNetEncoderSeedScript(t *testing.T) {
	data := scriptBytes(t, &Script{Capacity: 256, Ops: []Op{
		{Kind: OpField, Name: ":method", Value: "GET"},
		{Kind: OpField, Name: "authorization", Value: "secret", Sensitive: true},
		{Kind: OpTableSize, Size: 0},
		{Kind: OpTableSize, Size: 4096},
		{Kind: OpField, Name: "custom", Value: strings.Repeat("v", 500)},
		{Kind: OpReset},
		{Kind: OpField, Name: "custom", Value: "v"},
	}})
	if err := CheckCertifyXNetEncoder(data); err != nil {
		t.Error(err)
	}
}

// recordingDecoder is a strict oracle that keeps every block it is given.
type recordingDecoder struct {
	*strict.Decoder
	blocks *[]string
}

func (d recordingDecoder) DecodeBlock(block []byte) ([]oracle.Field, error) {
	*d.blocks = append(*d.blocks, hex.EncodeToString(block))
	return d.Decoder.DecodeBlock(block)
}

func TestEncodeRoundTripEmptyBlocks(t *testing.T) {
	field := func(name string) Op { return Op{Kind: OpField, Name: name, Value: "v"} }
	tests := []struct {
		name     string
		capacity uint32
		ops      []Op
		want     []string // the blocks the decoders get, in hex
	}{
		{"update-to-0", 4096, []Op{field("a"), {Kind: OpTableSize, Size: 0}, {Kind: OpEndBlock}, field("a")},
			[]string{"4001610176", "20", "0001610176"}}, // no room to index "a" any more
		{"smallest-then-final", 4096, []Op{{Kind: OpTableSize, Size: 100}, {Kind: OpTableSize, Size: 4096}, {Kind: OpEndBlock}},
			[]string{"3f453fe11f"}},
		{"nothing-pending", 4096, []Op{{Kind: OpEndBlock}, {Kind: OpTableSize, Size: 4096}, {Kind: OpEndBlock}, {Kind: OpEndBlock}},
			nil},
		{"capacity-below-setting", 256, []Op{{Kind: OpEndBlock}, {Kind: OpEndBlock}, field("a")},
			[]string{"3fe101", "4001610176"}},
		{"setting-ends-block-without-updates", 4096, []Op{{Kind: OpTableSize, Size: 0}, {Kind: OpTableSize, Size: 50}, field("a")},
			[]string{"203f134001610176"}}, // 0, then 50 = 31 + 19
		// The setting repeated before the second end of block is the size
		// signalled already: AppendSizeUpdates has nothing to write, and
		// the rise that follows is signalled alone (found by fuzzing).
		{"repeated-setting-then-rise", 4096, []Op{{Kind: OpTableSize, Size: 100}, {Kind: OpEndBlock}, {Kind: OpTableSize, Size: 100}, {Kind: OpEndBlock}, {Kind: OpTableSize, Size: 200}, field("a")},
			[]string{"3f45", "3fa9014001610176"}}, // 100 = 31 + 69; 200 = 31 + 169
	}
	for _, tt := range tests {
		data := scriptBytes(t, &Script{Capacity: tt.capacity, Ops: tt.ops})
		var blocks []string
		rec := []func() oracle.Decoder{func() oracle.Decoder { return recordingDecoder{strict.New(), &blocks} }}
		if err := CheckEncodeRoundTrip(data, rec); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !slices.Equal(blocks, tt.want) {
			t.Errorf("%s: blocks %q; want %q", tt.name, blocks, tt.want)
		}
		if len(tt.want) > 0 {
			if err := CheckEncodeRoundTrip(data, faulty("faulty", "reject everything")); err == nil || !strings.Contains(err.Error(), "faulty rejects the encoder's block "+tt.want[0]) {
				t.Errorf("%s: error %v; want the faulty decoder rejecting block %s", tt.name, err, tt.want[0])
			}
		}
	}
}
