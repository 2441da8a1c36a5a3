package kube

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/runtime"
)

// BenchmarkKubernetesThroughput runs POLYNFI_K8S_BENCH_RUNS (default 100)
// instance runs on the local cluster at each of 1, 4, 16 and 64 workers
// (POLYNFI_K8S_BENCH_WORKERS overrides, comma-separated). One instance run
// is what the harness does per instance: start a pod, copy in a patch and a
// test script, run the tests (about 0.3 s of CPU: sha256 of 128 MiB), copy
// out a JUnit report, delete the pod. Reported per worker count:
// instances/min, pod start latency (creation to running container) median
// and max, the driver's CPU seconds (user+sys, getrusage) and its peak RSS
// (VmHWM, reset before each worker count via /proc/self/clear_refs) and
// peak live Go heap, and the machine's 1-minute load average at the row's
// start, its maximum during the row and at its end (sampled each second).
//
//	POLYNFI_K8S_BENCH=1 go test ./runtime -run '^$' -bench KubernetesThroughput -benchtime 1x -timeout 60m
func BenchmarkKubernetesThroughput(b *testing.B) {
	if os.Getenv("POLYNFI_K8S_BENCH") == "" {
		b.Skip("set POLYNFI_K8S_BENCH=1 (about 400 pod runs on the local cluster)")
	}
	runs := 100
	if s := os.Getenv("POLYNFI_K8S_BENCH_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	workers := []int{1, 4, 16, 64}
	if s := os.Getenv("POLYNFI_K8S_BENCH_WORKERS"); s != "" {
		workers = nil
		for _, f := range strings.Split(s, ",") {
			n, _ := strconv.Atoi(f)
			workers = append(workers, n)
		}
	}
	kc := os.Getenv("POLYNFI_K8S_KUBECONFIG")
	if kc == "" {
		kc = "/var/lib/polynfi-k8s/admin.kubeconfig"
	}
	if _, err := os.Stat(kc); err != nil {
		b.Skipf("no local cluster: %v", err)
	}
	patch := []byte(strings.Repeat("+ a line of a model patch\n", 400)) // ~10 KB
	script := []byte(`#!/bin/sh
dd if=/dev/zero bs=1M count=128 2>/dev/null | sha256sum > /tmp/sum
mkdir -p reports
printf '<testsuite tests="1"><testcase name="t" classname="c"/></testsuite>\n' > reports/junit.xml
`)
	for _, w := range workers {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				runID := fmt.Sprintf("bench-w%d-%d", w, time.Now().UnixNano()%1e9)
				k, err := NewKubernetes(context.Background(), KubernetesOptions{Kubeconfig: kc, RunID: runID, Owner: "bench",
					QPS: 100, Burst: 200, Resources: map[string]PodResources{"": {CPURequest: "10m", MemoryRequest: "16Mi", CPULimit: "1", MemoryLimit: "256Mi"}}})
				if err != nil {
					b.Fatal(err)
				}
				if err := k.Prepare(context.Background()); err != nil {
					b.Fatal(err)
				}
				// Go returns freed heap to the OS lazily: start each row from a
				// collected heap, then reset the peak RSS to the current RSS.
				debug.FreeOSMemory()
				if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
					b.Logf("peak RSS not reset before this row (%v): it is the process's peak so far", err)
				}
				mon := startBenchMonitor()
				var ru0 syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
				var mu sync.Mutex
				var starts []time.Duration
				var failures []string
				jobs := make(chan int)
				var wg sync.WaitGroup
				t0 := time.Now()
				for j := 0; j < w; j++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for n := range jobs {
							lat, err := benchInstance(k, n, patch, script)
							mu.Lock()
							if err != nil {
								failures = append(failures, err.Error())
							} else {
								starts = append(starts, lat)
							}
							mu.Unlock()
						}
					}()
				}
				for n := 0; n < runs; n++ {
					jobs <- n
				}
				close(jobs)
				wg.Wait()
				el := time.Since(t0)
				var ru1 syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
				load := mon.stop()
				peakRSS := vmHWM()
				_, _ = k.Cleanup(context.Background(), runID)
				k.Close()
				if len(failures) > 0 {
					b.Errorf("%d of %d instance runs failed; first: %s", len(failures), runs, failures[0])
				}
				sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
				cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
				b.ReportMetric(float64(runs)/el.Minutes(), "instances/min")
				if len(starts) > 0 {
					b.ReportMetric(starts[len(starts)/2].Seconds(), "start-p50-s")
					b.ReportMetric(starts[len(starts)-1].Seconds(), "start-max-s")
				}
				b.ReportMetric(cpu.Seconds(), "driver-cpu-s")
				b.ReportMetric(cpu.Seconds()*1000/float64(runs), "driver-cpu-ms/instance")
				b.ReportMetric(float64(peakRSS)/1024, "driver-peak-rss-MiB")
				b.ReportMetric(float64(load.peakHeap)/(1<<20), "driver-peak-heap-MiB")
				b.ReportMetric(load.start, "load1-start")
				b.ReportMetric(load.max, "load1-max")
				b.ReportMetric(load.end, "load1-end")
				p50, pmax := 0.0, 0.0
				if len(starts) > 0 {
					p50, pmax = starts[len(starts)/2].Seconds(), starts[len(starts)-1].Seconds()
				}
				b.Logf("workers=%d: %d runs in %s, %.1f instances/min, pod start p50 %.1f s max %.1f s, driver CPU %.2f s (%.0f ms/instance), peak RSS %.1f MiB, peak heap %.1f MiB, load average (1 min) %.1f at start, %.1f max, %.1f at end",
					w, runs, el.Round(time.Second), float64(runs)/el.Minutes(), p50, pmax, cpu.Seconds(), cpu.Seconds()*1000/float64(runs),
					float64(peakRSS)/1024, float64(load.peakHeap)/(1<<20), load.start, load.max, load.end)
			}
		})
	}
}

