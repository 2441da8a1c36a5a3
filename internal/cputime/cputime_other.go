//go:build !unix

package cputime

import "time"

// Process is not measured on this platform: it returns 0, so CPU-time
// ratios of benchmarks are NaN and only their wall-time ratios mean
// anything.
func Process() time.Duration { return 0 }
