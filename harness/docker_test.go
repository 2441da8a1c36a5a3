package harness

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/client"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// dockerHarness is newHarness with the docker runtime: images resolved
// from the sample's Dockerfiles (built once and kept: cache level
// instance), the polybench_<language>_base images made by .ci/docker.sh.
func dockerHarness(t testing.TB, reposDir string, mode grading.Mode) (*Harness, *Store, *docker.Docker) {
	t.Helper()
	return dockerHarnessWith(t, reposDir, mode, docker.DockerOptions{})
}

// dockerHarnessWith is dockerHarness with the docker runtime's options
// (a counting client: apiCounter).
func dockerHarnessWith(t testing.TB, reposDir string, mode grading.Mode, opts docker.DockerOptions) (*Harness, *Store, *docker.Docker) {
	t.Helper()
	d, err := docker.NewDocker(context.Background(), opts)
	if err != nil {
		citest.Missing(t, "no docker engine (run .ci/docker.sh): %v", err)
		return nil, nil, nil
	}
	t.Cleanup(func() { d.Close() })
	for _, b := range []string{"polybench_python_base", "polybench_java_base", "polybench_javascript_base", "polybench_typescript_base"} {
		if _, err := d.Client().ImageInspect(context.Background(), b); err != nil {
			citest.Missing(t, "base image %s missing (run .ci/docker.sh): %v", b, err)
		}
	}
	h, store := newHarness(t, reposDir, mode)
	h.Runtime = d
	h.Images = images.New(d.Client(), images.Options{Checkout: h.Repos.Checkout, LogDir: filepath.Join(store.Dir, "build_logs"),
		ScratchDir: store.ScratchDir(), BuildWorkers: 2, Retries: 1, CacheLevel: images.CacheInstance})
	h.Limits = runtime.Limits{CPUs: 2, MemoryBytes: 4 << 30, Pids: 4096}
	h.RunKey = fmt.Sprintf("harness-test-%d", time.Now().UnixNano())
	h.Retries = 1
	return h, store, d
}

