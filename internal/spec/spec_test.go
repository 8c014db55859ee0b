package spec

import "testing"

func TestHeaderFieldSize(t *testing.T) {
	tests := []struct {
		label string
		field HeaderField
		want  uint32
	}{
		{"empty name and value are the overhead alone", HeaderField{}, 32},
		{"RFC 7541 C.2.1 custom-key: custom-header", HeaderField{"custom-key", "custom-header"}, 55},
		{"RFC 7541 C.3.1 :authority: www.example.com", HeaderField{":authority", "www.example.com"}, 57},
		{"octets, not runes, are counted", HeaderField{"é", "ü"}, 36},
	}
	for _, tt := range tests {
		if got := tt.field.Size(); got != tt.want {
			t.Errorf("%s: Size() = %d; want %d", tt.label, got, tt.want)
		}
	}
}
