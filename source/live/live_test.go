package live

import (
	"reflect"
	"testing"
)

func TestParseTransform(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Transform
		wantErr bool
	}{
		{in: "", want: Transform{}},
		{in: "drop=Keep-Alive, x-pad;add=date;replace=server,via", want: Transform{Drop: []string{"keep-alive", "x-pad"}, Add: []string{"date"}, Replace: []string{"server", "via"}}},
		{in: " replace = server ; ", want: Transform{Replace: []string{"server"}}},
		{in: "drop=a;drop=b", wantErr: true},
		{in: "remove=a", wantErr: true},
		{in: "drop", wantErr: true},
	} {
		got, err := ParseTransform(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseTransform(%q) error = %v; want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if !tc.wantErr && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseTransform(%q) = %+v; want %+v", tc.in, got, tc.want)
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
