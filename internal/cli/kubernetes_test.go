package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runrecord"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
	"github.com/polynfi/polynfi/runtime/kube"
)

// These tests run `polynfi eval --runtime kubernetes` against the real
// local cluster of k8s/cluster/up.sh (.ci/k8s.sh up and test in CI, after
// make test), its node's containerd fed from Docker (--node-containerd),
// the instance images built from the sample's Dockerfiles on the
// polybench_<language>_base images of .ci/docker.sh.

const clusterSocket = "/var/lib/polynfi-k8s/containerd/containerd.sock"

// testCluster returns the kubeconfig of the local cluster and a client.
func testCluster(t testing.TB) (string, *kube.KubeClient) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the sample in pods")
	}
	kc := citest.Kubeconfig(t)
	cfg, err := clientcmd.BuildConfigFromFlags("", kc)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := kube.NewKubeClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cs.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err != nil {
		citest.Missing(t, "local Kubernetes cluster not answering: %v", err)
	}
	d, err := docker.NewDocker(context.Background(), docker.DockerOptions{})
	if err != nil {
		citest.Missing(t, "no docker engine to build the images (run .ci/docker.sh): %v", err)
		return "", nil
	}
	defer d.Close()
	for _, b := range []string{"polybench_python_base", "polybench_java_base", "polybench_javascript_base", "polybench_typescript_base"} {
		if _, err := d.Client().ImageInspect(context.Background(), b); err != nil {
			citest.Missing(t, "base image %s missing (run .ci/docker.sh): %v", b, err)
		}
	}
	return kc, cs
}

// runPods lists the pods of the run writing out (terminating ones too).
func runPods(t *testing.T, cs *kube.KubeClient, out string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	list, err := cs.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: kube.RunSelector(backend.RunKey(out))})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Items {
		names = append(names, p.Name)
	}
	return names
}

// awaitNoPods waits until no pod of the run writing out exists: pods are
// deleted with a grace period of 0, but the API server lists them until
// the kubelet has stopped their containers.
func awaitNoPods(t *testing.T, cs *kube.KubeClient, out string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		left := runPods(t, cs, out)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("pods of the run left: %v", left)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// kubeRecords reads the records under out, failing on a duplicate or a
// record that did not run in a pod of the local cluster's node.
func kubeRecords(t testing.TB, out string) map[string]runrecord.Record {
	t.Helper()
	recs := map[string]runrecord.Record{}
	filepath.WalkDir(out, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.Name() != runrecord.ResultFile {
			return nil
		}
		var rec runrecord.Record
		b, _ := os.ReadFile(p)
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if _, dup := recs[rec.InstanceID]; dup {
			t.Errorf("%s: a second record of %s", p, rec.InstanceID)
		}
		if rec.Sandbox == nil || rec.Sandbox.Runtime != "kubernetes" || rec.Sandbox.Isolation != kube.IsolationPod ||
			rec.Sandbox.Node != "localhost" || !strings.HasPrefix(rec.Sandbox.ID, "polynfi-") || rec.Sandbox.StartS <= 0 {
			t.Errorf("%s: sandbox %+v, want a pod on node localhost and its start latency", rec.InstanceID, rec.Sandbox)
		}
		recs[rec.InstanceID] = rec
		return nil
	})
	return recs
}

func kubeEvalArgs(kc, ds, preds, out string, workers int) []string {
	return []string{"eval", "--runtime", "kubernetes", "--kubeconfig", kc, "--node-containerd", clusterSocket,
		"--cache-level", "instance", "--dataset", ds, "--predictions", preds, "--out", out,
		"--workers", fmt.Sprint(workers), "--nfi=false", "--retrieval", "off"}
}

