package java

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/nfi"
)

// BenchmarkVsPMD runs, in the same benchmark and on the same files (the
// agreement test's corpus sample, 60 files per library), these processes,
// each held to one core, and compares their CPU time (user + system, from
// the kernel's accounting of the child; this shared machine's wall time is
// not comparable):
//
//   - polynfi: `polynfi score --format json --isolated --exclude=
//     --workers 1 --select IDS` with GOMAXPROCS=1, IDS the catalog's rules
//     with a PMD oracle (the binary built from this tree), and again with
//     every rule with a PMD or Checkstyle oracle;
//   - PMD 7.27.0 with the equivalent rules, `--threads 0` (its main
//     thread), the JVM told it has one processor (-XX:ActiveProcessorCount=1);
//   - Checkstyle 12.3.1 with the Checkstyle rules' modules, likewise.
//
// The JVMs' start-up is counted: it is what a run of the linter costs.
// taskset pins every process to one CPU when it is installed. It reports
// polynfi/pmd (the goal: ≤ 0.1) and polynfi-all/(pmd+checkstyle),
// and each side's CPU seconds.
//
//	go test ./nfi/rules/java -run '^$' -bench BenchmarkVsPMD -benchtime 1x
func BenchmarkVsPMD(b *testing.B) {
	dir := oracleDir(b)
	files := corpusFiles(b, dir, 60, 300_000)
	var pmdRules, csRules []*nfi.Rule
	var pmdIDs, allIDs []string
	for _, r := range All {
		if len(r.Oracle.PMD) > 0 {
			pmdRules = append(pmdRules, r)
			pmdIDs = append(pmdIDs, r.ID)
		}
		if len(r.Oracle.Checkstyle) > 0 && len(r.Oracle.PMD) == 0 {
			csRules = append(csRules, r)
		}
		if len(r.Oracle.PMD)+len(r.Oracle.Checkstyle) > 0 {
			allIDs = append(allIDs, r.ID)
		}
	}
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "polynfi")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/polynfi/polynfi/cmd/polynfi").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	list := filepath.Join(tmp, "files.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	csConfig := checkstyleConfig(b, checkstyleModules(csRules))
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devnull.Close()
	pin := []string{}
	if ts, err := exec.LookPath("taskset"); err == nil {
		pin = []string{ts, "-c", "0"}
	}
	run := func(name string, okExit map[int]bool, env []string, args ...string) time.Duration {
		args = append(append([]string{}, pin...), args...)
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
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	polynfi := func(ids []string) time.Duration {
		return run("polynfi", map[int]bool{1: true}, []string{"GOMAXPROCS=1"},
			append([]string{bin, "score", "--format", "json", "--isolated", "--exclude=", "--workers", "1", "--select", strings.Join(ids, ",")}, files...)...)
	}
	jvm := []string{"java", "-XX:ActiveProcessorCount=1", "-cp", filepath.Join(dir, "lib", "*")}
	pmd := func() time.Duration {
		return run("pmd", map[int]bool{1: true, 4: true, 5: true}, nil, append(append([]string{}, jvm...),
			"net.sourceforge.pmd.cli.PmdCli", "check", "--no-cache", "--no-progress", "--format", "json",
			"--suppress-marker", "POLYNFI-NEVER-SUPPRESS", "--rulesets", strings.Join(pmdRefs(pmdRules), ","),
			"--file-list", list, "--threads", "0")...)
	}
	checkstyle := func() time.Duration {
		ok := map[int]bool{}
		for i := 1; i < 256; i++ {
			ok[i] = true // the exit status is the number of findings
		}
		return run("checkstyle", ok, nil, append(append(append([]string{}, jvm...),
			"com.puppycrawl.tools.checkstyle.Main", "-c", csConfig, "-f", "xml"), files...)...)
	}
	b.ResetTimer()
	var p, pa, m, c time.Duration
	for i := 0; i < b.N; i++ {
		p += polynfi(pmdIDs)
		pa += polynfi(allIDs)
		m += pmd()
		c += checkstyle()
	}
	n := float64(b.N)
	b.ReportMetric(float64(len(files)), "files")
	b.ReportMetric(float64(len(pmdRules)), "pmd-rules")
	b.ReportMetric(float64(len(allIDs)), "all-rules")
	b.ReportMetric(p.Seconds()/n, "polynfi-cpu-s")
	b.ReportMetric(pa.Seconds()/n, "polynfi-all-cpu-s")
	b.ReportMetric(m.Seconds()/n, "pmd-cpu-s")
	b.ReportMetric(c.Seconds()/n, "checkstyle-cpu-s")
	b.ReportMetric(p.Seconds()/m.Seconds(), "polynfi/pmd")
	b.ReportMetric(pa.Seconds()/(m+c).Seconds(), "polynfi-all/pmd+cs")
}
