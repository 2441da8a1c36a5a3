package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
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
			h, store := newHarness(t, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
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

// TestMultilangPublishedShapes grades examples/multilang's SWE-bench
// Multilingual file (native mode swebench) and Multi-SWE-bench file
// (native mode multi-swe-bench, with its own patch-row predictions) with
// the real toolchains, local runtime: the set with one wrong patch per
// language (six wrong, six gold) resolves exactly the six gold instances
// in the native mode, so that one run shows both what resolves and what
// does not. Docker is covered by TestBundledMultilangSample (the same
// instances, rows and images). -short skips it.
func TestMultilangPublishedShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the multi-language sample's real test suites")
	}
	dir, err := filepath.Abs("../examples/multilang")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file, predictions string
		native            grading.Mode
	}{
		{"swebench-multilingual.jsonl", "predictions-wrong.jsonl", grading.ModeSWEBench},
		{"multi-swe-bench.jsonl", "predictions-wrong.multi-swe-bench.jsonl", grading.ModeMultiSWEBench},
	} {
		t.Run(c.file, func(t *testing.T) {
			ds, err := dataset.Load(filepath.Join(dir, c.file))
			if err != nil || len(ds.Errors) > 0 || len(ds.Instances) != 12 {
				t.Fatalf("%s: %v %v", c.file, err, ds)
			}
			if c.native == grading.ModeSWEBench {
				// SWE-bench Multilingual rows name no language: each is
				// inferred from the gold patch, as dataset.csv names it.
				csv, err := dataset.Load(filepath.Join(dir, "dataset.csv"))
				if err != nil || len(csv.Instances) != 12 {
					t.Fatalf("dataset.csv: %v", err)
				}
				named := map[string]string{}
				for _, in := range csv.Instances {
					named[in.InstanceID] = in.Language
				}
				for _, in := range ds.Instances {
					if !in.LanguageInferred || in.Language != named[in.InstanceID] {
						t.Errorf("%s: language %q (inferred %v), dataset.csv names %q", in.InstanceID, in.Language, in.LanguageInferred, named[in.InstanceID])
					}
				}
			}
			if grading.Mode(ds.NativeMode()) != c.native {
				t.Fatalf("%s: native mode %s, want %s", c.file, ds.NativeMode(), c.native)
			}
			ps, err := dataset.LoadPredictions(filepath.Join(dir, c.predictions))
			if err != nil || len(ps.Errors) > 0 {
				t.Fatalf("%s: %v %v", c.predictions, err, ps.Errors)
			}
			byID := map[string]dataset.Instance{}
			for _, in := range ds.Instances {
				byID[in.InstanceID] = in
			}
			set := sampleSet{name: "one wrong per language"}
			wrongLangs := 0
			for _, p := range ps.Predictions {
				in, ok := byID[p.InstanceID]
				if !ok {
					t.Fatalf("%s: prediction for %s, which %s lacks", c.predictions, p.InstanceID, c.file)
				}
				set.jobs = append(set.jobs, Job{Instance: in, Prediction: p})
				if p.ModelPatch == in.Patch {
					set.want = append(set.want, in.InstanceID)
				} else {
					wrongLangs++
				}
			}
			sort.Strings(set.want)
			if wrongLangs != 6 {
				t.Fatalf("%d wrong patches, want 6 (one per language)", wrongLangs)
			}
			h, store := newHarness(t, filepath.Join(dir, "repos"), c.native)
			res, err := h.Run(context.Background(), set.jobs, store, RunOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res.Records {
				v := r.Verdicts.Get(c.native)
				if c.native == grading.ModeMultiSWEBench && r.Verdicts.MultiSWEBench == nil {
					t.Errorf("%s: no multi-swe-bench verdict (%s)", r.InstanceID, r.Status)
				}
				if v.Resolved != r.Resolved {
					t.Errorf("%s: record resolved %v, native %s verdict %v", r.InstanceID, r.Resolved, c.native, v.Resolved)
				}
				if r.Resolved {
					got = append(got, r.InstanceID)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(set.want, " ") {
				t.Fatalf("resolved %v, want %v", got, set.want)
			}
		})
	}
}

// TestDockerLanguageLimits: with LanguageLimits (what eval sets for
// --runtime docker when --cpus and --memory are not given) a Rust
// instance's container gets 4 cores and 8 GiB and a Go instance's 2 cores
// and 4 GiB (runtime.DefaultsFor), as the container's own cgroup says
// (v2 cpu.max/memory.max, else v1 cfs quota/period and limit_in_bytes);
// a limit given (h.Limits) wins over the language's; a quota above the
// engine's CPUs is lowered to them (4 cores on a 2-core engine are 2).
func TestDockerLanguageLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two images of the multi-language sample")
	}
	dir, err := filepath.Abs("../examples/multilang")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	const probe = `if [ -f /sys/fs/cgroup/cpu.max ]; then read q p < /sys/fs/cgroup/cpu.max; m=$(cat /sys/fs/cgroup/memory.max)
else q=$(cat /sys/fs/cgroup/cpu/cpu.cfs_quota_us); p=$(cat /sys/fs/cgroup/cpu/cpu.cfs_period_us); m=$(cat /sys/fs/cgroup/memory/memory.limit_in_bytes); fi
echo "limits cpu=$((q * 1000 / p)) mem=$m"`
	var jobs []Job
	for _, in := range ds.Instances {
		if in.InstanceID == "numerals__romanum-3" || in.InstanceID == "gridworks__durfmt-4" {
			in.TestCommand = probe
			jobs = append(jobs, Job{Instance: in, Prediction: dataset.Gold([]dataset.Instance{in})[0]})
		}
	}
	if len(jobs) != 2 {
		t.Fatalf("%d instances found", len(jobs))
	}
	// The docker runtime lowers a quota above the engine's CPUs to them.
	h0, _, d := dockerHarness(t, filepath.Join(dir, "repos"), grading.ModePolyBench)
	if h0 == nil {
		return
	}
	info, err := d.Client().Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	milli := func(cores int) string { return fmt.Sprint(1000 * min(cores, info.NCPU)) }
	for _, c := range []struct {
		name   string
		limits runtime.Limits
		want   map[string]string
	}{
		{"per language", runtime.Limits{Pids: 4096}, map[string]string{
			"numerals__romanum-3": "limits cpu=" + milli(4) + " mem=8589934592", "gridworks__durfmt-4": "limits cpu=" + milli(2) + " mem=4294967296"}},
		{"given", runtime.Limits{CPUs: 1, MemoryBytes: 1 << 30, Pids: 4096}, map[string]string{
			"numerals__romanum-3": "limits cpu=1000 mem=1073741824", "gridworks__durfmt-4": "limits cpu=1000 mem=1073741824"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, store, _ := dockerHarness(t, filepath.Join(dir, "repos"), grading.ModePolyBench)
			h.Limits, h.LanguageLimits = c.limits, true
			res, err := h.Run(context.Background(), jobs, store, RunOptions{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Records {
				if r == nil {
					t.Fatal("an instance has no record")
				}
				log, err := os.ReadFile(filepath.Join(store.Dir, runrecord.RecordRelDir(r.Key), runrecord.LogFile))
				if err != nil {
					t.Fatalf("%s: %v (%s %s)", r.InstanceID, err, r.Status, r.Error)
				}
				if !strings.Contains(string(log), c.want[r.InstanceID]+"\n") {
					t.Errorf("%s: the log does not say %q:\n%s", r.InstanceID, c.want[r.InstanceID], log)
				}
			}
		})
	}
}
