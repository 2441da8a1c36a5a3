// Package initgc pauses the garbage collector while the program's packages
// initialize, and Resume restores it.
//
// The binary links client libraries (Kubernetes, Docker, ...) whose package
// initialization allocates some 10 MB (scheme registrations, compiled
// regular expressions), most of it live for the whole run: collecting
// during it, at the runtime's 4 MB initial heap goal, cost some 3 ms of
// the ~22 ms start-up of every command (issue 29; `GOGC=off polynfi
// --version` against the default). The package has no imports but
// runtime/debug, so that it is initialized before the libraries are (Go
// initializes packages in import-path order as their imports allow).
package initgc

import "runtime/debug"

// old is the GC percent in force before init (GOGC; -1: off).
var old = debug.SetGCPercent(-1)

// Resume restores the GC percent in force before the program started
// (GOGC). Call it once, first thing in main; later calls do nothing.
func Resume() {
	if old != -2 {
		debug.SetGCPercent(old)
		old = -2
	}
}
