package harness

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/polynfi/polynfi/dataset"
)

// multilangLanguages are the languages of examples/multilang, as its
// dataset spells them.
var multilangLanguages = []string{dataset.Go, dataset.Rust, dataset.C, dataset.CPP, dataset.PHP, dataset.Ruby}

// TestBundledMultilangSample runs the harness on examples/multilang with the
// real toolchains (go test -json; cargo test with libtest's JUnit output;
// CMake + ctest --output-junit; CMake + googletest XML; PHPUnit
// --log-junit; RSpec with rspec_junit_formatter): gold resolves all twelve
// instances, empty predictions none, and the set with one wrong patch per
// language exactly the other six; then the same in containers built from
// the Dockerfile column (FROM the shared polybench_multilang_base image of
// .ci/docker.sh), with the same status in every mode as the local runtime.
// Needs examples/polybench/env/setup.sh to have run (the toolchains on this
// machine); -short skips it.
func TestBundledMultilangSample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the multi-language sample's real test suites")
	}
	dir, ds, sets := loadSampleAt(t, "../examples/multilang", 12, multilangLanguages)
	for _, set := range sets {
		t.Run(set.name, func(t *testing.T) {
			h, store := newHarness(t, filepath.Join(dir, "repos"), Mode(ds.NativeMode()))
			h.Env = []string{"POLYNFI_DATASET_DIR=" + dir}
			res, err := h.Run(context.Background(), set.jobs, store, RunOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			checkSample(t, set, res, h.NativeMode)
			t.Run("docker", func(t *testing.T) { checkSampleDocker(t, dir, ds, set, res) })
		})
	}
}
