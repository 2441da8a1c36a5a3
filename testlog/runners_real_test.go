package testlog

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Real runs of every runner with a toolchain on this machine, over the
// small projects of testdata/runners/real: their logs are what the parity
// tests read besides the hand-written edge logs. CI installs the runners
// (.ci/runners.sh; Go and cargo come with the machine): there a missing
// one fails the test, elsewhere it is skipped with a note.

// namedLog is a log and the runner that wrote it.
type namedLog struct {
	name string
	fw   Framework // polynfi's framework of the log
	log  string
}

var (
	realOnce sync.Once
	realLogs []namedLog
	realMiss []string
)

// realRunLogs runs the projects once per test binary.
func realRunLogs(t *testing.T) []namedLog {
	t.Helper()
	realOnce.Do(func() { realLogs, realMiss = runRealProjects() })
	for _, m := range realMiss {
		if os.Getenv("CI") == "true" {
			t.Errorf("real run not made: %s (CI installs every runner: bash .ci/runners.sh)", m)
		} else {
			t.Logf("real run not made: %s", m)
		}
	}
	// A run that failed before testing (a toolchain that did not start, a
	// build error) would make every comparison of it vacuous.
	for _, l := range realLogs {
		if l.fw == "" {
			continue // a log only the official readings read
		}
		if rs, err := Parse(l.fw, []byte(l.log)); err != nil || len(rs) == 0 {
			lines := strings.Split(strings.TrimSpace(l.log), "\n")
			t.Errorf("real run %s: no test read (%v); its log ends: %s", l.name, err, strings.Join(lines[max(0, len(lines)-3):], " | "))
		}
	}
	return realLogs
}

// copyProject copies testdata/runners/real/<name> into a new directory.
func copyProject(name string) (string, error) {
	dst, err := os.MkdirTemp("", "polynfi-runner-"+name+"-")
	if err != nil {
		return "", err
	}
	src := filepath.Join("testdata", "runners", "real", name)
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	return dst, err
}

// run runs a shell command in dir and returns its standard output and
// error together; its exit status is not an error (tests fail on purpose).
func run(dir string, env []string, script string) (string, error) {
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	// rustup's cargo finds its toolchains by RUSTUP_HOME, by default
	// $HOME/.rustup: with a HOME of its own (not the installing user's),
	// look beside the .cargo directory that holds cargo, as the sandbox
	// does (runtime.RustupHome).
	if os.Getenv("RUSTUP_HOME") == "" {
		if p, err := exec.LookPath("cargo"); err == nil {
			if r := filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(p))), ".rustup"); isDir(r) {
				cmd.Env = append(cmd.Env, "RUSTUP_HOME="+r)
			}
		}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); ok {
		err = nil
	}
	return out.String(), err
}

func have(cmds ...string) string {
	for _, c := range cmds {
		if _, err := exec.LookPath(c); err != nil {
			return c
		}
	}
	return ""
}

func runRealProjects() (logs []namedLog, missing []string) {
	type step struct {
		project string
		needs   []string
		env     []string
		cmds    []struct {
			name, script string
			fw           Framework
		}
	}
	type c = struct {
		name, script string
		fw           Framework
	}
	steps := []step{
		{"go", []string{"go"}, []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"}, []c{
			{"go test -v", "go test -v -count=1 ./...", GoTest},
			{"go test -json", "go test -json -count=1 ./...", GoTest},
		}},
		{"cargo", []string{"cargo"}, []string{"CARGO_TARGET_DIR=target", "RUSTC_BOOTSTRAP=1", "CARGO_TERM_COLOR=never"}, []c{
			{"cargo test", "cargo test --offline --no-fail-fast 2>&1", Cargo},
			{"cargo test --format json", "cargo test --offline --no-fail-fast -- -Z unstable-options --format json 2>&1", Cargo},
		}},
		{"cpp", []string{"cmake", "ctest", "g++"}, nil, []c{
			{"cmake + ctest", "cmake -S . -B build -DCMAKE_BUILD_TYPE=Debug 2>&1 && cmake --build build -j2 >/dev/null 2>&1 && cd build && ctest 2>&1", CTest},
			{"googletest", "./build/calc_gtest; ./build/calc_crash", GoogleTest},
			{"googletest colour", "./build/calc_gtest --gtest_color=yes", GoogleTest},
			{"doctest -r=xml", "./build/calc_doctest -s -r=xml", Doctest},
			{"catch2 -r xml", "./build/calc_catch2 -r xml", Catch2},
		}},
		{"php", []string{"php", "phpunit"}, nil, []c{
			{"phpunit --testdox", "phpunit --testdox --colors=never tests", PHPUnit},
			{"phpunit --log-junit", "phpunit --log-junit junit.xml tests >/dev/null; cat junit.xml", JUnit},
		}},
		{"ruby", []string{"ruby", "rspec"}, nil, []c{
			{"minitest -v", "ruby calc_test.rb -v", Minitest},
			{"test-unit -v", "ruby calc_unit.rb -v", TestUnit},
			{"rspec --format json", "rspec calc_spec.rb --format json", RSpec},
			{"rspec json as lines", `rspec calc_spec.rb --format json | ruby -rjson -e 'JSON.parse(STDIN.read)["examples"].each { |e| puts "#{e["full_description"]} - #{e["status"]}" }'`, ""},
		}},
	}
	for _, s := range steps {
		if m := have(s.needs...); m != "" {
			missing = append(missing, s.project+" ("+m+" not installed)")
			continue
		}
		dir, err := copyProject(s.project)
		if err != nil {
			missing = append(missing, s.project+": "+err.Error())
			continue
		}
		for _, x := range s.cmds {
			out, err := run(dir, s.env, x.script)
			if err != nil {
				missing = append(missing, x.name+": "+err.Error())
				continue
			}
			logs = append(logs, namedLog{"real " + x.name, x.fw, strings.ReplaceAll(out, dir, "/work")})
		}
		os.RemoveAll(dir)
	}
	return logs, missing
}

// isDir reports whether p is a directory.
func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