// leftContainers counts the containers labelled with run key.
func leftContainers(t testing.TB, d *docker.Docker, key string) int {
	t.Helper()
	list, err := d.Client().ContainerList(context.Background(), container.ListOptions{All: true,
		Filters: filters.NewArgs(filters.Arg("label", runtime.LabelRun+"="+key))})
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

// checkSampleDocker runs set in containers, each instance in an image
// built from its Dockerfile column: the resolved instances are set.want,
// every instance has the same status in every mode as in local (the local
// runtime's run of set), and no container is left.
func checkSampleDocker(t *testing.T, dir string, ds *dataset.Dataset, set sampleSet, local *RunResult) {
	h, store, d := dockerHarness(t, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
	res, err := h.Run(context.Background(), set.jobs, store, RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	checkSample(t, set, res, h.NativeMode)
	for i, r := range res.Records {
		if r.Sandbox == nil || r.Sandbox.Runtime != "docker" || r.Image == nil || r.Image.Image == "" || r.Image.Source != images.SourceBuild {
			t.Errorf("%s: sandbox %+v image %+v, want a docker container from an image built from the Dockerfile", r.InstanceID, r.Sandbox, r.Image)
		}
		l := local.Records[i]
		for _, m := range grading.Modes {
			if dv, lv := r.Verdicts.Get(m), l.Verdicts.Get(m); dv.Status != lv.Status {
				t.Errorf("%s %s: docker %s (%s), local %s (%s)", r.InstanceID, m, dv.Status, dv.Reason, lv.Status, lv.Reason)
			}
		}
	}
	if n := leftContainers(t, d, h.RunKey); n != 0 {
		t.Errorf("%d containers left after the run", n)
	}
}

// TestDockerInfraFailureNotScored: an instance whose image cannot be had
// (a prebuilt name that is not present, no registry) is infra_failure with
// reason image_unavailable in every mode, retried, and evaluated again
// by the next run.
func TestDockerInfraFailureNotScored(t *testing.T) {
	dir, ds, sets := loadSample(t)
	h, store, _ := dockerHarness(t, filepath.Join(dir, "repos"), grading.Mode(ds.NativeMode()))
	job := sets[0].jobs[0]
	job.Instance.Image = "polynfi-test/not-present.invalid:never"
	job.Instance.Dockerfile = ""
	res, err := h.Run(context.Background(), []Job{job}, store, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Records[0]
	if r.InfraReason != runtime.ReasonImage || r.Attempts != 2 || r.Resolved {
		t.Fatalf("record: reason %q attempts %d resolved %v (%s)", r.InfraReason, r.Attempts, r.Resolved, r.Error)
	}
	for _, m := range grading.Modes {
		if v := r.Verdicts.Get(m); v.Status != grading.StatusInfraFailure {
			t.Errorf("%s: %s, want infra_failure", m, v.Status)
		}
	}
	if _, done := store.Done(job.Key()); done {
		t.Error("an infra_failure record counts as done: a re-run would not evaluate the instance again")
	}
}

// benchInstance is the sample's tidyledger__ledgerkit-12 with a no-op test
// command (only the exec's own cost), its gold prediction, and a docker
// harness with the instance's image built (outside any timing).
// The client of the harness's runtime counts the Docker Engine API
// requests it makes (apiCounter).
func benchInstance(b testing.TB) (*Harness, *Store, dataset.Instance, dataset.Prediction, *apiCounter) {
	dir, err := filepath.Abs("../examples/polybench")
	if err != nil {
		b.Fatal(err)
	}
	ds, err := dataset.Load(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		b.Fatal(err)
	}
	var in dataset.Instance
	for _, x := range ds.Instances {
		if x.InstanceID == "tidyledger__ledgerkit-12" {
			in = x
		}
	}
	in.TestCommand = "true"
	cli, count := countingClient(b)
	h, store, _ := dockerHarnessWith(b, filepath.Join(dir, "repos"), grading.ModePolyBench, docker.DockerOptions{Client: cli})
	pred := dataset.Gold([]dataset.Instance{in})[0]
	if _, err := h.Images.Resolve(context.Background(), in); err != nil {
		b.Fatal(err)
	}
	return h, store, in, pred, count
}

// apiCounter counts the Docker Engine API requests of a client by kind
// (method and path with ids left out: "POST /containers/*/exec"). A
// hijacked request (an exec's attach) does not go through the client's
// transport: each is counted as "POST /exec/*/start (attach)", one per
// exec created with its streams attached, which is every exec the docker
// runtime makes but killAll's.
type apiCounter struct {
	base  http.RoundTripper
	mu    sync.Mutex
	kinds map[string]int
}

func (c *apiCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	if len(parts) > 0 && strings.HasPrefix(parts[0], "v1.") {
		parts = parts[1:]
	}
	if len(parts) >= 2 && (parts[0] == "containers" || parts[0] == "exec") && parts[1] != "create" && parts[1] != "json" {
		parts[1] = "*"
	}
	kind := req.Method + " /" + strings.Join(parts, "/")
	c.mu.Lock()
	c.kinds[kind]++
	if kind == "POST /containers/*/exec" {
		c.kinds["POST /exec/*/start (attach)"]++
	}
	c.mu.Unlock()
	return c.base.RoundTrip(req)
}

// snapshot returns the counts so far and their total.
func (c *apiCounter) snapshot() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := make(map[string]int, len(c.kinds))
	n := 0
	for k, v := range c.kinds {
		m[k] = v
		n += v
	}
	return m, n
}

// since is the difference of the counts from before (a snapshot), per
// instance: total and each kind, as "kind=n/instance" sorted.
func (c *apiCounter) since(before map[string]int, instances int) (float64, string) {
	now, _ := c.snapshot()
	var kinds []string
	total := 0
	for k, v := range now {
		if d := v - before[k]; d > 0 {
			total += d
			kinds = append(kinds, fmt.Sprintf("%s=%.2f", k, float64(d)/float64(instances)))
		}
	}
	sort.Strings(kinds)
	return float64(total) / float64(instances), strings.Join(kinds, ", ")
}

// countingClient is a Docker API client from the environment whose
// requests an apiCounter counts.
func countingClient(t testing.TB) (*client.Client, *apiCounter) {
	t.Helper()
	c := &apiCounter{kinds: map[string]int{}}
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation(), func(cl *client.Client) error {
		hc := cl.HTTPClient()
		c.base = hc.Transport
		hc.Transport = c
		return client.WithHTTPClient(hc)(cl)
	})
	if err != nil {
		citest.Missing(t, "no docker client: %v", err)
	}
	return cli, c
}

// BenchmarkDockerInstanceOverhead measures the harness's own cost per
// instance in a container, one instance at a time and nothing started
// ahead, the image present: container create and start, the patch files
// copied in (one copy), the harness's session and in it the path checks,
// the apply cascade of the test and gold patches, the reset of test files
// and the unstaging, one exec of a no-op test command, the report listing
// and collection, parsing and grading, and removal (Evaluate waits for it;
// Run leaves it in the background). The test command itself and the
// image build are not in it. Reports each step's seconds per instance (the
// shares of total-s).
func BenchmarkDockerInstanceOverhead(b *testing.B) {
	h, _, in, pred, count := benchInstance(b)
	var sum runrecord.Timing
	var copyS float64
	before, _ := count.snapshot()
	b.ResetTimer()
	for b.Loop() {
		rec, _, err := h.Evaluate(context.Background(), in, pred)
		if err != nil || rec.Status == grading.StatusError || rec.InfraReason != "" {
			b.Fatalf("evaluate: %v %s %s", err, rec.Status, rec.Error)
		}
		t2 := rec.Timing
		sum.WorkspaceS += t2.WorkspaceS
		sum.ApplyS += t2.ApplyS
		sum.TestS += t2.TestS
		sum.ParseS += t2.ParseS
		sum.RemoveS += t2.RemoveS
		sum.NFIS += t2.NFIS
		sum.CanaryS += t2.CanaryS
		sum.RunnerCheckS += t2.RunnerCheckS
		sum.OverheadS += t2.OverheadS
		copyS += rec.CopyS
	}
	n := float64(b.N)
	b.ReportMetric(sum.OverheadS/n, "total-s")
	b.ReportMetric((sum.WorkspaceS-copyS)/n, "create+start-s")
	b.ReportMetric(copyS/n, "copy-in-s")
	b.ReportMetric(sum.ApplyS/n, "apply-s")
	b.ReportMetric(sum.TestS/n, "exec-s")
	b.ReportMetric(sum.ParseS/n, "collect+parse-s")
	b.ReportMetric(sum.RemoveS/n, "remove-s")
	b.ReportMetric(sum.NFIS/n, "nfi-s")
	b.ReportMetric(sum.CanaryS/n, "canary-s")
	b.ReportMetric(sum.RunnerCheckS/n, "runner-check-s")
	calls, kinds := count.since(before, b.N)
	b.ReportMetric(calls, "api-calls")
	b.Logf("Docker API requests per instance: %.2f (%s)", calls, kinds)
}

// BenchmarkDockerRunOverhead measures the harness's own cost per instance
// in a run of 8 predictions of one instance (distinct run numbers), one
// worker, each sandbox started one instance ahead (StartAhead 1, as eval
// does for docker): (the run's wall time − the test commands' time) / 8,
// every removal waited for (per-instance-s); start-wait-s is the part of
// it an evaluation spent waiting for the start of its sandbox begun
// ahead (container and copy-in, Timing.WorkspaceS; the wait for the test
// patch applied ahead is in Timing.ApplyS): when it is a large part of
// the total, the starts, not the evaluations, bound the run. This is what a sequential run pays per
// instance; BenchmarkDockerInstanceOverhead is one instance's latency.
func BenchmarkDockerRunOverhead(b *testing.B) {
	h, store, in, pred, count := benchInstance(b)
	h.StartAhead = 1
	before, _ := count.snapshot()
	const n = 8
	var wall, test, wait float64
	round := 0
	b.ResetTimer()
	for b.Loop() {
		round++
		var jobs []Job
		for i := range n {
			p := pred
			p.Run = round*100 + i
			jobs = append(jobs, Job{Instance: in, Prediction: p})
		}
		t := time.Now()
		res, err := h.Run(context.Background(), jobs, store, RunOptions{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		wall += time.Since(t).Seconds()
		for _, r := range res.Records {
			if r == nil || r.Status == grading.StatusError || r.InfraReason != "" {
				b.Fatalf("record %+v", r)
			}
			test += r.Timing.TestS
			wait += r.Timing.WorkspaceS
		}
	}
	b.ReportMetric((wall-test)/float64(b.N*n), "per-instance-s")
	b.ReportMetric(wait/float64(b.N*n), "start-wait-s")
	calls, kinds := count.since(before, b.N*n)
	b.ReportMetric(calls, "api-calls")
	b.Logf("Docker API requests per instance: %.2f (%s)", calls, kinds)
}

// BenchmarkDockerApplyCascade measures the apply cascade of the gold patch
// of benchInstance's instance (it applies at the first attempt) in one
// container through the harness's session, the tree at base + test patch:
// as one command (cascadeScript, script-s) and one command per step
// (steps-s, what applyCascade does in a session), the tree reset between
// runs outside the timing.
func BenchmarkDockerApplyCascade(b *testing.B) {
	h, _, in, pred, _ := benchInstance(b)
	ctx := context.Background()
	st := h.startInstance(ctx, in, pred, nil)
	if st.err != nil || st.prepErr != nil {
		b.Fatalf("start: %v %v", st.err, st.prepErr)
	}
	defer func() {
		st.wt.endSession()
		_ = st.remove()
	}()
	steps := cascadeSteps(st.modelFiles)
	var script, step time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, one := range []bool{true, false} {
			t := time.Now()
			var res runrecord.ApplyResult
			var err error
			if one {
				var recs []cascadeRecord
				var cut bool
				if recs, cut, err = runCascadeScript(ctx, st.wt, steps, st.snap, nil); err == nil {
					res, _, err = cascadeFrom(ctx, st.wt, steps, recs, cut, st.snap)
				}
				script += time.Since(t)
			} else {
				res, _, err = cascadeFrom(ctx, st.wt, steps, nil, false, st.snap)
				step += time.Since(t)
			}
			if err != nil || !res.Applied {
				b.Fatalf("cascade: %+v %v", res, err)
			}
			b.StopTimer()
			if err := reset(ctx, st.wt, st.snap); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	}
	b.ReportMetric(script.Seconds()/float64(b.N), "script-s")
	b.ReportMetric(step.Seconds()/float64(b.N), "steps-s")
}

// TestDockerApplyCascadeWithoutSession: in a container whose harness
// commands are plain execs (no session, as in the kubernetes runtime)
// the cascade runs as one exec (cascadeScript): the gold patch applies
// with the first method and the tree holds it; a patch of a file the tree
// does not have fails every method and leaves the tree at base + test
// patch; both as the cascade run one exec per step says.
func TestDockerApplyCascadeWithoutSession(t *testing.T) {
	h, _, in, pred, count := benchInstance(t)
	ctx := context.Background()
	for _, c := range []struct {
		name, patch string
		applied     bool
	}{
		{"gold", pred.ModelPatch, true},
		{"missing file", strings.ReplaceAll(pred.ModelPatch, "ledgerkit/", "nothere/"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var results [2]runrecord.ApplyResult
			var trees [2]string
			for i, script := range []bool{true, false} {
				p := pred
				p.ModelPatch = c.patch
				st := h.startInstance(ctx, in, p, nil)
				if st.err != nil || st.prepErr != nil {
					t.Fatalf("start: %v %v", st.err, st.prepErr)
				}
				st.wt.endSession()
				before, _ := count.snapshot()
				var err error
				if script {
					results[i], err = applyCascade(ctx, st.wt, st.modelFiles, st.modelParsed, st.snap)
				} else {
					results[i], _, err = cascadeFrom(ctx, st.wt, cascadeSteps(st.modelFiles), nil, false, st.snap)
				}
				after, _ := count.snapshot()
				execs := after["POST /containers/*/exec"] - before["POST /containers/*/exec"]
				if err != nil {
					t.Fatal(err)
				}
				if script && execs != 1 {
					t.Errorf("the cascade as one command made %d execs", execs)
				}
				d, err := st.wt.script(ctx, `g add --all . && g diff --cached --stat "$1"`, st.snap)
				if err != nil {
					t.Fatal(err)
				}
				trees[i] = string(d)
				_ = st.remove()
			}
			if !reflect.DeepEqual(results[0], results[1]) || trees[0] != trees[1] {
				t.Fatalf("one exec: %+v\n%s\none per step: %+v\n%s", results[0], trees[0], results[1], trees[1])
			}
			r := results[0]
			if r.Applied != c.applied || (c.applied && (r.Method != "git apply --verbose" || trees[0] == "")) || (!c.applied && (len(r.Attempts) != 4 || trees[0] != "")) {
				t.Fatalf("cascade %+v, tree:\n%s", r, trees[0])
			}
		})
	}
}
