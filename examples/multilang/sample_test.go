// Package multilang_test checks that the committed multi-language sample is
// what its sources build: build.sh --check rebuilds the bundles,
// dataset.csv, the prediction files and the SWE-bench Multilingual and
// Multi-SWE-bench shaped files in a temporary directory and compares. The
// real test runs are in harness (TestBundledMultilangSample,
// TestMultilangPublishedShapes). Needs git and python3.
package multilang_test

import (
	"os/exec"
	"testing"
)

func TestDatasetUpToDate(t *testing.T) {
	for _, tool := range []string{"git", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s not found: the sample check needs it", tool)
		}
	}
	out, err := exec.Command("bash", "build.sh", "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("build.sh --check: %v\n%s", err, out)
	}
}
