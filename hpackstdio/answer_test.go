package hpackstdio

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/hpackcert/hpackcert/internal/stdioschema"
)

// TestParseAnswer checks what parseAnswer takes from the answers it
// accepts.
func TestParseAnswer(t *testing.T) {
	tests := []struct {
		op, line    string
		name        string
		binary      bool
		wire        []byte
		errorText   string
		unsupported string
		reason      string
	}{
		{OpHello, `{"name":"enc 1.2"}`, "enc 1.2", false, nil, "", "", "a name"},
		{OpHello, ` {"binary":true, "name":"é"} `, "é", true, nil, "", "", "the offer, members in any order, spaces around"},
		{OpHello, `{"name":"x","binary":false}`, "x", false, nil, "", "", "binary false is no offer"},
		{OpHello, `{"name":"x","speed":["fast"]}`, "x", false, nil, "", "", "an extension this client does not know"},
		{OpNew, `{}`, "", false, nil, "", "", "the answer to new"},
		{OpEncode, `{"wire":""}`, "", false, []byte{}, "", "", "the empty block"},
		{OpEncode, `{"wire":"82aBcD"}`, "", false, []byte{0x82, 0xab, 0xcd}, "", "", "either case"},
		{OpEncode, `{"unsupported":"no never-index API"}`, "", false, nil, "", "no never-index API", "a block the encoder cannot express"},
		{OpEncode, `{"error":"\u001b"}`, "", false, nil, "\x1b", "", "an error answer, its text as sent"},
		{OpNew, `{"error":"x"}`, "", false, nil, "x", "", "an error answer to new"},
	}
	for _, tt := range tests {
		a, err := parseAnswer(tt.op, []byte(tt.line), DefaultMaxWire)
		if err != nil {
			t.Errorf("%s: the answer %s to %s: %v", tt.reason, tt.line, tt.op, err)
			continue
		}
		text := func(p *string) string {
			if p == nil {
				return ""
			}
			return *p
		}
		if a.name != tt.name || a.binary != tt.binary || !bytes.Equal(a.wire, tt.wire) || (tt.wire != nil) != (a.wire != nil) ||
			text(a.errorText) != tt.errorText || text(a.unsupported) != tt.unsupported {
			t.Errorf("%s: the answer %s to %s: %+v", tt.reason, tt.line, tt.op, a)
		}
	}
}

// TestParseAnswerLacks checks the lacks parseAnswer takes from answers
// to hello that declare some.
func TestParseAnswerLacks(t *testing.T) {
	tests := []struct {
		line   string
		want   Lacks
		reason string
	}{
		{`{"name":"x"}`, Lacks{}, "nothing declared"},
		{`{"name":"x","lacks":[],"refuses":[]}`, Lacks{}, "empty lists declare nothing"},
		{`{"name":"x","lacks":["never-index"]}`, Lacks{Names: []string{"never-index"}}, "one lack"},
		{`{"name":"x","lacks":["uppercase-names","empty-block","one-size-update","pseudo-first","never-index"]}`,
			Lacks{Names: []string{"uppercase-names", "empty-block", "one-size-update", "pseudo-first", "never-index"}}, "several lacks, in the order declared"},
		{`{"name":"x","refuses":[[0, 31],[127,127], [128,255]]}`,
			Lacks{Refuses: []OctetRange{{Lo: 0, Hi: 31}, {Lo: 127, Hi: 127}, {Lo: 128, Hi: 255}}}, "ranges, one of a single octet"},
		{`{"refuses":[[0,0]],"binary":true,"lacks":["empty-block"],"name":"x"}`,
			Lacks{Names: []string{"empty-block"}, Refuses: []OctetRange{{Lo: 0, Hi: 0}}}, "members in any order"},
		{`{"name":"x","refuses":[[0,1e2]]}`, Lacks{Refuses: []OctetRange{{Lo: 0, Hi: 100}}}, "an integer written with an exponent"},
	}
	for _, tt := range tests {
		a, err := parseAnswer(OpHello, []byte(tt.line), DefaultMaxWire)
		if err != nil {
			t.Errorf("%s: the answer %s to hello: %v", tt.reason, tt.line, err)
			continue
		}
		if !reflect.DeepEqual(a.lacks, tt.want) {
			t.Errorf("%s: the answer %s to hello declares %+v; want %+v", tt.reason, tt.line, a.lacks, tt.want)
		}
	}
}

