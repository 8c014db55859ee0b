package livegrade

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseTransform(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Transform
		// wantErr is part of the error, naming the bad word; "" for none.
		wantErr string
	}{
		{in: "", want: Transform{}},
		{in: "drop=Keep-Alive, x-pad;add=date;replace=server,via", want: Transform{Drop: []string{"keep-alive", "x-pad"}, Add: []string{"date"}, Replace: []string{"server", "via"}}},
		{in: " replace = server ; ", want: Transform{Replace: []string{"server"}}},
		{in: "set=accept-ranges,age;drop-empty", want: Transform{Replace: []string{"accept-ranges", "age"}, DropEmpty: true}},
		{in: "DROP-EMPTY; add=:status", want: Transform{Add: []string{":status"}, DropEmpty: true}},
		{in: "drop=a;drop=b", wantErr: `"drop=b": drop given twice`},
		{in: "set=a;replace=b", wantErr: `"replace=b": set given twice`},
		{in: "remove=a", wantErr: `unknown key "remove"`},
		{in: "dropempty", wantErr: `unknown key "dropempty"`},
		{in: "drop", wantErr: `"drop": drop needs names`},
		{in: "drop-empty=x", wantErr: `"drop-empty=x": drop-empty takes no names`},
		{in: "add= , ", wantErr: `"add= ," names no field`},
		{in: "set=date,x pad", wantErr: `"x pad" is not a field name`},
		{in: "set=:", wantErr: `":" is not a field name`},
	} {
		got, err := ParseTransform(tc.in)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("ParseTransform(%q): %v; want %+v", tc.in, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("ParseTransform(%q) = %+v, %v; want an error with %q", tc.in, got, err, tc.wantErr)
		case tc.wantErr == "" && !reflect.DeepEqual(got, tc.want):
			t.Errorf("ParseTransform(%q) = %+v; want %+v", tc.in, got, tc.want)
		}
	}
}

// TestTransformNone checks that a transformation of drop-empty alone
// declares something, and Why alone nothing.
func TestTransformNone(t *testing.T) {
	for _, tc := range []struct {
		in   Transform
		want bool
	}{
		{Transform{}, true},
		{Transform{Why: "nothing done"}, true},
		{Transform{DropEmpty: true}, false},
		{Transform{Replace: []string{"age"}}, false},
	} {
		if got := tc.in.None(); got != tc.want {
			t.Errorf("%+v.None() = %v; want %v", tc.in, got, tc.want)
		}
	}
}

func TestTransformString(t *testing.T) {
	for _, tc := range []struct {
		in   Transform
		want string
	}{
		{Transform{}, "relays header lists unchanged"},
		{Transform{Drop: []string{"x-pad"}, Replace: []string{"date", "server"}, Why: "nginx"}, "drops x-pad; replaces date, server (nginx)"},
		{Transform{Add: []string{"date"}}, "adds date"},
	} {
		if got := tc.in.String(); got != tc.want {
			t.Errorf("%+v.String() = %q; want %q", tc.in, got, tc.want)
		}
	}
}
