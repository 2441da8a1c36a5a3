package testreport

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// goTestJSON runs `go test -json` with args on a module holding one
// package, whose test file is src, and returns the stream.
func goTestJSON(t *testing.T, src string, args ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module example.com/fx\n\ngo 1.21\n", "fx_test.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", append([]string{"test", "-json"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, _ := cmd.Output() // a failing package exits 1
	if len(out) == 0 {
		t.Fatal("go test -json wrote nothing")
	}
	return out
}

// TestSummaryNamesTheHungTest: under -timeout, the package's failure shows
// go's panic naming the test that was running, and the failed test's own
// output; the passing test gets no output; Failed is set.
func TestSummaryNamesTheHungTest(t *testing.T) {
	t.Parallel()
	src := `package fx

import (
	"testing"
	"time"
)

func TestQuick(t *testing.T) { t.Log("quiet") }

func TestBroken(t *testing.T) { t.Error("broken on purpose") }

func TestHangs(t *testing.T) { time.Sleep(time.Hour) }
`
	stream := goTestJSON(t, src, "-timeout", "3s", ".")
	var w bytes.Buffer
	s, err := Summarize(bytes.NewReader(stream), &w)
	if err != nil {
		t.Fatal(err)
	}
	got := w.String()
	if !s.Failed {
		t.Error("Failed is false")
	}
	for _, want := range []string{"panic: test timed out after 3s", "TestHangs", "broken on purpose", "FAIL\texample.com/fx"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "quiet") {
		t.Errorf("summary shows a passing test's output:\n%s", got)
	}
}

// TestSlowest: the tests come slowest first, at most n.
func TestSlowest(t *testing.T) {
	t.Parallel()
	src := `package fx

import (
	"testing"
	"time"
)

func TestA(t *testing.T) { time.Sleep(300 * time.Millisecond) }
func TestB(t *testing.T) {}
func TestC(t *testing.T) { time.Sleep(600 * time.Millisecond) }
`
	stream := goTestJSON(t, src, ".")
	s, err := Summarize(bytes.NewReader(stream), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Failed || len(s.Packages) != 1 || s.Packages[0].Action != "pass" {
		t.Fatalf("summary %+v, want one passing package", s)
	}
	top := Slowest(s, 2)
	if len(top) != 2 || top[0].Test != "TestC" || top[1].Test != "TestA" {
		t.Errorf("slowest %+v, want TestC then TestA", top)
	}
}
