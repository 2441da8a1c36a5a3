// Command polynfi judges code changes made by coding agents on correctness,
// localization and non-functional quality. See README.md.
//
// POLYNFI_CPUPROFILE=FILE writes a pprof CPU profile of the whole run to
// FILE (go tool pprof bin/polynfi FILE), for measuring where a command's
// time goes (issue 29: `POLYNFI_CPUPROFILE=cpu.prof polynfi score ...`).
// POLYNFI_MEMPROFILE=FILE writes a pprof allocation profile ("allocs")
// at the end of the run, every allocation from main on sampled
// (runtime.MemProfileRate 1; slower; GODEBUG=memprofilerate=1 takes the
// package initialisation in too): `go tool pprof FILE` shows where the
// bytes the garbage collector had to clear were allocated.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/polynfi/polynfi/internal/cli"
	"github.com/polynfi/polynfi/internal/initgc"
)

func main() {
	memProfile := os.Getenv("POLYNFI_MEMPROFILE")
	if memProfile != "" {
		runtime.MemProfileRate = 1
	}
	initgc.Resume()
	stopProfile := startProfile(os.Getenv("POLYNFI_CPUPROFILE"))
	ctx, stop := cli.InterruptContext(os.Stderr)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	stopProfile()
	writeHeapProfile(memProfile)
	os.Exit(code)
}

// writeHeapProfile writes the heap profile (allocations since the start)
// to path (nothing when path is empty); a failure is reported, never a
// reason to fail the command.
func writeHeapProfile(path string) {
	if path == "" {
		return
	}
	// the profile holds what the last completed collection published
	runtime.GC()
	f, err := os.Create(path)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "polynfi: POLYNFI_MEMPROFILE: %v\n", err)
	}
}

// startProfile starts a CPU profile written to path (nothing when path is
// empty) and returns what stops it; a profile that cannot be created is
// reported and skipped, never a reason to fail the command.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "polynfi: POLYNFI_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "polynfi: POLYNFI_CPUPROFILE: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