// TestKubernetesSampleVerdicts runs the bundled sample on the local
// cluster, a pod per instance: gold resolves all 8 instances, the empty
// predictions none, the set with one wrong patch per language exactly the
// 4 others (the verdicts TestBundledSample checks for the local and docker
// runtimes); every record names the pod and the node, no instance is an
// infra failure, every grading mode agrees, and no pod of a run is left.
func TestKubernetesSampleVerdicts(t *testing.T) {
	kc, cs := testCluster(t)
	bin := buildPolynfi(t)
	dir, _ := filepath.Abs("../../examples/polybench")
	dsPath := filepath.Join(dir, "dataset.csv")
	ds, err := dataset.Load(dsPath)
	if err != nil || len(ds.Instances) != 8 {
		t.Fatalf("sample: %v, %d instances", err, len(ds.Instances))
	}
	gold := map[string]string{}
	for _, in := range ds.Instances {
		gold[in.InstanceID] = in.Patch
	}
	for _, tc := range []struct {
		name, preds string
		resolved    int
	}{
		{"gold", "gold", 8},
		{"empty", filepath.Join(dir, "predictions-empty.jsonl"), 0},
		{"one wrong per language", filepath.Join(dir, "predictions-wrong.jsonl"), 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// the instances the set must resolve: those whose patch is the gold one
			var want []string
			if tc.preds == "gold" {
				for id := range gold {
					want = append(want, id)
				}
			} else {
				ps, err := dataset.LoadPredictions(tc.preds)
				if err != nil || len(ps.Errors) > 0 {
					t.Fatalf("%s: %v %v", tc.preds, err, ps.Errors)
				}
				for _, p := range ps.Predictions {
					if !p.Empty() && p.ModelPatch == gold[p.InstanceID] {
						want = append(want, p.InstanceID)
					}
				}
			}
			sort.Strings(want)
			if len(want) != tc.resolved {
				t.Fatalf("%s: %d gold patches, want %d", tc.preds, len(want), tc.resolved)
			}
			out := filepath.Join(t.TempDir(), "out")
			cmd := exec.Command(bin, kubeEvalArgs(kc, dsPath, tc.preds, out, 4)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			t0 := time.Now()
			err := cmd.Run()
			t.Logf("%s: %.0f s", tc.name, time.Since(t0).Seconds())
			if code := cmd.ProcessState.ExitCode(); err != nil && code != ExitFindings {
				t.Fatalf("eval: %v\n%s", err, stderr.String())
			}
			recs := kubeRecords(t, out)
			if len(recs) != 8 {
				t.Fatalf("%d records, want 8\n%s", len(recs), stderr.String())
			}
			var got []string
			for id, r := range recs {
				if r.InfraReason != "" || r.Error != "" {
					t.Errorf("%s: infra %q error %q", id, r.InfraReason, r.Error)
				}
				for _, m := range grading.Modes {
					if v := r.Verdicts.Get(m); v.Resolved != r.Resolved {
						t.Errorf("%s: %s verdict %s differs from native %s", id, m, v.Status, r.Status)
					}
				}
				if r.Resolved {
					got = append(got, id)
				}
				// the gold run copied the images into the node: later runs
				// find them there and copy nothing
				if tc.preds != "gold" && (r.Image == nil || !slices.ContainsFunc(r.Image.Notes, func(n string) bool {
					return strings.HasPrefix(n, "already in the node's containerd")
				})) {
					t.Errorf("%s: image %+v, want it found in the node's containerd, not copied again", id, r.Image)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("resolved %v, want %v", got, want)
			}
			if !strings.Contains(stdout.String(), fmt.Sprintf("resolved %d/8", tc.resolved)) {
				t.Errorf("summary:\n%s", stdout.String())
			}
			awaitNoPods(t, cs, out)
		})
	}
}

// TestKubernetesKilledRunLeavesNothing SIGKILLs a real `polynfi eval
// --runtime kubernetes` while its pods run, so that nothing deletes them,
// then runs the same command to the end: it deletes the killed run's pods
// first (and says so), every instance is recorded exactly once, resolved,
// and no pod of the run is left.
func TestKubernetesKilledRunLeavesNothing(t *testing.T) {
	kc, cs := testCluster(t)
	bin := buildPolynfi(t)
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	out := filepath.Join(t.TempDir(), "out")
	args := append(kubeEvalArgs(kc, ds, "gold", out, 2), "--instance-ids",
		"tidyledger__ledgerkit-12,tidyledger__ledgerkit-15,semverish__tinysemver-21,semverish__tinysemver-24")

	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr, cmd.Stdout = &stderr, &bytes.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Minute)
	for len(runPods(t, cs, out)) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	left := runPods(t, cs, out)
	t.Logf("after SIGKILL: pods %v left for the next start to delete; stderr:\n%s", left, stderr.String())
	if len(left) == 0 {
		t.Fatal("no pod of the killed run exists: the kill came too late to test anything")
	}

	final := exec.Command(bin, args...)
	var fout, ferr bytes.Buffer
	final.Stdout, final.Stderr = &fout, &ferr
	if err := final.Run(); err != nil {
		t.Fatalf("final run: %v\n%s", err, ferr.String())
	}
	if !strings.Contains(ferr.String(), "left by an interrupted run") {
		t.Errorf("final run did not report deleting the %d pods of the killed run:\n%s", len(left), ferr.String())
	}
	awaitNoPods(t, cs, out)
	recs := kubeRecords(t, out)
	if n, tmp := countRecords(t, out); n != 4 || tmp != 0 || len(recs) != 4 {
		t.Errorf("%d records (%d instances) and %d temp files, want 4 and 0", n, len(recs), tmp)
	}
	for id, r := range recs {
		if !r.Resolved {
			t.Errorf("%s unresolved: %s %s", id, r.Status, r.Error)
		}
	}
	if !strings.Contains(fout.String(), "resolved 4/4") {
		t.Errorf("final summary:\n%s", fout.String())
	}
}

