package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
)

// These tests run `polynfi eval --runtime kubernetes` against the real
// local cluster of k8s/cluster/up.sh (.ci/k8s.sh up and test in CI, after
// make test), its node's containerd fed from Docker (--node-containerd),
// the instance images built from the sample's Dockerfiles on the
// polybench_<language>_base images of .ci/docker.sh.

const clusterSocket = "/var/lib/polynfi-k8s/containerd/containerd.sock"

// testCluster returns the kubeconfig of the local cluster and a client.
func testCluster(t *testing.T) (string, kubernetes.Interface) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the sample in pods")
	}
	kc := citest.Kubeconfig(t)
	cfg, err := clientcmd.BuildConfigFromFlags("", kc)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cs.CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{}); err != nil {
		citest.Missing(t, "local Kubernetes cluster not answering: %v", err)
	}
	d, err := runtime.NewDocker(context.Background(), runtime.DockerOptions{})
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
func runPods(t *testing.T, cs kubernetes.Interface, out string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	list, err := cs.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: runtime.RunSelector(runKey(out))})
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
func awaitNoPods(t *testing.T, cs kubernetes.Interface, out string) {
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
func kubeRecords(t *testing.T, out string) map[string]harness.Record {
	t.Helper()
	recs := map[string]harness.Record{}
	filepath.WalkDir(out, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.Name() != harness.ResultFile {
			return nil
		}
		var rec harness.Record
		b, _ := os.ReadFile(p)
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if _, dup := recs[rec.InstanceID]; dup {
			t.Errorf("%s: a second record of %s", p, rec.InstanceID)
		}
		if rec.Sandbox == nil || rec.Sandbox.Runtime != "kubernetes" || rec.Sandbox.Isolation != runtime.IsolationPod ||
			rec.Sandbox.Node != "localhost" || !strings.HasPrefix(rec.Sandbox.ID, "polynfi-") {
			t.Errorf("%s: sandbox %+v, want a pod on node localhost", rec.InstanceID, rec.Sandbox)
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
				for _, m := range harness.Modes {
					if v := r.Verdicts.Get(m); v.Resolved != r.Resolved {
						t.Errorf("%s: %s verdict %s differs from native %s", id, m, v.Status, r.Status)
					}
				}
				if r.Resolved {
					got = append(got, id)
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
		list, err := cs.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{LabelSelector: runtime.RunSelector(runKey(out))})
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
