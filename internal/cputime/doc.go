// Package cputime measures the process's CPU time for benchmarks that
// compare two costs in the same run: CPU time is disturbed far less than
// wall time by other processes on a shared machine.
package cputime
