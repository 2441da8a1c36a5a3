//go:build unix

package logic_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system, all threads) the process
// has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
