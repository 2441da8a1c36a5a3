package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/runtime/kube"
)

// BenchmarkKubernetesSampleThroughput measures `polynfi eval --runtime
// kubernetes` on the local cluster with the bundled sample replicated to
// POLYNFI_K8S_BENCH_RUNS instance runs (default 104: the 8 instances 13
// times, each copy under its own instance id, all sharing the sample's
// images), gold predictions, at --workers 1, 4, 16 and 64
// (POLYNFI_K8S_BENCH_WORKERS overrides, comma-separated). Each instance
// run is what any run does: a pod from the instance's image, the
// repository and the patch copied in, the sample's real tests (Maven,
// pytest, Jest, ts-jest) run, the reports copied out, the pod deleted.
// The pods request 10m CPU and 64Mi of memory, so that the scheduler
// admits every worker's pod and the node's CPUs, not its requests, are
// the limit. Before the rows, one unmeasured run of the 8 instances
// builds and imports the images. Reported per worker count:
// instances/min (runs / wall time of the command), every run resolved,
// pod start latency (the records' sandbox.start_s: pod created to
// container running) median and max, test command time median, the most
// pods of the run at once (listed each second, terminating ones included), the driver process's CPU
// time (user+sys, its rusage at exit, children such as git included) in
// total and per instance run, its peak RSS (rusage maxrss), and the
// machine's 1-minute load average at the row's start, its maximum during
// the row and at its end.
//
//	POLYNFI_K8S_BENCH=1 go test ./internal/cli -run '^$' -bench KubernetesSampleThroughput -benchtime 1x -timeout 120m
func BenchmarkKubernetesSampleThroughput(b *testing.B) {
	if os.Getenv("POLYNFI_K8S_BENCH") == "" {
		b.Skip("set POLYNFI_K8S_BENCH=1 (about 400 instance runs of the sample on the local cluster)")
	}
	runs := 104
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
	kc, cs := testCluster(b)
	bin := buildPolynfi(b)
	sample, _ := filepath.Abs("../../examples/polybench")
	dir := b.TempDir()
	for _, d := range []string{"repos", "env"} {
		if err := os.Symlink(filepath.Join(sample, d), filepath.Join(dir, d)); err != nil {
			b.Fatal(err)
		}
	}
	f, err := os.Open(filepath.Join(sample, "dataset.csv"))
	if err != nil {
		b.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(rows[0])
	for n := 0; n < runs; n++ {
		r := slices.Clone(rows[1+n%(len(rows)-1)])
		r[0] = fmt.Sprintf("%s-r%03d", r[0], n/(len(rows)-1))
		w.Write(r)
	}
	w.Flush()
	ds := filepath.Join(dir, "dataset.csv")
	if err := os.WriteFile(ds, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	eval := func(ds, out string, workers int) (*exec.Cmd, error, string) {
		args := append(kubeEvalArgs(kc, ds, "gold", out, workers), "--pod-cpu-request", "10m", "--pod-memory-request", "64Mi")
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		return cmd, err, stderr.String()
	}
	// warm-up: the images built and imported into the node's containerd
	if _, err, stderr := eval(filepath.Join(sample, "dataset.csv"), filepath.Join(dir, "warm"), 4); err != nil {
		b.Fatalf("warm-up run: %v\n%s", err, stderr)
	}
	for _, nw := range workers {
		b.Run(fmt.Sprintf("workers=%d", nw), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				out := filepath.Join(dir, fmt.Sprintf("out-w%d-%d", nw, i))
				mon := startPodMonitor(cs, out)
				t0 := time.Now()
				cmd, err, stderr := eval(ds, out, nw)
				el := time.Since(t0)
				load := mon.stop()
				if err != nil {
					b.Fatalf("eval: %v\n%s", err, stderr)
				}
				recs := map[string]bool{}
				var starts, tests []float64
				resolved := 0
				for _, r := range kubeRecords(b, out) {
					recs[r.InstanceID] = true
					if r.Resolved {
						resolved++
					}
					if r.InfraReason != "" || r.Attempts > 1 {
						b.Errorf("%s: infra failure %q, %d attempts", r.InstanceID, r.InfraReason, r.Attempts)
					}
					if r.Sandbox != nil {
						starts = append(starts, r.Sandbox.StartS)
					}
					if r.Test != nil {
						tests = append(tests, r.Test.DurationS)
					}
				}
				if len(recs) != runs || resolved != runs {
					b.Errorf("%d records, %d resolved, want %d each\n%s", len(recs), resolved, runs, stderr)
				}
				sort.Float64s(starts)
				sort.Float64s(tests)
				ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
				cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				rss := float64(ru.Maxrss) / 1024 // KiB on Linux
				med := func(v []float64) float64 {
					if len(v) == 0 {
						return 0
					}
					return v[len(v)/2]
				}
				p50, pmax := med(starts), 0.0
				if len(starts) > 0 {
					pmax = starts[len(starts)-1]
				}
				b.ReportMetric(float64(runs)/el.Minutes(), "instances/min")
				b.ReportMetric(p50, "start-p50-s")
				b.ReportMetric(pmax, "start-max-s")
				b.ReportMetric(med(tests), "test-p50-s")
				b.ReportMetric(float64(load.maxPods), "pods-max")
				b.ReportMetric(cpu.Seconds(), "driver-cpu-s")
				b.ReportMetric(cpu.Seconds()*1000/float64(runs), "driver-cpu-ms/instance")
				b.ReportMetric(rss, "driver-peak-rss-MiB")
				b.ReportMetric(load.start, "load1-start")
				b.ReportMetric(load.max, "load1-max")
				b.ReportMetric(load.end, "load1-end")
				b.Logf("workers=%d: %d runs (%d resolved) in %s, %.1f instances/min, pod start p50 %.1f s max %.1f s, test p50 %.1f s, at most %d pods at once, driver CPU %.1f s (%.0f ms/instance), peak RSS %.1f MiB, load average (1 min) %.1f at start, %.1f max, %.1f at end",
					nw, runs, resolved, el.Round(time.Second), float64(runs)/el.Minutes(), p50, pmax, med(tests), load.maxPods,
					cpu.Seconds(), cpu.Seconds()*1000/float64(runs), rss, load.start, load.max, load.end)
			}
		})
	}
}

// podMonitor samples, once a second during one row, the machine's
// 1-minute load average and the number of pods of the run writing out.
type podMonitor struct {
	done chan struct{}
	res  chan podLoad
}

type podLoad struct {
	start, max, end float64
	maxPods         int
}

func startPodMonitor(cs *kube.KubeClient, out string) *podMonitor {
	m := &podMonitor{done: make(chan struct{}), res: make(chan podLoad, 1)}
	sel := kube.RunSelector(backend.RunKey(out))
	go func() {
		l := podLoad{start: loadAvg1()}
		l.max = l.start
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if v := loadAvg1(); v > l.max {
				l.max = v
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if list, err := cs.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: sel, ResourceVersion: "0"}); err == nil && len(list.Items) > l.maxPods {
				l.maxPods = len(list.Items)
			}
			cancel()
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

func (m *podMonitor) stop() podLoad {
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
