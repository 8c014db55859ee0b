package live

import (
	"context"
	"testing"

	"github.com/hpackcert/hpackcert/internal/proc"
)

func TestGroupPeakMemory(t *testing.T) {
	if _, ok := groupPeakMemory(0); ok {
		t.Error("groupPeakMemory(0) is known")
	}
	g := proc.Command(context.Background(), 0, "sleep", "30")
	if err := g.Start(); err != nil {
		t.Fatalf("starting sleep: %v", err)
	}
	defer func() {
		g.Kill()
		g.Wait()
	}()
	peak, ok := groupPeakMemory(g.Cmd.Process.Pid)
	if !ok || peak <= 0 {
		t.Errorf("groupPeakMemory of a running sleep = %d, %v; want > 0, true", peak, ok)
	}
}
