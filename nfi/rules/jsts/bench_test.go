package jsts

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
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
// It also reports the floor that tree-sitter would set as the front end
// of every file (polynfi parses JavaScript with syntax/jsparse first and
// only TypeScript, and what jsparse declines, with tree-sitter), measured
// in this process on one locked thread (the thread's CPU time, so neither
// the Go runtime's other threads nor start-up count): tree-sitter parsing
// alone of the same files, each tree freed unread (ts-parse-cpu-s,
// ts-parse/oxlint), and parsing with the flattening into syntax.Tree
// that every rule reads (parse-flatten-cpu-s, parse-flatten/oxlint).
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
	raw, flat := parseFloor(b, files)
	b.ReportMetric(raw.Seconds(), "ts-parse-cpu-s")
	b.ReportMetric(raw.Seconds()/(o.Seconds()/float64(b.N)), "ts-parse/oxlint")
	b.ReportMetric(flat.Seconds(), "parse-flatten-cpu-s")
	b.ReportMetric(flat.Seconds()/(o.Seconds()/float64(b.N)), "parse-flatten/oxlint")
}

// parseFloor returns the CPU time of one thread that parses files with
// tree-sitter (syntax.Parser.ParseRaw: the tree is freed unread), and
// that of parsing and flattening them (Parse, then Release), as polynfi
// score does before any rule runs. The files are read beforehand.
func parseFloor(b *testing.B, files []string) (raw, flat time.Duration) {
	b.Helper()
	srcs := make([][]byte, len(files))
	langs := make([]syntax.Language, len(files))
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		l, ok := syntax.LanguageForPath(f)
		if !ok {
			b.Fatalf("%s: no grammar", f)
		}
		srcs[i], langs[i] = data, l
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p := syntax.NewParser()
	defer p.Close()
	// a first round loads the grammars and sizes the buffers
	for i, src := range srcs {
		if t, err := p.Parse(langs[i], src); err == nil {
			t.Release()
		}
	}
	t0 := threadCPU(b)
	for i, src := range srcs {
		if _, err := p.ParseRaw(langs[i], src); err != nil {
			b.Fatal(err)
		}
	}
	t1 := threadCPU(b)
	for i, src := range srcs {
		t, err := p.Parse(langs[i], src)
		if err != nil {
			b.Fatal(err)
		}
		t.Release()
	}
	t2 := threadCPU(b)
	return t1 - t0, t2 - t1
}

// threadCPU returns the calling thread's CPU time, user and system
// (getrusage RUSAGE_THREAD, Linux's 1; the syscall package does not name
// it). The caller has locked its goroutine to the thread; cgo calls run
// on it.
func threadCPU(b *testing.B) time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
