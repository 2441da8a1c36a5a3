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
// at GOGC=100 and its peak memory does not grow. An explicit GOGC (or
// GOGC=off) is left as it is.
package initgc

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
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
	if _, set := os.LookupEnv("GOGC"); set || old != 100 {
		debug.SetGCPercent(old)
		old = -2
		return
	}
	old = -2
	// Before the first collection the goal is the runtime's 4 MB minimum
	// scaled by the percent: 1,600% puts it at Floor.
	debug.SetGCPercent(percentFor(0))
	arm()
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

// sentinel is allocated unreachable; its cleanup runs after the collection
// that finds it so, sets the percent for the next cycle and arms a new one.
type sentinel struct{ _ *byte }

var liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

func arm() {
	s := new(sentinel)
	runtime.AddCleanup(s, func(struct{}) { tune() }, struct{}{})
}

func tune() {
	metrics.Read(liveSample)
	if liveSample[0].Value.Kind() == metrics.KindUint64 {
		debug.SetGCPercent(percentFor(liveSample[0].Value.Uint64()))
	}
	arm()
}
