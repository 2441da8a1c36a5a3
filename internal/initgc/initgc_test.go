package initgc

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestPercentFor: the heap goal live × (1 + percent/100) is Floor while
// twice the live heap is below it, and GOGC=100's beyond.
func TestPercentFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1600},       // no collection yet: 4 MB × 16 = Floor
		{1 << 20, 1600}, // below 4 MB the runtime's minimum goal, 4 MB × 16
		{8 << 20, 700},  // 8 MB × 8 = 64 MB
		{16 << 20, 300}, // 16 MB × 4
		{31 << 20, 107}, // 31 MB × 2.07
		{32 << 20, 100}, // 2 × live reaches Floor
		{1 << 30, 100},  // a 50 MB file's tree: GOGC=100
	} {
		if got := percentFor(c.live); got != c.want {
			t.Errorf("percentFor(%d MB) = %d, want %d", c.live>>20, got, c.want)
		}
		if goal := c.live * uint64(100+percentFor(c.live)) / 100; c.live >= 4<<20 && goal < Floor {
			t.Errorf("live %d MB: goal %d MB below the floor", c.live>>20, goal>>20)
		}
	}
}

// TestFloorCollections allocates 512 MB of short-lived garbage (a live
// heap of a few MB, as scoring one file at a time has) in a child process
// and counts the collections: with GOGC unset the floor keeps them to
// about 512 MB / Floor; with GOGC=100 there are many more.
func TestFloorCollections(t *testing.T) {
	if os.Getenv("INITGC_CHILD") == "1" {
		Resume()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.NumGC
		var keep [][]byte
		for i := range 512 << 10 { // 1 kB at a time
			b := make([]byte, 1024)
			if i%4096 == 0 {
				keep = append(keep[len(keep)/2:], b) // a small, moving live set
			}
		}
		runtime.KeepAlive(keep)
		runtime.ReadMemStats(&ms)
		fmt.Printf("gcs %d percent %d\n", ms.NumGC-before, debug.SetGCPercent(100))
		return
	}
	count := func(env ...string) (int, int) {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestFloorCollections$")
		cmd.Env = []string{"INITGC_CHILD=1"}
		for _, e := range os.Environ() {
			if !strings.HasPrefix(e, "GOGC=") {
				cmd.Env = append(cmd.Env, e)
			}
		}
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("child: %v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if f := strings.Fields(line); len(f) == 4 && f[0] == "gcs" {
				n, _ := strconv.Atoi(f[1])
				p, _ := strconv.Atoi(f[3])
				return n, p
			}
		}
		t.Fatalf("child printed no count:\n%s", out)
		return 0, 0
	}
	floor, fp := count()
	std, sp := count("GOGC=100")
	t.Logf("512 MB of garbage: %d collections with the floor (percent %d), %d at GOGC=100 (percent %d)", floor, fp, std, sp)
	if floor > 12 || std < 3*floor || sp != 100 || fp < 100 {
		t.Errorf("collections: %d with the floor (percent %d), %d at GOGC=100 (percent %d)", floor, fp, std, sp)
	}
}
