package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// builtBinary is the polynfi binary the benchmarks run: POLYNFI_BIN when
// set (make bench sets it to the absolute path of the binary `make build`
// made, so that the size reported is the shipped one's; a relative path is
// taken from cmd/polynfi, where go test runs), else one `go build -ldflags '-s -w'`
// (make build's default STRIP) of this package into a temporary directory
// per test process.
var builtBinary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("POLYNFI_BIN"); bin != "" {
		return filepath.Abs(bin)
	}
	dir, err := os.MkdirTemp("", "polynfi-bench-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "polynfi")
	cmd := exec.Command("go", "build", "-ldflags", "-s -w", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &buildError{err: err, out: out}
	}
	return bin, nil
})

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + string(e.out) }

// BenchmarkStartup measures the binary as a user meets it, one exec per
// op: "version" runs `polynfi --version` (process start, package
// initialisation, flag parsing), "score" runs `polynfi score --isolated`
// on a one-line Python file (plus the rule catalog, the parser and one
// file scored). ns/op is the wall time of the whole process, cpu-ns/op
// its user+system CPU time (the figure to compare on a loaded machine);
// binary-MB is the binary's size on disk in 10^6 bytes.
func BenchmarkStartup(b *testing.B) {
	bin, err := builtBinary()
	if err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(bin)
	if err != nil {
		b.Fatal(err)
	}
	py := filepath.Join(b.TempDir(), "one.py")
	if err := os.WriteFile(py, []byte("x = 1\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"version", []string{"--version"}},
		{"score", []string{"score", "--isolated", py}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, c.args...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("polynfi %v: %v\n%s", c.args, err, out)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(st.Size())/1e6, "binary-MB")
		})
	}
}
