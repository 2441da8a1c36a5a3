package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// coldBuild matches the cold-build time `make demo` announces and the
// README states: "a cold first build ... takes about N minutes".
var coldBuild = regexp.MustCompile(`cold (?:first )?build[^.\n]* takes about (\d+(?:\.\d+)?) minutes`)

// TestDemoAnnouncesColdBuild: `make demo` says, before it starts
// building, how long a cold build takes, and says what the README says.
func TestDemoAnnouncesColdBuild(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is required: %v", err)
	}
	cmd := exec.Command("make", "-n", "--no-print-directory", "demo")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("make -n demo: %v", err)
	}
	lines := strings.Split(string(out), "\n")
	announced, build := -1, -1
	var minutes string
	for i, l := range lines {
		if m := coldBuild.FindStringSubmatch(l); m != nil && announced < 0 {
			announced, minutes = i, m[1]
		}
		if strings.Contains(l, "go build") && build < 0 {
			build = i
		}
	}
	if build < 0 {
		t.Fatalf("make -n demo runs no go build:\n%s", out)
	}
	if announced < 0 || announced > build {
		t.Fatalf("make demo does not say how long a cold build takes before building (announce at line %d, go build at line %d):\n%s", announced, build, out)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := coldBuild.FindSubmatch(readme)
	if m == nil {
		t.Fatalf("README.md does not say how long a cold build takes (%s)", coldBuild)
	}
	if string(m[1]) != minutes {
		t.Errorf("make demo says about %s minutes, README.md says %s", minutes, m[1])
	}
}

// TestColdBuildNoticeOnlyWhenStale: the cold-build notice of `make demo`
// is said when the binary is missing or older than the sources, and not
// when it is up to date (a cached build takes seconds).
func TestColdBuildNoticeOnlyWhenStale(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is required: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "polynfi")
	notice := func() bool {
		t.Helper()
		cmd := exec.Command("make", "--no-print-directory", "cold-build-notice", "BIN="+bin)
		cmd.Dir = "../.."
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("make cold-build-notice: %v: %s", err, stderr.String())
		}
		return coldBuild.MatchString(stderr.String())
	}
	if !notice() {
		t.Errorf("no notice with the binary missing")
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Newer than every source of the checkout.
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(bin, future, future); err != nil {
		t.Fatal(err)
	}
	if notice() {
		t.Errorf("notice with an up-to-date binary")
	}
	// Older than every source: stale.
	past := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(bin, past, past); err != nil {
		t.Fatal(err)
	}
	if !notice() {
		t.Errorf("no notice with a binary older than the sources")
	}
}

// notRaced are the packages that start goroutines but whose tests make
// test's race step leaves out, and why.
var notRaced = map[string]string{
	"runtime/docker": "stream copies of a container's output: its tests need the Docker daemon",
	"runtime/kube":   "watch and stream goroutines: its tests need the cluster",
	"backend":        "parallel image pulls and builds: its tests need the Docker daemon",
	"internal/cli":   "one signal-forwarding goroutine, no pool",
}

// racedBy maps a package whose pool is raced through another package's
// test to that package: the NFI batch (nfi.Engine.ScoreFiles) is scored
// with the real catalog in nfi/catalog's TestScoreConcurrent.
var racedBy = map[string]string{"nfi": "nfi/catalog"}

