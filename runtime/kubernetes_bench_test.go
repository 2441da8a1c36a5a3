package runtime

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkKubernetesThroughput runs POLYNFI_K8S_BENCH_RUNS (default 100)
// instance runs on the local cluster at each of 1, 4, 16 and 64 workers
// (POLYNFI_K8S_BENCH_WORKERS overrides, comma-separated). One instance run
// is what the harness does per instance: start a pod, copy in a patch and a
// test script, run the tests (about 0.3 s of CPU: sha256 of 128 MiB), copy
// out a JUnit report, delete the pod. Reported per worker count:
// instances/min, pod start latency (creation to running container) median
// and max, the driver's CPU seconds (user+sys, getrusage) and its peak RSS
// (VmHWM, reset before each worker count via /proc/self/clear_refs).
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
				_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
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
				b.ReportMetric(float64(vmHWM())/1024, "driver-peak-rss-MiB")
			}
		})
	}
}

// benchInstance is one instance run; it returns the pod start latency.
func benchInstance(k *Kubernetes, n int, patch, script []byte) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	sb, err := k.Start(ctx, Spec{Name: fmt.Sprintf("bench-%d", n), Image: k8sTestImage, Workdir: "/work"})
	if err != nil {
		return 0, err
	}
	defer sb.Remove(context.Background())
	if err := sb.CopyIn(ctx, "", []File{{Path: "model.patch", Data: patch}, {Path: "run_tests.sh", Mode: 0o755, Data: script}}); err != nil {
		return 0, err
	}
	res, err := sb.Exec(ctx, Command{Args: []string{"./run_tests.sh"}, Timeout: 5 * time.Minute})
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