// benchInstance is one instance run; it returns the pod start latency.
func benchInstance(k *Kubernetes, n int, patch, script []byte) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	sb, err := k.Start(ctx, runtime.Spec{Name: fmt.Sprintf("bench-%d", n), Image: k8sTestImage, Workdir: "/work"})
	if err != nil {
		return 0, err
	}
	defer sb.Remove(context.Background())
	if err := sb.CopyIn(ctx, "", []runtime.File{{Path: "model.patch", Data: patch}, {Path: "run_tests.sh", Mode: 0o755, Data: script}}); err != nil {
		return 0, err
	}
	res, err := sb.Exec(ctx, runtime.Command{Args: []string{"./run_tests.sh"}, Timeout: 5 * time.Minute})
	if err != nil {
		return 0, err
	}
	if res.ExitCode != 0 {
		return 0, fmt.Errorf("tests exit %d: %s", res.ExitCode, res.Stderr)
	}
	out, err := sb.CopyOut(ctx, "reports", 0)
	if err != nil || len(out) != 1 {
		return 0, fmt.Errorf("copy out the report: %v (%d files)", err, len(out))
	}
	return StartLatency(sb), nil
}

// benchMonitor samples the machine's 1-minute load average
// (/proc/loadavg) and the driver's live Go heap (runtime/metrics
// /memory/classes/heap/objects:bytes) once a second during one row.
type benchMonitor struct {
	done chan struct{}
	res  chan benchLoad
}

type benchLoad struct {
	start, max, end float64
	peakHeap        uint64
}

func startBenchMonitor() *benchMonitor {
	m := &benchMonitor{done: make(chan struct{}), res: make(chan benchLoad, 1)}
	go func() {
		l := benchLoad{start: loadAvg1()}
		l.max = l.start
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > l.peakHeap {
				l.peakHeap = sample[0].Value.Uint64()
			}
			if v := loadAvg1(); v > l.max {
				l.max = v
			}
			select {
			case <-m.done:
				l.end = loadAvg1()
				m.res <- l
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

func (m *benchMonitor) stop() benchLoad {
	close(m.done)
	return <-m.res
}

// loadAvg1 is the machine's 1-minute load average (0 if unknown).
func loadAvg1() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// vmHWM is this process's peak resident set size in KiB (0 if unknown).
func vmHWM() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
