// Package mswebenchoracle runs Multi-SWE-bench's own per-repository log
// readers (the multi-swe-bench Python package, release 1.1.2) for
// polynfi's parity tests. It is test support: nothing in polynfi's
// commands uses it.
//
// The package lives in a virtual environment at $POLYNFI_MSWEBENCH_ORACLE,
// else at ~/.cache/polynfi/multi-swe-bench-1.1.2, where
// .ci/multiswebench-oracle.sh installs it (the wheel without its
// dependencies, plus dataclasses-json and unidiff, which its test-result
// module imports).
package mswebenchoracle

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

//go:embed oracle.py
var script []byte

// Version is the Multi-SWE-bench release the parity tests are written
// against.
const Version = "1.1.2"

// Request asks the class registered under Name ("org/repo" or
// "org/<number_interval>") to read Log.
type Request struct {
	Name string `json:"name"`
	Log  string `json:"log"`
}

// Answer is the reading's three sets, sorted, or the error raised.
type Answer struct {
	Passed  []string `json:"passed"`
	Failed  []string `json:"failed"`
	Skipped []string `json:"skipped"`
	Error   string   `json:"error"`
}

// Python returns the virtual environment's interpreter, "" when the oracle
// is not installed.
func Python() string {
	d := os.Getenv("POLYNFI_MSWEBENCH_ORACLE")
	if d == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		d = filepath.Join(home, ".cache", "polynfi", "multi-swe-bench-"+Version)
	}
	py := filepath.Join(d, "bin", "python3")
	if _, err := os.Stat(py); err != nil {
		return ""
	}
	return py
}

// Require returns the interpreter, skipping the test when the oracle is
// not installed, or failing it when CI=true (CI installs it).
func Require(t testing.TB) string {
	t.Helper()
	py := Python()
	if py == "" {
		msg := "Multi-SWE-bench " + Version + " oracle not installed (bash .ci/multiswebench-oracle.sh, or set POLYNFI_MSWEBENCH_ORACLE)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return py
}

// Run sends the requests to Multi-SWE-bench in one Python process.
func Run(t testing.TB, reqs []Request) []Answer {
	t.Helper()
	py := Require(t)
	tmp := filepath.Join(t.TempDir(), "oracle.py")
	if err := os.WriteFile(tmp, script, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(map[string]any{"parse": reqs})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, tmp)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Multi-SWE-bench oracle: %v\n%s", err, stderr.String())
	}
	var ans struct {
		Version string   `json:"version"`
		Parse   []Answer `json:"parse"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("Multi-SWE-bench oracle answer: %v\n%s", err, out)
	}
	if ans.Version != Version {
		t.Fatalf("Multi-SWE-bench oracle is release %q, want %s", ans.Version, Version)
	}
	if len(ans.Parse) != len(reqs) {
		t.Fatalf("Multi-SWE-bench oracle answered %d, asked %d", len(ans.Parse), len(reqs))
	}
	return ans.Parse
}
