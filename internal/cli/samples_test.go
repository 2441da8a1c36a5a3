package cli

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// sampleDir holds runs shared by the tests of this package that need the
// bundled samples (evaluated once: the NFI sample runs 72 pytest sessions).
var (
	sampleDir  string
	sampleOnce sync.Map // name → *sampleRun
)

type sampleRun struct {
	once sync.Once
	dir  string
	err  string
}

func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "polynfi-cli-samples-")
	if err != nil {
		panic(err)
	}
	sampleDir = d
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// sampleEval evaluates args (an eval command line without --out) once per
// name and returns the run directory; a failed evaluation fails every test
// that asks for it.
func sampleEval(t *testing.T, name string, args ...string) string {
	t.Helper()
	v, _ := sampleOnce.LoadOrStore(name, &sampleRun{})
	r := v.(*sampleRun)
	r.once.Do(func() {
		r.dir = filepath.Join(sampleDir, name)
		_, stderr, code := runCLI(t, append(append([]string{"eval"}, args...), "--out", r.dir)...)
		if code != ExitOK {
			r.err = stderr
		}
	})
	if r.err != "" {
		t.Fatalf("eval %s: %s", name, r.err)
	}
	return r.dir
}

// nfiSampleRun is the bundled SWE-NFI sample (examples/nfi: 12 tasks, two
// made-up agents, 3 runs each).
func nfiSampleRun(t *testing.T) string {
	return sampleEval(t, "nfi", "--dataset", "../../examples/nfi/tasks.jsonl", "--predictions", "../../examples/nfi/predictions.jsonl", "--workers", "2")
}
