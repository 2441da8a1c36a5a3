// Package initgc pauses the garbage collector while the program's packages
// initialize, and Resume restores it with a floor under the heap goal.
//
// The binary links client libraries (Kubernetes, Docker, ...) whose package
// initialization allocates some 10 MB (scheme registrations, compiled
// regular expressions), most of it live for the whole run: collecting
// during it, at the runtime's 4 MB initial heap goal, cost some 3 ms of
// the ~22 ms start-up of every command (issue 29; `GOGC=off polynfi
// --version` against the default). The package imports only the standard
// library, so that it is initialized before the libraries are (Go
// initializes packages in import-path order as their imports allow).
//
// The heap floor: scoring reads one file at a time and drops its tree
// after, so the live heap stays at a few MB while the program allocates
// gigabytes; at GOGC=100 the runtime collects every time the heap doubles
// that small live set, and the collections cost some 10% of scoring CPU
// on a site-packages directory (issue 29). With GOGC unset, Resume keeps
// the heap goal at no less than Floor bytes: after each collection the GC
// percent becomes the one whose goal is max(2 × live heap, Floor), so a
// run whose live heap passes Floor/2 (one 50 MB file) collects exactly as
// at GOGC=100 and its peak memory does not grow. An explicit GOGC or
// GOMEMLIMIT is left as it is.
package initgc

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Floor is the least heap goal, in bytes, Resume keeps when GOGC is unset.
const Floor = 64 << 20

// old is the GC percent in force before init (GOGC; -1: off).
var old = debug.SetGCPercent(-1)

// Resume restores the GC percent in force before the program started
// (GOGC) or, with GOGC unset, GOGC=100 with the heap goal held at Floor
// or above. Call it once, first thing in main; later calls do nothing.
func Resume() {
	if old == -2 {
		return
	}
	_, gogc := os.LookupEnv("GOGC")
	_, limit := os.LookupEnv("GOMEMLIMIT")
	if gogc || limit || old != 100 {
		debug.SetGCPercent(old)
		old = -2
		return
	}
	old = -2
	// Before the first collection the goal is the runtime's 4 MB minimum
	// scaled by the percent: 1,600% puts it at Floor.
	state.Lock()
	setPercent(percentFor(0))
	state.Unlock()
	go tune()
}

// percentFor is the GC percent whose heap goal, live × (1 + percent/100)
// or the runtime's minimum 4 MB × percent/100 if larger, is
// max(2 × live, Floor); live is the heap marked live by the last
// collection, in bytes (0: none yet). Range 100-1,600.
func percentFor(live uint64) int {
	const minGoal = 4 << 20 // the runtime's heapMinimum at GOGC=100
	switch {
	case live*2 >= Floor:
		return 100
	case live < minGoal:
		// The runtime's minimum goal, minGoal × percent/100, governs.
		return Floor * 100 / minGoal
	default:
		// Rounded up: the goal is not below Floor.
		return max(int((Floor*100+live-1)/live)-100, 100)
	}
}

// tune follows the collections and sets the percent for the next cycle
// from the live heap each one marked. It polls (every pollEvery) instead
// of hanging on a finalizer or cleanup: those run only once the sweeper
// reaches their object, which a program allocating as fast as a parse does
// can leave for hundreds of MB, long enough for a goal set for a small
// heap (1,600%) to apply to a large one (a 50 MB file's peak grew by
// 86 MB that way). With one P the poll waits for the running goroutine's
// time slice (10 ms) at the most.
func tune() {
	samples := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	var cycles uint64
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	for range t.C {
		metrics.Read(samples)
		if samples[0].Value.Kind() != metrics.KindUint64 || samples[1].Value.Kind() != metrics.KindUint64 {
			return // a runtime without these metrics: the percent stays as set
		}
		if c := samples[0].Value.Uint64(); c != cycles {
			cycles = c
			p := percentFor(samples[1].Value.Uint64())
			state.Lock()
			if state.holds == 0 && p != state.pct {
				setPercent(p)
			}
			state.Unlock()
		}
	}
}

// state is the percent the floor last set (pct; 0 without the floor) and
// the Holds in force (holds, and the percent before the first: held).
var state struct {
	sync.Mutex
	pct, holds, held int
}

// setPercent sets the GC percent p and, while p holds the floor (above
// 100), a memory limit of Guard: the heap cannot outgrow a floor set for a
// small live heap before tune sees the collection that says it is large
// (one append that doubles a large slice adds its size at once). At 100
// the limit is lifted. The caller holds state.
func setPercent(p int) {
	if p > 100 {
		debug.SetMemoryLimit(Guard)
	} else {
		debug.SetMemoryLimit(math.MaxInt64)
	}
	debug.SetGCPercent(p)
	state.pct = p
}

// Hold sets the GC percent to p (a lower one in force, from GOGC, is
// kept) until the returned release is called for the last of the Holds in
// force, and the floor stays out of the way meanwhile (its memory limit
// lifted, its percent not set). The last release puts back the percent in
// force before the first Hold (with the floor: GOGC=100 while it collects
// and returns the freed pages to the system, debug.FreeOSMemory, then the
// floor's percent for the live heap that collection leaves, as tune would
// set it at its next poll; set here, the result does not depend on when
// the poll runs). Safe for concurrent use; nfi holds a low
// percent while it scores a large file.
func Hold(p int) (release func()) {
	state.Lock()
	if state.holds == 0 {
		state.held = debug.SetGCPercent(p)
		if state.pct > 0 {
			debug.SetMemoryLimit(math.MaxInt64)
		} else if state.held >= 0 && state.held < p {
			debug.SetGCPercent(state.held)
		}
	}
	state.holds++
	state.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			state.Lock()
			state.holds--
			last := state.holds == 0
			if last {
				if state.pct > 0 {
					setPercent(100)
				} else {
					debug.SetGCPercent(state.held)
				}
			}
			state.Unlock()
			if last {
				debug.FreeOSMemory()
				state.Lock()
				if state.holds == 0 && state.pct > 0 {
					if live, ok := liveHeap(); ok {
						setPercent(percentFor(live))
					}
				}
				state.Unlock()
			}
		})
	}
}

// Guard is the memory limit, in bytes, while the floor holds: twice Floor.
const Guard = 2 * Floor

// liveHeap returns the heap's live bytes at the end of the last
// collection (runtime/metrics /gc/heap/live:bytes), false when the runtime
// does not report them.
func liveHeap() (uint64, bool) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return s[0].Value.Uint64(), true
}

// pollEvery is how often tune looks for a finished collection.
const pollEvery = 2 * time.Millisecond