// TestParseAnswerAgreesWithSchema checks that parseAnswer accepts the
// answers the schema accepts for their request and refuses the others,
// but for the members an answer to hello may have beyond the protocol,
// which the schema refuses so that a misspelt one is caught.
func TestParseAnswerAgreesWithSchema(t *testing.T) {
	sch := schemas(t)
	tests := []struct {
		op, line string
	}{
		{OpHello, `{"name":"x"}`}, {OpHello, `{"name":"x","binary":true}`}, {OpHello, `{"name":""}`},
		{OpHello, `{"name":1}`}, {OpHello, `{"binary":true}`}, {OpHello, `{"name":"x","binary":1}`},
		{OpHello, `{"name":"x","wire":""}`}, {OpHello, `{"error":"x"}`}, {OpHello, `{"error":"x","name":"y"}`},
		{OpHello, `{}`}, {OpHello, `[]`}, {OpHello, `"x"`}, {OpHello, `null`},
		{OpHello, `{"name":"x","lacks":[]}`}, {OpHello, `{"name":"x","lacks":["never-index","pseudo-first","one-size-update","empty-block","uppercase-names"]}`},
		{OpHello, `{"name":"x","lacks":["never-index","never-index"]}`}, {OpHello, `{"name":"x","lacks":["sensitive"]}`},
		{OpHello, `{"name":"x","lacks":"never-index"}`}, {OpHello, `{"name":"x","lacks":[1]}`}, {OpHello, `{"error":"x","lacks":[]}`},
		{OpHello, `{"name":"x","refuses":[]}`}, {OpHello, `{"name":"x","refuses":[[0,31],[127,127],[128,255]]}`},
		{OpHello, `{"name":"x","refuses":[0,31]}`}, {OpHello, `{"name":"x","refuses":[[0]]}`}, {OpHello, `{"name":"x","refuses":[[0,31,1]]}`},
		{OpHello, `{"name":"x","refuses":[[0,256]]}`}, {OpHello, `{"name":"x","refuses":[[-1,3]]}`}, {OpHello, `{"name":"x","refuses":[[0,1.5]]}`},
		{OpHello, `{"name":"x","refuses":[["0","1"]]}`}, {OpHello, `{"name":"x","refuses":{}}`},
		{OpNew, `{}`}, {OpNew, `{"error":"x"}`}, {OpNew, `{"error":""}`}, {OpNew, `{"error":null}`},
		{OpNew, `{"name":"x"}`}, {OpNew, `{"x":1}`}, {OpNew, `[{}]`}, {OpNew, `{"error":"x","wire":""}`},
		{OpEncode, `{"wire":""}`}, {OpEncode, `{"wire":"82"}`}, {OpEncode, `{"wire":"8"}`}, {OpEncode, `{"wire":"8x"}`},
		{OpEncode, `{"wire":" 82"}`}, {OpEncode, `{"wire":82}`}, {OpEncode, `{"wire":"82","hex":true}`},
		{OpEncode, `{"unsupported":"why"}`}, {OpEncode, `{"unsupported":""}`}, {OpEncode, `{"unsupported":true}`},
		{OpEncode, `{"wire":"82","unsupported":"why"}`}, {OpEncode, `{"wire":"82","error":"x"}`},
		{OpEncode, `{"error":"x"}`}, {OpEncode, `{"error":[]}`}, {OpEncode, `{}`}, {OpEncode, `{"name":"x"}`},
	}
	for _, tt := range tests {
		_, err := parseAnswer(tt.op, []byte(tt.line), DefaultMaxWire)
		schemaErr := sch.Validate(stdioschema.AnswerDef(tt.op), tt.line)
		if (err == nil) != (schemaErr == nil) {
			t.Errorf("the answer %s to %s: parseAnswer error %v, schema error %v; want both or neither", tt.line, tt.op, err, schemaErr)
		}
	}
	// The one disagreement, on purpose.
	line := `{"name":"x","speed":[]}`
	if _, err := parseAnswer(OpHello, []byte(line), DefaultMaxWire); err != nil || sch.Validate("helloAnswer", line) == nil {
		t.Errorf("the answer %s to hello: parseAnswer error %v; want it accepted, and refused by the schema", line, err)
	}
}
