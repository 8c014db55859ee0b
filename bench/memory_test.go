package bench

import (
	"testing"

	"github.com/hpackcert/hpackcert/internal/testenv"
)

// TestMeasureMemory runs MeasureMemory on a few connections of every case
// and checks what the memory table rests on: every case holds memory once
// it has encoded, and ours holds no more after 100 blocks than before the
// first (it allocates everything it uses when it is created, or when its
// table size is raised).
func TestMeasureMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes heap sizes")
	}
	w, err := Stories(testenv.TestCaseDir(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, mc := range MemoryCases() {
		points, err := MeasureMemory(w, mc, 8, []int{0, 100})
		if err != nil {
			t.Fatalf("%v: %v", mc, err)
		}
		idle, used := points[0].BytesPerConn, points[1].BytesPerConn
		if used <= 0 {
			t.Errorf("%v: %.0f bytes per connection after 100 blocks; want more than 0", mc, used)
		}
		// A few bytes per connection of slack for the runtime's own
		// bookkeeping between the two measures.
		if mc.Impl == "ours" && (used > idle+64 || idle <= 0) {
			t.Errorf("%v: %.0f bytes per connection idle, %.0f after 100 blocks; want the same, more than 0", mc, idle, used)
		}
	}
}
