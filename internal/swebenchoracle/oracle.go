// Package swebenchoracle runs SWE-bench's own log parsers and grading
// (the swebench Python package, release 5.0.2) for polynfi's parity tests.
// It is test support: nothing in polynfi's commands uses it.
//
// The package is found at $POLYNFI_SWEBENCH_ORACLE (a directory put on
// PYTHONPATH, holding swebench 5.0.2 and unidiff, as `pip install
// --no-deps --target DIR swebench==5.0.2 unidiff` makes it), else at
// ~/.cache/polynfi/swebench-5.0.2 (where .ci/swebench-oracle.sh installs
// it). Packages swebench imports at module level for other work (Docker,
// Modal, datasets) are replaced by inert modules when absent; the parsers
// and grading functions that run are SWE-bench's.
package swebenchoracle

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

//go:embed oracle.py
var script []byte

// Version is the SWE-bench release the parity tests are written against.
const Version = "5.0.2"

// ParseRequest asks for the status map of one log.
type ParseRequest struct {
	Parser     string `json:"parser"`
	Log        string `json:"log"`
	InstanceID string `json:"instance_id,omitempty"`
	Version    string `json:"version,omitempty"`
}

// GradeRequest asks for SWE-bench's grading of one eval log.
type GradeRequest struct {
	Parser     string   `json:"parser"`
	Log        string   `json:"log"`
	InstanceID string   `json:"instance_id,omitempty"`
	Version    string   `json:"version,omitempty"`
	EvalType   string   `json:"eval_type,omitempty"`
	FailToPass []string `json:"FAIL_TO_PASS"`
	PassToPass []string `json:"PASS_TO_PASS"`
}

// Parsed is SWE-bench's status map, [id, status] pairs in dict order, or
// the error its parser raised.
type Parsed struct {
	Results [][2]string `json:"results"`
	Error   string      `json:"error"`
}

// Graded is SWE-bench's get_logs_eval (Found, Results),
// get_eval_tests_report (Report) and get_eval_report's resolved.
type Graded struct {
	Found    bool                           `json:"found"`
	Results  [][2]string                    `json:"results"`
	Report   map[string]map[string][]string `json:"report"`
	Resolved bool                           `json:"resolved"`
	Error    string                         `json:"error"`
}

// Dir returns the oracle's PYTHONPATH directory, "" when it is not
// installed.
func Dir() string {
	d := os.Getenv("POLYNFI_SWEBENCH_ORACLE")
	if d == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		d = filepath.Join(home, ".cache", "polynfi", "swebench-"+Version)
	}
	if _, err := os.Stat(filepath.Join(d, "swebench", "harness", "grading.py")); err != nil {
		return ""
	}
	return d
}

// Require returns the oracle directory, skipping the test when it is not
// installed, or failing it when CI=true (CI installs it: a parity test
// must not pass by skipping there).
func Require(t testing.TB) string {
	t.Helper()
	d := Dir()
	if d == "" {
		msg := "SWE-bench " + Version + " oracle not installed (bash .ci/swebench-oracle.sh, or set POLYNFI_SWEBENCH_ORACLE)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return d
}

// Run sends parse and grade requests to SWE-bench in one Python process.
func Run(t testing.TB, parse []ParseRequest, grade []GradeRequest) ([]Parsed, []Graded) {
	t.Helper()
	p, g, _ := RunAll(t, parse, grade, nil)
	return p, g
}

// RunAll is Run plus eval scripts: for each, the script SWE-bench runs for
// a row with that eval_script (TestSpec.eval_script after make_test_spec's
// parse_eval_script and record_test_exit_code).
func RunAll(t testing.TB, parse []ParseRequest, grade []GradeRequest, scripts []string) ([]Parsed, []Graded, []string) {
	t.Helper()
	dir := Require(t)
	tmp := filepath.Join(t.TempDir(), "oracle.py")
	if err := os.WriteFile(tmp, script, 0o644); err != nil {
		t.Fatal(err)
	}
	req, err := json.Marshal(map[string]any{"parse": parse, "grade": grade, "scripts": scripts})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("python3", tmp)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir, "PYTHONDONTWRITEBYTECODE=1")
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("SWE-bench oracle: %v\n%s", err, stderr.String())
	}
	var ans struct {
		Version string   `json:"version"`
		Parse   []Parsed `json:"parse"`
		Grade   []Graded `json:"grade"`
		Scripts []string `json:"scripts"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("SWE-bench oracle answer: %v\n%s", err, out)
	}
	if ans.Version != Version {
		t.Fatalf("SWE-bench oracle is release %q, want %s", ans.Version, Version)
	}
	if len(ans.Parse) != len(parse) || len(ans.Grade) != len(grade) || len(ans.Scripts) != len(scripts) {
		t.Fatal(fmt.Sprintf("SWE-bench oracle answered %d/%d/%d, asked %d/%d/%d", len(ans.Parse), len(ans.Grade), len(ans.Scripts), len(parse), len(grade), len(scripts)))
	}
	return ans.Parse, ans.Grade, ans.Scripts
}