// TestKubernetesImagesPushAndPull pushes two sample instances' images with
// `polynfi images build --push` to the loopback registry of
// k8s/cluster/registry.sh (a real CNCF Distribution registry) through the
// Docker Engine API, checks the registry holds them, then runs `eval
// --runtime kubernetes --image-template` with the printed template and no
// --node-containerd: the names are new to the node, so its containerd
// must pull them from the registry; both instances resolve in pods.
func TestKubernetesImagesPushAndPull(t *testing.T) {
	kc, cs := testCluster(t)
	reg := os.Getenv("POLYNFI_K8S_REGISTRY")
	if reg == "" {
		reg = "127.0.0.1:5000"
	}
	if resp, err := http.Get("http://" + reg + "/v2/"); err != nil || resp.StatusCode != 200 {
		citest.Missing(t, "no registry at %s (k8s/cluster/registry.sh; .ci/k8s.sh up starts it): %v", reg, err)
	} else {
		resp.Body.Close()
	}
	bin := buildPolynfi(t)
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	ids := []string{"tidyledger__ledgerkit-12", "semverish__tinysemver-21"}
	repo := fmt.Sprintf("polynfi-test/push-%d", time.Now().UnixNano())
	prefix := reg + "/" + repo
	out := filepath.Join(t.TempDir(), "out")

	cmd := exec.Command(bin, "images", "build", "--dataset", ds, "--instance-ids", strings.Join(ids, ","),
		"--push", prefix, "--out", out, "--format", "json")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("images build --push: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var results []struct {
		ID     string        `json:"instance_id"`
		Pushed images.Pushed `json:"pushed"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &results); err != nil || len(results) != 2 {
		t.Fatalf("images build output: %v\n%s", err, stdout.String())
	}
	for _, r := range results {
		name := prefix + "/" + r.ID + ":latest"
		t.Cleanup(func() { exec.Command("docker", "image", "rm", name).Run() }) // the tag only
		if r.Pushed.Name != name || !strings.HasPrefix(r.Pushed.Digest, "sha256:") {
			t.Errorf("%s: pushed %+v, want %s with a digest", r.ID, r.Pushed, name)
		}
		// the registry serves the manifest under the digest the engine reported
		req, _ := http.NewRequest("HEAD", "http://"+reg+"/v2/"+repo+"/"+r.ID+"/manifests/latest", nil)
		req.Header.Set("Accept", "application/vnd.docker.distribution.manifest.v2+json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Docker-Content-Digest") != r.Pushed.Digest {
			t.Errorf("%s: registry answers %d, digest %q, want 200 and %s", r.ID, resp.StatusCode, resp.Header.Get("Docker-Content-Digest"), r.Pushed.Digest)
		}
	}

	runOut := filepath.Join(t.TempDir(), "run")
	eval := exec.Command(bin, "eval", "--runtime", "kubernetes", "--kubeconfig", kc,
		"--image-template", images.PushTemplate(prefix), "--dataset", ds, "--predictions", "gold",
		"--instance-ids", strings.Join(ids, ","), "--out", runOut, "--workers", "2", "--nfi=false", "--retrieval", "off")
	stdout.Reset()
	stderr.Reset()
	eval.Stdout, eval.Stderr = &stdout, &stderr
	if err := eval.Run(); err != nil {
		t.Fatalf("eval from the registry: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	recs := kubeRecords(t, runOut)
	for _, id := range ids {
		r, ok := recs[id]
		if !ok || !r.Resolved || r.Image == nil || r.Image.Image != prefix+"/"+id || r.Image.Source != images.SourceTemplate {
			t.Errorf("%s: record %+v image %+v, want resolved from %s/%s", id, ok, r.Image, prefix, id)
		}
	}
	awaitNoPods(t, cs, runOut)
}

// TestKubernetesPodDeletedIsRetried deletes the pod of a real `polynfi eval
// --runtime kubernetes` as soon as it runs (as a node drain, a preemption or
// an operator would): that attempt is an infra failure (sandbox_gone), never
// the model's, and the instance is evaluated again in a new pod: resolved,
// after 2 attempts.
func TestKubernetesPodDeletedIsRetried(t *testing.T) {
	kc, cs := testCluster(t)
	bin := buildPolynfi(t)
	ds, _ := filepath.Abs("../../examples/polybench/dataset.csv")
	out := filepath.Join(t.TempDir(), "out")
	args := append(kubeEvalArgs(kc, ds, "gold", out, 1), "--instance-ids", "tidyledger__ledgerkit-12")
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deleted := ""
	zero := int64(0)
	for deleted == "" {
		select {
		case err := <-done:
			t.Fatalf("the run ended before its pod ran: %v\n%s", err, stderr.String())
		case <-time.After(100 * time.Millisecond):
		}
		list, err := cs.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{LabelSelector: kube.RunSelector(backend.RunKey(out))})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range list.Items {
			if p.Status.Phase == "Running" && p.DeletionTimestamp == nil {
				if err := cs.CoreV1().Pods("default").Delete(context.Background(), p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
					t.Fatal(err)
				}
				deleted = p.Name
			}
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("eval: %v\n%s", err, stderr.String())
	}
	recs := kubeRecords(t, out)
	r, ok := recs["tidyledger__ledgerkit-12"]
	if !ok || !r.Resolved || r.Attempts != 2 || r.Sandbox.ID == deleted || r.InfraReason != "" {
		t.Errorf("record after deleting pod %s: %+v (attempts %d, pod %v)\n%s", deleted, ok, r.Attempts, r.Sandbox, stderr.String())
	}
	awaitNoPods(t, cs, out)
}

// clusterState is the local cluster's state directory (k8s/cluster/up.sh).
func clusterState() string {
	if s := os.Getenv("POLYNFI_K8S_STATE"); s != "" {
		return s
	}
	return "/var/lib/polynfi-k8s"
}

// clusterPid returns the pid of the local cluster's component name from
// its pid file, checked against the process's command line.
func clusterPid(t *testing.T, name string) (int, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(clusterState(), "pids", name))
	if err != nil {
		citest.Missing(t, "no %s pid file of the local cluster: %v", name, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s pid file: %v", name, err)
	}
	cl, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || !strings.Contains(string(cl), name) {
		t.Fatalf("pid %d of the %s pid file is not %s (%v): %q", pid, name, name, err, cl)
	}
	return pid, strings.ReplaceAll(string(cl), "\x00", " ")
}

// processWithArgs returns the pid of a process whose argv is exactly argv.
// It reads the command line (which waits on the process's memory map lock,
// for a long time on a process thrashing under load) only of processes
// whose name (/proc/PID/comm, which does not) is argv[0]'s.
func processWithArgs(argv []string) int {
	want := strings.Join(argv, "\x00") + "\x00"
	comm := filepath.Base(argv[0])
	if len(comm) > 15 {
		comm = comm[:15]
	}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if c, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err != nil || strings.TrimSpace(string(c)) != comm {
			continue
		}
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && string(b) == want {
			return pid
		}
	}
	return 0
}

// nodeReady returns the local node's Ready condition status ("True",
// "False", "Unknown", or "" when it cannot be read) and its taints.
func nodeReady(cs *kube.KubeClient) (string, []string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := cs.CoreV1().Nodes().Get(ctx, "localhost", metav1.GetOptions{})
	if err != nil {
		return "", nil
	}
	var taints []string
	for _, tn := range n.Spec.Taints {
		taints = append(taints, tn.Key+":"+string(tn.Effect))
	}
	for _, c := range n.Status.Conditions {
		if c.Type == "Ready" {
			return string(c.Status), taints
		}
	}
	return "", taints
}

// TestKubernetesNodeLostIsRetried loses the node for real under a running
// `polynfi eval --runtime kubernetes`: while the instance's test command
// runs in its pod (seen on this single-node machine as the command's own
// process), the kubelet is frozen (SIGSTOP). Its lease renewals stop, the
// controller manager marks the node Ready=Unknown after its
// --node-monitor-grace-period (20 s on the test cluster) and the pod not
// ready, while the exec stream, relayed by the frozen kubelet, stalls. The
// runtime must end that attempt as an infra failure node_lost (never the
// model's), the kubelet is then resumed (SIGCONT), and the retry runs in a
// new pod and is graded as usual: resolved, 2 attempts, the first one's
// reason and pod in the record. The kubelet is resumed in a cleanup on
// every path, and by a detached watchdog process should this test binary
// die first.
func TestKubernetesNodeLostIsRetried(t *testing.T) {
	kc, cs := testCluster(t)
	kubelet, _ := clusterPid(t, "kubelet")
	_, kcm := clusterPid(t, "kube-controller-manager")
	if !strings.Contains(kcm, "--node-monitor-grace-period=") {
		t.Fatalf("the cluster's controller manager runs without a short --node-monitor-grace-period (restart it: .ci/k8s.sh up): %s", kcm)
	}
	if st, taints := nodeReady(cs); st != "True" || len(taints) > 0 {
		t.Fatalf("node localhost Ready=%q, taints %v before the test", st, taints)
	}
	bin := buildPolynfi(t)

	// The sample's Python instance, its test command run after a sleep
	// whose argument is unique to this test run: the process to wait for.
	const id = "tidyledger__ledgerkit-12"
	sample, _ := filepath.Abs("../../examples/polybench")
	dir := t.TempDir()
	for _, d := range []string{"repos", "env"} {
		if err := os.Symlink(filepath.Join(sample, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	sleepArg := fmt.Sprintf("45.%06d", time.Now().UnixNano()%1e6)
	f, err := os.Open(filepath.Join(sample, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "test_command")
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(rows[0])
	for _, r := range rows[1:] {
		if r[0] == id {
			r[col] = "sleep " + sleepArg + "; " + r[col]
			w.Write(r)
		}
	}
	w.Flush()
	ds := filepath.Join(dir, "dataset.csv")
	if err := os.WriteFile(ds, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	// Resume the kubelet whatever happens: a cleanup, and a detached
	// watchdog (its own session) in case this process is killed.
	resumed := false
	resume := func() {
		if !resumed {
			resumed = true
			if err := syscall.Kill(kubelet, syscall.SIGCONT); err != nil {
				t.Errorf("SIGCONT kubelet %d: %v", kubelet, err)
			}
		}
	}
	t.Cleanup(resume)
	wd := exec.Command("/bin/sh", "-c", fmt.Sprintf(`sleep 900; grep -q kubelet /proc/%d/cmdline && kill -CONT %d`, kubelet, kubelet))
	wd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := wd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wd.Process.Kill(); wd.Wait() })

	out := filepath.Join(dir, "out")
	cmd := exec.Command(bin, append(kubeEvalArgs(kc, ds, "gold", out, 1), "--instance-ids", id)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			<-done
		}
	})
	ended := func() bool {
		select {
		case err := <-done:
			done <- err
			return true
		default:
			return false
		}
	}

	// 1. wait for the test command to run (the image may be built first)
	deadline := time.Now().Add(15 * time.Minute)
	scans, slowest := 0, time.Duration(0)
	for {
		t1 := time.Now()
		found := processWithArgs([]string{"sleep", sleepArg}) != 0
		scans++
		slowest = max(slowest, time.Since(t1))
		if found {
			break
		}
		if ended() || time.Now().After(deadline) {
			t.Fatalf("the instance's test command (sleep %s) never seen running in %d scans of /proc (slowest %s; eval ended: %v)\n%s",
				sleepArg, scans, slowest.Round(time.Millisecond), ended(), stderr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	pods := runPods(t, cs, out)
	if len(pods) != 1 {
		t.Fatalf("pods of the run while its test runs: %v, want 1", pods)
	}
	first := pods[0]

	// 2. lose the node
	t0 := time.Now()
	if err := syscall.Kill(kubelet, syscall.SIGSTOP); err != nil {
		citest.Missing(t, "cannot freeze the kubelet (pid %d): %v", kubelet, err)
	}
	t.Logf("kubelet %d frozen while pod %s runs the test command", kubelet, first)

	// 3. the attempt ends: its pod is deleted (or a new one created); the
	// node goes Ready=Unknown on the way
	sawUnknown := false
	deadline = time.Now().Add(5 * time.Minute)
	for {
		if st, _ := nodeReady(cs); st == "Unknown" && !sawUnknown {
			sawUnknown = true
			t.Logf("node Ready=Unknown after %.0f s", time.Since(t0).Seconds())
		}
		now := runPods(t, cs, out)
		if !slices.Contains(now, first) || len(now) > 1 {
			t.Logf("attempt 1 over after %.0f s (pods now %v)", time.Since(t0).Seconds(), now)
			break
		}
		if ended() {
			t.Fatalf("eval ended with the kubelet frozen\n%s", stderr.String())
		}
		if time.Now().After(deadline) {
			t.Fatalf("pod %s still there %s after the kubelet froze (node ready seen Unknown: %v)\n%s", first, time.Since(t0).Round(time.Second), sawUnknown, stderr.String())
		}
		time.Sleep(500 * time.Millisecond)
	}
	if !sawUnknown {
		if st, _ := nodeReady(cs); st == "Unknown" {
			sawUnknown = true
		}
	}
	if !sawUnknown {
		t.Errorf("the attempt ended before the node was seen Ready=Unknown")
	}

	// 4. the node comes back; the retry runs and is graded
	resume()
	t.Logf("kubelet resumed after %.0f s", time.Since(t0).Seconds())
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("eval: %v\n%s", err, stderr.String())
		}
	case <-time.After(15 * time.Minute):
		t.Fatalf("eval still running 15 min after the kubelet resumed\n%s", stderr.String())
	}
	recs := kubeRecords(t, out)
	r, ok := recs[id]
	if !ok {
		t.Fatalf("no record of %s\n%s", id, stderr.String())
	}
	if !r.Resolved || r.InfraReason != "" || r.Attempts != 2 || r.Sandbox.ID == first {
		t.Errorf("record: resolved %v status %s infra %q attempts %d pod %s (the lost one %s), want resolved after 2 attempts in a new pod\n%s",
			r.Resolved, r.Status, r.InfraReason, r.Attempts, r.Sandbox.ID, first, stderr.String())
	}
	// pytest exits 1 for the harness's must-fail canary (harness/canary.go).
	if r.Test == nil || r.Test.ExitCode != 1 || len(r.Test.Canaries) != 2 || r.Test.NumResults == 0 || r.Test.DurationS < 45 {
		t.Errorf("the retry's test run: %+v, want the whole command (sleep 45 s, then pytest) run and its results read", r.Test)
	}
	if len(r.RetriedInfraFailures) != 1 {
		t.Fatalf("retried infra failures %+v, want the lost attempt", r.RetriedInfraFailures)
	}
	lost := r.RetriedInfraFailures[0]
	if lost.Reason != runtime.ReasonNodeLost || lost.Sandbox == nil || lost.Sandbox.ID != first || !strings.Contains(lost.Error, "node localhost") {
		t.Errorf("the lost attempt: %+v, want %s naming node localhost in pod %s", lost, runtime.ReasonNodeLost, first)
	}
	t.Logf("the lost attempt: %s: %s", lost.Reason, lost.Error)
	if !strings.Contains(stdout.String(), "resolved 1/1") {
		t.Errorf("summary:\n%s", stdout.String())
	}
	awaitNoPods(t, cs, out)
	// leave the node as found: Ready and untainted
	deadline = time.Now().Add(5 * time.Minute)
	for {
		st, taints := nodeReady(cs)
		if st == "True" && len(taints) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("node Ready=%s taints %v 5 min after the kubelet resumed", st, taints)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// deadlineDataset writes a copy of the bundled sample holding only the
// instances of cmds, each with cmds[id] as its test command (the images
// are the sample's: same Dockerfile, same repository), and returns its
// path and the eval arguments that run it with the sample's clones.
func deadlineDataset(t *testing.T, cmds map[string]string) (string, []string) {
	t.Helper()
	dir, _ := filepath.Abs("../../examples/polybench")
	f, err := os.Open(filepath.Join(dir, "dataset.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "test_command")
	keep := [][]string{rows[0]}
	for _, r := range rows[1:] {
		if c, ok := cmds[r[0]]; ok {
			r[col] = c
			keep = append(keep, r)
		}
	}
	if len(keep) != len(cmds)+1 {
		t.Fatalf("%d of the instances %v in the sample", len(keep)-1, cmds)
	}
	ds := filepath.Join(t.TempDir(), "dataset.csv")
	out, err := os.Create(ds)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(out)
	w.WriteAll(keep)
	if err := out.Close(); err != nil || w.Error() != nil {
		t.Fatal(err, w.Error())
	}
	return ds, []string{"--repos-dir", filepath.Join(dir, "repos")}
}

// cleanupRun deletes what the run writing out left in the cluster (its
// pods, ended or not) with `polynfi cleanup`, and waits until no pod of it
// is listed.
func cleanupRun(t *testing.T, bin, kc string, cs *kube.KubeClient, out string) {
	t.Helper()
	if b, err := exec.Command(bin, "cleanup", "--runtime", "kubernetes", "--kubeconfig", kc, "--out", out).CombinedOutput(); err != nil {
		t.Errorf("cleanup: %v\n%s", err, b)
	}
	awaitNoPods(t, cs, out)
}

// TestKubernetesKilledDriverPodsEnd SIGKILLs a real `polynfi eval --runtime
// kubernetes --pod-deadline 30s` while its instance's test command (a
// sleep of a day) runs in its pod, and no run of the same command
// follows: the pod ends by itself, ended by the kubelet at its deadline
// (Failed, DeadlineExceeded), within 30 s of its container running plus
// a grace for the kubelet's loop, and its processes are gone from the
// node (this machine).
func TestKubernetesKilledDriverPodsEnd(t *testing.T) {
	kc, cs := testCluster(t)
	bin := buildPolynfi(t)
	const id = "tidyledger__ledgerkit-12"
	sleep := []string{"sleep", fmt.Sprintf("86399.%d", time.Now().UnixNano()%1e6)}
	ds, extra := deadlineDataset(t, map[string]string{id: strings.Join(sleep, " ")})
	out := filepath.Join(t.TempDir(), "out")
	args := append(kubeEvalArgs(kc, ds, "gold", out, 1), append(extra, "--pod-deadline", "30s", "--timeout", "10m", "--retries", "0")...)
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr, cmd.Stdout = &stderr, &bytes.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill(); <-done; cleanupRun(t, bin, kc, cs, out) })
	deadline := time.Now().Add(5 * time.Minute)
	for processWithArgs(sleep) == 0 {
		select {
		case err := <-done:
			done <- err
			t.Fatalf("the run ended before its test command ran: %v\n%s", err, stderr.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the test command never ran in its pod:\n%s", stderr.String())
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	killed := time.Now()
	done <- <-done

	pods, err := cs.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{LabelSelector: kube.RunSelector(backend.RunKey(out))})
	if err != nil || len(pods.Items) != 1 {
		t.Fatalf("pods of the killed run: %v %d, want 1", err, len(pods.Items))
	}
	p := pods.Items[0]
	var running time.Time
	if len(p.Status.ContainerStatuses) == 1 && p.Status.ContainerStatuses[0].State.Running != nil {
		running = p.Status.ContainerStatuses[0].State.Running.StartedAt.Time
	}
	if running.IsZero() || p.Spec.ActiveDeadlineSeconds == nil {
		t.Fatalf("pod %s after the kill: %+v, deadline %v", p.Name, p.Status, p.Spec.ActiveDeadlineSeconds)
	}
	t.Logf("SIGKILL %.1f s after the container of pod %s started; activeDeadlineSeconds %d", killed.Sub(running).Seconds(), p.Name, *p.Spec.ActiveDeadlineSeconds)
	var failed, gone time.Duration
	for failed == 0 || gone == 0 {
		if gone == 0 && processWithArgs(sleep) == 0 {
			gone = time.Since(killed)
		}
		if failed == 0 {
			q, err := cs.CoreV1().Pods("default").Get(context.Background(), p.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatalf("pod %s: %v (nothing may delete it: its driver is dead)", p.Name, err)
			}
			if q.Status.Phase == "Failed" {
				if q.Status.Reason != "DeadlineExceeded" {
					t.Errorf("pod %s failed with %q, want DeadlineExceeded", p.Name, q.Status.Reason)
				}
				failed = time.Since(killed)
			}
		}
		if time.Since(running) > 30*time.Second+2*time.Minute {
			t.Fatalf("%.0f s after its container started (deadline 30 s): pod %s failed after %v, processes gone after %v", time.Since(running).Seconds(), p.Name, failed, gone)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("after the SIGKILL: the test command's process gone in %.1f s, pod Failed (DeadlineExceeded) in %.1f s; %.1f s and %.1f s after its container started",
		gone.Seconds(), failed.Seconds(), killed.Add(gone).Sub(running).Seconds(), killed.Add(failed).Sub(running).Seconds())
	if end := killed.Add(gone).Sub(running); end < 29*time.Second || end > 30*time.Second+time.Minute {
		t.Errorf("processes gone %s after the container started, want at its 30 s deadline (+ up to a minute for a loaded kubelet)", end)
	}
}

// TestKubernetesPodDeadlineRecords runs `polynfi eval --runtime kubernetes
// --pod-deadline` on two instances whose pods reach their deadline while
// the driver runs. One whose test command (a sleep of a day, with a
// 10 min timeout) is still within its timeout at its 25 s deadline is an
// infra failure deadline_exceeded, tried once more in a new pod
// (--retries 1) with the same end. One whose test command outlived its
// 5 s timeout at its 45 s deadline (its sleeps in their own process
// groups, out of reach of the in-pod timeout, holding the output open) is
// the test's verdict: timed_out in every mode, with a note naming the
// deadline. Both records carry the pod's deadline (sandbox.deadline_s).
func TestKubernetesPodDeadlineRecords(t *testing.T) {
	kc, cs := testCluster(t)
	bin := buildPolynfi(t)
	const within, past = "tidyledger__ledgerkit-12", "tidyledger__ledgerkit-15"
	u := time.Now().UnixNano() % 1e6
	ds, extra := deadlineDataset(t, map[string]string{
		within: fmt.Sprintf("sleep 86398.%d", u),
		past:   fmt.Sprintf("set -m; sleep 86397.%d & sleep 86397.%d", u, u),
	})
	recs := map[string]runrecord.Record{}
	for _, tc := range []struct{ id, timeout, deadline string }{{within, "10m", "25s"}, {past, "5s", "45s"}} {
		out := filepath.Join(t.TempDir(), "out")
		t.Cleanup(func() { cleanupRun(t, bin, kc, cs, out) })
		args := append(kubeEvalArgs(kc, ds, "gold", out, 1), append(extra, "--instance-ids", tc.id,
			"--pod-deadline", tc.deadline, "--timeout", tc.timeout, "--retries", "1")...)
		cmd := exec.Command(bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		t0 := time.Now()
		err := cmd.Run()
		t.Logf("%s (--timeout %s): %.0f s, %v\n%s", tc.id, tc.timeout, time.Since(t0).Seconds(), err, stdout.String())
		if code := cmd.ProcessState.ExitCode(); err != nil && code != ExitFindings {
			t.Fatalf("eval: %v\n%s", err, stderr.String())
		}
		for id, r := range kubeRecords(t, out) {
			recs[id] = r
		}
	}
	if r := recs[within]; r.Status != grading.StatusInfraFailure || r.InfraReason != runtime.ReasonDeadline ||
		!strings.Contains(r.Error, "deadline") || r.Attempts != 2 || len(r.RetriedInfraFailures) != 1 ||
		r.RetriedInfraFailures[0].Reason != runtime.ReasonDeadline || r.Sandbox.DeadlineS != 25 {
		t.Errorf("%s, within its timeout: status %s reason %q attempts %d retried %+v deadline %v error %q, want infra_failure %s after 2 attempts",
			within, r.Status, r.InfraReason, r.Attempts, r.RetriedInfraFailures, r.Sandbox.DeadlineS, r.Error, runtime.ReasonDeadline)
	}
	r := recs[past]
	if r.Status != grading.StatusTimedOut || r.InfraReason != "" || r.Attempts > 1 || r.Test == nil || !r.Test.TimedOut ||
		!strings.Contains(strings.Join(r.Test.Notes, " "), "deadline") || r.Sandbox.DeadlineS != 45 {
		t.Errorf("%s, past its timeout: status %s reason %q attempts %d test %+v deadline %v, want timed_out with a note of the deadline",
			past, r.Status, r.InfraReason, r.Attempts, r.Test, r.Sandbox.DeadlineS)
	}
	for _, m := range grading.Modes {
		if v := r.Verdicts.Get(m); v.Status != grading.StatusTimedOut {
			t.Errorf("%s: %s verdict %s, want timed_out", past, m, v.Status)
		}
	}
	if r.Test != nil {
		t.Logf("%s: test %+v", past, *r.Test)
	}
}

// Trial of #16: `eval --runtime kubernetes --namespace nope` said
// "--runtime kubernetes: kubernetes: namespace "nope" does not exist"
// (the runtime's prefix under the flag's). Said once, naming the flag.
func TestKubernetesMissingNamespaceSaidOnce(t *testing.T) {
	t.Parallel()
	kc := citest.Kubeconfig(t)
	ds := evalFixture(t, 1, "0")
	_, stderr, code := runCLI(t, "eval", "--runtime", "kubernetes", "--kubeconfig", kc, "--namespace", "polynfi-no-such-namespace",
		"--dataset", ds, "--predictions", "gold", "--out", t.TempDir())
	if code == ExitOK || !strings.Contains(stderr, `namespace "polynfi-no-such-namespace" does not exist`) {
		t.Fatalf("exit %d, want an error naming the missing namespace\n%s", code, stderr)
	}
	if strings.Contains(stderr, "kubernetes: kubernetes") {
		t.Errorf("the runtime is named twice:\n%s", stderr)
	}
}
