//go:build !unix

package catalog

import "time"

// processCPU is not measured on this platform; the CPU-time ratios of the
// benchmarks are then NaN and only their wall-time ratios are meaningful.
func processCPU() time.Duration { return 0 }
