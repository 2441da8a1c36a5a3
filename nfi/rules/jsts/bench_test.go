package jsts

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/nfi"
)

// BenchmarkVsESLint runs, in the same benchmark and on the same files (the
// agreement test's corpus sample, 40 files per npm package), three
// processes, each on one core, and compares their CPU time (user +
// system, from the kernel's accounting of the child; this shared
// machine's wall time is not comparable):
//
//   - polynfi: `polynfi score --format json --isolated --exclude=
//     --workers 1 --select IDS` with GOMAXPROCS=1, IDS the catalog's rules
//     that have an ESLint oracle (the binary built from this tree);
//   - ESLint 10.15.0 with the equivalent rules (typescript-eslint 8.73.0
//     parsing .ts/.tsx), as in the agreement test (node runs JavaScript on
//     one thread);
//   - oxlint 1.95.0 --threads=1 with the same rules (it has all of them),
//     their options in an .oxlintrc.json.
//
// It reports polynfi/eslint and polynfi/oxlint, the ratios of CPU times
// (the goals: ≤ 0.1 and ≤ 2), and each side's CPU seconds.
//
//	go test ./nfi/rules/jsts -run '^$' -bench BenchmarkVsESLint -benchtime 1x
func BenchmarkVsESLint(b *testing.B) {
	dir := oracleDir(b)
	files := corpusFiles(b, dir, 40, 200_000)
	var rules []*nfi.Rule
	var ids []string
	for _, r := range All {
		if len(r.Oracle.ESLint) > 0 {
			rules = append(rules, r)
			ids = append(ids, r.ID)
		}
	}
	cfg := eslintConfig(b, dir, rules)
	ox := oxlintConfig(b, rules)
	bin := filepath.Join(b.TempDir(), "polynfi")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/polynfi/polynfi/cmd/polynfi").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	run := func(name string, okExit map[int]bool, env []string, args ...string) time.Duration {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Stdout = dir, devnull
		var stderr strings.Builder
		cmd.Stderr = &stderr
		cmd.Env = append(os.Environ(), env...)
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); !ok || !okExit[ee.ExitCode()] {
				b.Fatalf("%s: %v\n%.2000s", name, err, stderr.String())
			}
		}
		_ = cmd.ProcessState.SysUsage().(*syscall.Rusage)
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	polynfi := func() time.Duration {
		return run("polynfi", map[int]bool{1: true}, []string{"GOMAXPROCS=1"},
			append([]string{bin, "score", "--format", "json", "--isolated", "--exclude=", "--workers", "1", "--select", strings.Join(ids, ",")}, files...)...)
	}
	eslint := func() time.Duration {
		return run("eslint", map[int]bool{1: true}, nil, append([]string{"node", filepath.Join(dir, "node_modules", "eslint", "bin", "eslint.js"),
			"--no-config-lookup", "-c", cfg, "--no-inline-config", "--no-warn-ignored", "--format", "json"}, files...)...)
	}
	oxlint := func() time.Duration {
		return run("oxlint", map[int]bool{1: true}, nil, append([]string{filepath.Join(dir, "node_modules", ".bin", "oxlint"),
			"-c", ox, "--threads=1", "--format", "json"}, files...)...)
	}
	b.ResetTimer()
	var p, e, o time.Duration
	for i := 0; i < b.N; i++ {
		p += polynfi()
		e += eslint()
		o += oxlint()
	}
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(len(rules)), "rules")
	b.ReportMetric(p.Seconds()/float64(b.N), "polynfi-cpu-s")
	b.ReportMetric(e.Seconds()/float64(b.N), "eslint-cpu-s")
	b.ReportMetric(o.Seconds()/float64(b.N), "oxlint-cpu-s")
	b.ReportMetric(p.Seconds()/e.Seconds(), "polynfi/eslint")
	b.ReportMetric(p.Seconds()/o.Seconds(), "polynfi/oxlint")
}

// oxlintConfig writes an .oxlintrc.json enabling the rules' ESLint
// equivalents (typescript-eslint's as "typescript/NAME") with their
// options, every category off.
func oxlintConfig(b *testing.B, rules []*nfi.Rule) string {
	b.Helper()
	cfg := map[string]any{
		"plugins":    []string{"eslint", "typescript"},
		"categories": map[string]string{"correctness": "off", "suspicious": "off", "pedantic": "off", "style": "off", "restriction": "off", "perf": "off", "nursery": "off"},
	}
	rs := map[string]any{}
	for _, r := range rules {
		for _, name := range r.Oracle.ESLint {
			name = strings.Replace(name, "@typescript-eslint/", "typescript/", 1)
			if r.Oracle.ESLintOptions == "" {
				rs[name] = "error"
				continue
			}
			var opts []any
			if err := json.Unmarshal([]byte(r.Oracle.ESLintOptions), &opts); err != nil {
				b.Fatal(err)
			}
			rs[name] = append([]any{"error"}, opts...)
		}
	}
	cfg["rules"] = rs
	data, _ := json.Marshal(cfg)
	p := filepath.Join(b.TempDir(), ".oxlintrc.json")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}
