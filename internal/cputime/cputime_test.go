package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessAdvances burns some CPU and checks that Process counts it (on
// platforms where it measures anything).
func TestProcessAdvances(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("not measured on this platform")
	}
	start := Process()
	deadline := time.Now().Add(50 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	if d := Process() - start; d <= 0 {
		t.Errorf("CPU time advanced by %v over a 50 ms busy loop (%d turns)", d, x)
	}
}