// TestRaceCoversWorkerPools: every package that starts goroutines (go
// statements, errgroup) is in the Makefile's RACE_PKGS and RACE_TESTS
// names a test of it, or notRaced says why not.
func TestRaceCoversWorkerPools(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	varOf := func(name string) string {
		m := regexp.MustCompile(`(?m)^` + name + ` \?= (.*)$`).FindSubmatch(mk)
		if m == nil {
			t.Fatalf("Makefile has no %s", name)
		}
		return string(m[1])
	}
	racePkgs := map[string]bool{}
	for _, p := range strings.Fields(varOf("RACE_PKGS")) {
		racePkgs[strings.Trim(strings.TrimPrefix(p, "./"), "/")] = true
	}
	raceTests := strings.Split(strings.Trim(strings.TrimSuffix(strings.TrimPrefix(varOf("RACE_TESTS"), "^("), ")$$"), "()"), "|")
	goStmt := regexp.MustCompile(`(?m)^\s*go (func\b|[A-Za-z_][\w.]*\()|errgroup\.`)
	testFunc := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	pools := map[string]bool{}
	tests := map[string]map[string]bool{}
	root := "../.."
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "out" || rel == "bin" || rel == "examples") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if strings.HasSuffix(p, "_test.go") {
			for _, m := range testFunc.FindAllSubmatch(b, -1) {
				if tests[pkg] == nil {
					tests[pkg] = map[string]bool{}
				}
				tests[pkg][string(m[1])] = true
			}
			return nil
		}
		if goStmt.Match(b) {
			pools[pkg] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pkg := range pools {
		if _, ok := notRaced[pkg]; ok {
			continue
		}
		if strings.HasPrefix(pkg, "internal/") && pkg != "internal/cli" {
			continue // test helpers and oracles' drivers, not polynfi's work
		}
		if by, ok := racedBy[pkg]; ok {
			pkg = by
		}
		if !racePkgs[pkg] {
			t.Errorf("%s starts goroutines but is not in RACE_PKGS", pkg)
			continue
		}
		named := false
		for _, name := range raceTests {
			named = named || tests[pkg][name]
		}
		if !named {
			t.Errorf("RACE_TESTS names no test of %s", pkg)
		}
	}
	for pkg := range notRaced {
		if !pools[pkg] {
			t.Errorf("notRaced lists %s, which starts no goroutine", pkg)
		}
	}
}

// progressLine is a line of .ci/buildprogress.sh while `make build` runs.
var progressLine = regexp.MustCompile(`^make build: compiled (\d+) packages, elapsed \d+s$`)

// TestMakeBuildShowsProgress runs the real `make build` target (a small
// main package of this module, BUILD_PKG, in an empty GOCACHE: a cold
// build of it and of the standard library it needs) with
// BUILD_PROGRESS_EVERY=0: a line after each package and each second
// without one; the counts never go down, reach all the packages, and a
// last line says how many in how long. The same build
// again, warm, compiles nothing and prints no progress; a package that
// does not build fails make with Go's error passed through.
func TestMakeBuildShowsProgress(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatalf("make is required: %v", err)
	}
	cache, bin := t.TempDir(), filepath.Join(t.TempDir(), "testreport")
	run := func(pkg string) (string, error) {
		t.Helper()
		cmd := exec.Command("make", "--no-print-directory", "build", "BIN="+bin, "BUILD_PKG="+pkg)
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "GOCACHE="+cache, "BUILD_PROGRESS_EVERY=0")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		return stderr.String(), err
	}
	out, err := run("./internal/testreport/cmd/testreport")
	if err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	var counts []int
	final := false
	for _, l := range strings.Split(out, "\n") {
		if m := progressLine.FindStringSubmatch(l); m != nil {
			n := 0
			for _, c := range m[1] {
				n = n*10 + int(c-'0')
			}
			counts = append(counts, n)
		}
		if regexp.MustCompile(`^make build: compiled \d+ packages in \d+s$`).MatchString(l) {
			final = true
		}
	}
	if len(counts) < 10 || !final {
		t.Fatalf("a cold build printed %d progress lines (want at least 10) and final line %v:\n%s", len(counts), final, out)
	}
	for i := 1; i < len(counts); i++ {
		if counts[i] < counts[i-1] {
			t.Errorf("package count went down: %v", counts)
			break
		}
	}
	if counts[len(counts)-1] < 20 {
		t.Errorf("counted %d packages, want the standard library's too (at least 20): %v", counts[len(counts)-1], counts)
	}
	if fi, err := os.Stat(bin); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("no binary at %s: %v", bin, err)
	}

	out, err = run("./internal/testreport/cmd/testreport")
	if err != nil {
		t.Fatalf("make build (warm): %v\n%s", err, out)
	}
	if strings.Contains(out, "make build: compiled") {
		t.Errorf("a warm build printed progress:\n%s", out)
	}

	out, err = run("./internal/nosuchpackage")
	if err == nil {
		t.Fatalf("make build of a missing package succeeded:\n%s", out)
	}
	if !strings.Contains(out, "nosuchpackage") {
		t.Errorf("go's error not passed through:\n%s", out)
	}
}
