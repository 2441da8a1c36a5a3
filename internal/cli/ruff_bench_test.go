package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi/catalog"
)

// BenchmarkVsRuff runs, in the same benchmark and on the same files (every
// .py file of the machine's site-packages, given one by one as relative
// paths), two native processes on one core each:
//
//   - polynfi: `polynfi score --format json --isolated --exclude= --workers 1`
//     with all 92 rules, GOMAXPROCS=1 (the binary built from this tree);
//   - ruff: `ruff check --isolated --no-cache --exit-zero --preview
//     --output-format json --select CODES` restricted to the Ruff codes the
//     catalog's rules emulate (their Oracle.Ruff), RAYON_NUM_THREADS=1
//     (requirements-dev.txt pins the version).
//
// Both write their JSON to /dev/null. It reports each side's throughput in
// source MB per CPU second (user + system, from the kernel's accounting of
// the child: this shared machine's wall time is not comparable) and per
// wall second, peak RSS (MB), and polynfi/ruff, the ratio of their CPU times
// (the goal: ≤ 1). The two sides alternate order between iterations.
//
//	go test ./internal/cli -run '^$' -bench BenchmarkVsRuff -benchtime 1x
func BenchmarkVsRuff(b *testing.B) {
	ruff, err := exec.LookPath("ruff")
	if err != nil {
		citest.Missing(b, "ruff is not installed (make deps)")
	}
	sp := corpus.SitePackagesDir()
	if sp == "" {
		citest.Missing(b, "no python3 site-packages on this machine")
	}
	var rels []string
	var total int64
	for _, f := range corpus.PythonFiles(sp, 0) {
		st, err := os.Stat(f)
		if err != nil {
			continue
		}
		r, _ := filepath.Rel(sp, f)
		rels = append(rels, r)
		total += st.Size()
	}
	bin := filepath.Join(b.TempDir(), "polynfi")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/polynfi/polynfi/cmd/polynfi").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var codes []string
	for _, r := range catalog.Polynfi92().Rules {
		codes = append(codes, r.Oracle.Ruff...)
	}
	slices.Sort(codes)
	codes = slices.Compact(codes)
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	type usage struct {
		cpu, wall time.Duration
		peakKB    int64
	}
	run := func(name string, env []string, args ...string) usage {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Stdout = sp, devnull
		var stderr strings.Builder
		cmd.Stderr = &stderr
		cmd.Env = append(os.Environ(), env...)
		t0 := time.Now()
		err := cmd.Run()
		wall := time.Since(t0)
		if err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || name == "ruff" || ee.ExitCode() != ExitFindings {
				b.Fatalf("%s: %v\n%.2000s", name, err, stderr.String())
			}
		}
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		return usage{cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), wall: wall, peakKB: ru.Maxrss}
	}
	polynfi := func() usage {
		return run("polynfi", []string{"GOMAXPROCS=1"}, append([]string{bin, "score", "--format", "json", "--isolated", "--exclude=", "--workers", "1"}, rels...)...)
	}
	ruffRun := func() usage {
		return run("ruff", []string{"RAYON_NUM_THREADS=1"}, append([]string{ruff, "check", "--isolated", "--no-cache", "--exit-zero", "--preview",
			"--output-format", "json", "--select", strings.Join(codes, ",")}, rels...)...)
	}
	b.ResetTimer()
	var p, r usage
	for i := 0; i < b.N; i++ {
		var pu, ru usage
		if i%2 == 0 {
			pu, ru = polynfi(), ruffRun()
		} else {
			ru, pu = ruffRun(), polynfi()
		}
		p.cpu, p.wall, p.peakKB = p.cpu+pu.cpu, p.wall+pu.wall, max(p.peakKB, pu.peakKB)
		r.cpu, r.wall, r.peakKB = r.cpu+ru.cpu, r.wall+ru.wall, max(r.peakKB, ru.peakKB)
	}
	mb := float64(total) * float64(b.N) / 1e6
	b.ReportMetric(float64(len(rels)), "files")
	b.ReportMetric(float64(len(codes)), "ruff-codes")
	b.ReportMetric(mb/p.cpu.Seconds(), "polynfi-cpu-MB/s")
	b.ReportMetric(mb/r.cpu.Seconds(), "ruff-cpu-MB/s")
	b.ReportMetric(mb/p.wall.Seconds(), "polynfi-wall-MB/s")
	b.ReportMetric(mb/r.wall.Seconds(), "ruff-wall-MB/s")
	b.ReportMetric(float64(p.peakKB)/1024, "polynfi-peak-MB")
	b.ReportMetric(float64(r.peakKB)/1024, "ruff-peak-MB")
	b.ReportMetric(p.cpu.Seconds()/r.cpu.Seconds(), "polynfi/ruff")
}
