package initgc

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
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
// about 512 MB / Floor, its heap goal at least Floor; with GOGC=100 the
// goal is a few MB (the count alone varies with the load on the machine).
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
		gcs := ms.NumGC - before
		// the heap goal after a collection of the small live set: what the
		// pacer aims at, whatever the load on the machine (a starved mark
		// worker lets the heap overshoot and merges collections)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		fmt.Printf("gcs %d percent %d goal %d\n", gcs, debug.SetGCPercent(100), ms.NextGC)
		return
	}
	count := func(env ...string) (int, int, uint64) {
		f := childLine(t, "TestFloorCollections", "INITGC_CHILD", "gcs", 6, env...)
		n, _ := strconv.Atoi(f[1])
		p, _ := strconv.Atoi(f[3])
		g, _ := strconv.ParseUint(f[5], 10, 64)
		return n, p, g
	}
	floor, fp, fg := count()
	std, sp, sg := count("GOGC=100")
	t.Logf("512 MB of garbage: %d collections with the floor (percent %d, goal %d MB), %d at GOGC=100 (percent %d, goal %d MB)", floor, fp, fg>>20, std, sp, sg>>20)
	if floor > 12 || sp != 100 || fp < 100 || fg < Floor || sg >= Floor/4 {
		t.Errorf("collections: %d with the floor (percent %d, goal %d MB), %d at GOGC=100 (percent %d, goal %d MB)", floor, fp, fg>>20, std, sp, sg>>20)
	}
}

// TestHold: a Hold sets its percent and lifts the floor's memory limit
// until the last release, which puts back the floor's percent (and its
// guard) or the GOGC in force; a lower GOGC is kept; a second call of a release does nothing.
func TestHold(t *testing.T) {
	if os.Getenv("INITGC_HOLD_CHILD") == "1" {
		Resume()
		cur := func() (int, int64) {
			p := debug.SetGCPercent(-1)
			debug.SetGCPercent(p)
			return p, debug.SetMemoryLimit(-1)
		}
		p0, l0 := cur()
		r1, r2 := Hold(10), Hold(10)
		p1, l1 := cur()
		r1()
		p2, _ := cur()
		r2()
		r2()
		p3, l3 := cur()
		fmt.Printf("hold %d %d %d %d %d %d %d\n", p0, l0, p1, l1, p2, p3, l3)
		return
	}
	run := func(env ...string) []int64 {
		var v []int64
		for _, x := range childLine(t, "TestHold", "INITGC_HOLD_CHILD", "hold", 8, env...)[1:] {
			n, _ := strconv.ParseInt(x, 10, 64)
			v = append(v, n)
		}
		return v
	}
	const none = math.MaxInt64
	for _, c := range []struct {
		env  []string
		want []int64 // percent, limit before; percent, limit held; percent after one release; percent, limit after both
	}{
		{nil, []int64{1600, Guard, 10, none, 10, 1600, Guard}},
		{[]string{"GOGC=50"}, []int64{50, none, 10, none, 10, 50, none}},
		{[]string{"GOGC=5"}, []int64{5, none, 5, none, 5, 5, none}},
	} {
		if got := run(c.env...); !slices.Equal(got, c.want) {
			t.Errorf("%v: got %v, want %v", c.env, got, c.want)
		}
	}
}

// childLine runs test in a child process of this test binary with
// childVar=1, GOGC and GOMEMLIMIT removed from the environment and env
// added, and returns the fields of the first line of its output that has
// n fields, the first being marker.
func childLine(t *testing.T, test, childVar, marker string, n int, env ...string) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^"+test+"$")
	cmd.Env = []string{childVar + "=1"}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GOGC=") && !strings.HasPrefix(e, "GOMEMLIMIT=") {
			cmd.Env = append(cmd.Env, e)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) == n && f[0] == marker {
			return f
		}
	}
	t.Fatalf("child printed no %q line:\n%s", marker, out)
	return nil
}
