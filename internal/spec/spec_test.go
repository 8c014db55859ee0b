package spec

import "testing"

func TestHeaderFieldSize(t *testing.T) {
	tests := []struct {
		label string
		field Field
		want  uint32
	}{
		{"empty name and value are the overhead alone", Field{}, 32},
		{"RFC 7541 C.2.1 custom-key: custom-header", Field{Name: "custom-key", Value: "custom-header"}, 55},
		{"RFC 7541 C.3.1 :authority: www.example.com", Field{Name: ":authority", Value: "www.example.com"}, 57},
		{"octets, not runes, are counted", Field{Name: "é", Value: "ü"}, 36},
	}
	for _, tt := range tests {
		if got := tt.field.Size(); got != tt.want {
			t.Errorf("%s: Size() = %d; want %d", tt.label, got, tt.want)
		}
	}
}
