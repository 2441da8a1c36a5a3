package kube

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// These tests run against the real local cluster of k8s/cluster/up.sh
// (make cluster-up; .ci/k8s.sh in CI) and its test image
// (k8s/cluster/test-image.sh). Without a cluster they skip, except under
// CI=true, where they fail.

const k8sTestImage = "localhost/polynfi/k8s-test:1"

func testKubeconfig(t *testing.T) string {
	t.Helper()
	return citest.Kubeconfig(t)
}

func newTestKube(t *testing.T, runID string, mod func(*KubernetesOptions)) *Kubernetes {
	t.Helper()
	opts := KubernetesOptions{Kubeconfig: testKubeconfig(t), RunID: runID, Owner: "go-test", PendingTimeout: 2 * time.Minute}
	if mod != nil {
		mod(&opts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	k, err := NewKubernetes(ctx, opts)
	if err != nil {
		if runtime.InfraReason(err) == runtime.ReasonDaemon {
			citest.Missing(t, "local Kubernetes cluster not answering: %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := k.Cleanup(ctx, runID); err != nil {
			t.Errorf("cleanup of %s: %v", runID, err)
		}
		k.Close()
	})
	return k
}

func testRunID(t *testing.T) string {
	return strings.ToLower(fmt.Sprintf("test-%s-%d", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().UnixNano()%1e6))
}

func startPod(t *testing.T, k *Kubernetes, spec runtime.Spec) runtime.Sandbox {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	sb, err := k.Start(ctx, spec)
	if err != nil {
		t.Fatalf("start pod from %s: %v (is the test image loaded? k8s/cluster/test-image.sh)", spec.Image, err)
	}
	t.Cleanup(func() { _ = sb.Remove(context.Background()) })
	return sb
}

func TestKubernetesSandbox(t *testing.T) {
	k := newTestKube(t, testRunID(t), nil)
	ctx := context.Background()
	sb := startPod(t, k, runtime.Spec{Name: "Sandbox_Test/1", Image: k8sTestImage, Workdir: "/work", Language: "Java",
		Env: []string{"FOO=bar", "TZ=Europe/Paris"}, Labels: map[string]string{"polynfi.io/instance": "org__repo-1"}})
	info := sb.Info()
	if info.Runtime != "kubernetes" || info.Isolation != IsolationPod || info.Node != "localhost" ||
		!strings.HasPrefix(info.ID, "polynfi-sandbox-test-1-") || info.Image != k8sTestImage {
		t.Fatalf("info = %+v", info)
	}
	if StartLatency(sb) <= 0 {
		t.Errorf("start latency %v", StartLatency(sb))
	}

	// The pod as the API server holds it: isolation rules, owner, labels.
	pod, err := k.Client().CoreV1().Pods(k.Namespace()).Get(ctx, info.ID, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := pod.Spec.Containers[0]
	sc := c.SecurityContext
	if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
		len(sc.Capabilities.Drop) != 1 || sc.Capabilities.Drop[0] != "ALL" ||
		sc.SeccompProfile == nil || sc.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Errorf("security context %+v", sc)
	}
	for _, v := range pod.Spec.Volumes {
		if v.Projected != nil {
			t.Errorf("a service-account token is mounted: volume %s", v.Name)
		}
	}
	if len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].Kind != "ConfigMap" {
		t.Errorf("owner references %+v", pod.OwnerReferences)
	}
	if pod.Labels[LabelRunID] == "" || pod.Labels[LabelManagedBy] != "polynfi" || pod.Labels["polynfi.io/instance"] != "org__repo-1" {
		t.Errorf("labels %v", pod.Labels)
	}
	// The deadline: Java's test timeout + the allowance after the
	// container started (lowered from PendingTimeout + that at creation).
	if want := 1800 + 600; info.DeadlineS != float64(want) || pod.Spec.ActiveDeadlineSeconds == nil ||
		*pod.Spec.ActiveDeadlineSeconds < int64(want) || *pod.Spec.ActiveDeadlineSeconds > int64(want)+int64(info.StartS)+2 {
		t.Errorf("deadline %v s, activeDeadlineSeconds %v (start %.1f s), want %d s after the start", info.DeadlineS, pod.Spec.ActiveDeadlineSeconds, info.StartS, want)
	}
	// Java's default resources; a request never above its limit.
	if q := c.Resources.Limits[corev1.ResourceMemory]; q.String() != "6Gi" {
		t.Errorf("java memory limit %s, want 6Gi", q.String())
	}
	nps, err := k.Client().NetworkingV1().NetworkPolicies(k.Namespace()).List(ctx, metav1.ListOptions{LabelSelector: LabelSession + "=" + k.Session()})
	if err != nil || len(nps.Items) != 1 || len(nps.Items[0].Spec.Ingress) != 0 || len(nps.Items[0].Spec.Egress) != 0 || len(nps.Items[0].Spec.PolicyTypes) != 2 {
		t.Errorf("deny-all network policy: %v %+v", err, nps)
	}

	// Exec: exit codes, streams, environment, working directory.
	res, err := sb.Exec(ctx, runtime.Command{Script: `echo "$FOO $TZ $PYTHONHASHSEED $(pwd)"; echo oops >&2; exit 3`})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || string(res.Stdout) != "bar UTC 0 /work\n" || string(res.Stderr) != "oops\n" || res.Isolation != IsolationPod {
		t.Errorf("exec: exit %d stdout %q stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	res, err = sb.Exec(ctx, runtime.Command{Args: []string{"id", "-u"}, Dir: "/tmp", Env: []string{"X=1"}})
	if err != nil || res.ExitCode != 0 || string(res.Stdout) != "0\n" {
		t.Errorf("exec id: %v %d %q %q", err, res.ExitCode, res.Stdout, res.Stderr)
	}
	// No capability: root cannot chown.
	res, err = sb.Exec(ctx, runtime.Command{Script: `touch() { : > "$1"; }; touch f && chown 65534 f`})
	if err != nil || res.ExitCode == 0 {
		t.Errorf("chown without CAP_CHOWN succeeded: %v %d", err, res.ExitCode)
	}

	// Files in and out, nested, with modes; a missing path gives nothing.
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	in := []runtime.File{{Path: "a.txt", Data: []byte("alpha\n")}, {Path: "sub/dir/run.sh", Mode: 0o755, Data: []byte("#!/bin/sh\necho ran\n")}, {Path: "sub/big.bin", Data: big}}
	if err := sb.CopyIn(ctx, "inbox", in); err != nil {
		t.Fatal(err)
	}
	res, err = sb.Exec(ctx, runtime.Command{Args: []string{"./run.sh"}, Dir: "inbox/sub/dir"})
	if err != nil || string(res.Stdout) != "ran\n" {
		t.Errorf("run copied script: %v %q %q", err, res.Stdout, res.Stderr)
	}
	out, err := sb.CopyOut(ctx, "inbox", 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]runtime.File{}
	for _, f := range out {
		got[f.Path] = f
	}
	if len(got) != 3 || string(got["a.txt"].Data) != "alpha\n" || got["sub/dir/run.sh"].Mode != 0o755 || !bytes.Equal(got["sub/big.bin"].Data, big) {
		t.Errorf("copy out of a directory: %d files %v", len(out), func() []string {
			var s []string
			for p, f := range got {
				s = append(s, fmt.Sprintf("%s %o %d", p, f.Mode, len(f.Data)))
			}
			return s
		}())
	}
	out, err = sb.CopyOut(ctx, "/work/inbox/a.txt", 0)
	if err != nil || len(out) != 1 || out[0].Path != "a.txt" {
		t.Errorf("copy out of a file: %v %+v", err, out)
	}
	if out, err := sb.CopyOut(ctx, "nope", 0); err != nil || out != nil {
		t.Errorf("copy out of a missing path: %v %v", err, out)
	}
	if _, err := sb.CopyOut(ctx, "inbox", 1000); err == nil || !strings.Contains(err.Error(), "more than 1000 bytes") {
		t.Errorf("copy out over max: %v", err)
	}
	if err := sb.CopyIn(ctx, "", []runtime.File{{Path: "../escape", Data: nil}}); err == nil {
		t.Error("copy in of ../escape accepted")
	}

	// Timeout: the whole process group goes, the result says so.
	start := time.Now()
	res, err = sb.Exec(ctx, runtime.Command{Script: "sleep 60 & sleep 60; echo never", Timeout: 2 * time.Second})
	if err != nil || !res.TimedOut || res.ExitCode != -1 || time.Since(start) > 30*time.Second {
		t.Errorf("timeout: %v %+v after %s", err, res, time.Since(start))
	}
	res, _ = sb.Exec(ctx, runtime.Command{Script: `sleep 1; for c in /proc/[0-9]*/cmdline; do tr '\0' ' ' < $c; echo; done`})
	if strings.Contains(string(res.Stdout), "sleep 60 ") || !strings.Contains(string(res.Stdout), "sleep 2460") {
		t.Errorf("processes after the timeout:\n%s", res.Stdout)
	}

	// Remove deletes the pod; a second Remove is fine.
	if err := sb.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	if err := sb.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	waitPodGone(t, k, info.ID)
	if _, err := sb.Exec(ctx, runtime.Command{Args: []string{"true"}}); runtime.InfraReason(err) != runtime.ReasonGone {
		t.Errorf("exec in a removed pod: %v (reason %q), want %s", err, runtime.InfraReason(err), runtime.ReasonGone)
	}
}

// TestPodDeadlineFormula: a pod is created with activeDeadlineSeconds =
// PendingTimeout + the deadline, the deadline being the test timeout
// (Spec.Timeout, else the language's) + PodDeadlineAllowance, or
// KubernetesOptions.PodDeadline when set.
func TestPodDeadlineFormula(t *testing.T) {
	for _, tc := range []struct {
		spec     runtime.Spec
		deadline time.Duration
		want     int64
	}{
		{runtime.Spec{Language: "Java"}, 0, 600 + 1800 + 600},
		{runtime.Spec{Language: "python"}, 0, 600 + 1200 + 600},
		{runtime.Spec{Language: "java", Timeout: 90 * time.Second}, 0, 600 + 90 + 600},
		{runtime.Spec{Timeout: 90 * time.Second}, 1500 * time.Millisecond, 600 + 2},
	} {
		k := &Kubernetes{opts: KubernetesOptions{RunID: "r", PendingTimeout: 10 * time.Minute, PodDeadline: tc.deadline}, lifetimeSlack: lifetimeSlack}
		pod, _, err := k.PodFor(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := pod.Spec.ActiveDeadlineSeconds; got == nil || *got != tc.want {
			t.Errorf("%+v, --pod-deadline %s: activeDeadlineSeconds %v, want %d", tc.spec, tc.deadline, got, tc.want)
		}
		// the main process: the deadline (without the pending time) + 1 min
		if cmd, want := strings.Join(pod.Spec.Containers[0].Command, " "), fmt.Sprintf("sleep %d &", tc.want-600+60); !strings.Contains(cmd, want) {
			t.Errorf("%+v: main process %q, want %q", tc.spec, cmd, want)
		}
	}
}

// TestKubernetesPodDeadline: the kubelet ends a pod at its deadline
// (KubernetesOptions.PodDeadline, counted from the container running), and
// the command it cut short is read from what the driver saw: one still
// within its own timeout is an infra failure deadline_exceeded (never the
// code's), one whose processes outlived its timeout (a job in its own
// process group, out of reach of the in-pod timeout, holding the output
// open) a command killed at its timeout.
func TestKubernetesPodDeadline(t *testing.T) {
	const d = 15 * time.Second
	k := newTestKube(t, testRunID(t), func(o *KubernetesOptions) { o.PodDeadline = d })
	ctx := context.Background()
	for _, tc := range []struct {
		name, script string
		timeout      time.Duration
	}{
		{"within its timeout", "sleep 600", 5 * time.Minute},
		{"past its timeout", "set -m; sleep 600 & sleep 600", 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb := startPod(t, k, runtime.Spec{Name: "deadline", Image: k8sTestImage, Workdir: "/work", Timeout: time.Hour})
			t0 := time.Now()
			info := sb.Info()
			pod, err := k.Client().CoreV1().Pods(k.Namespace()).Get(ctx, info.ID, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if ads := pod.Spec.ActiveDeadlineSeconds; info.DeadlineS != 15 || ads == nil || *ads < 15 || *ads > 15+int64(info.StartS)+2 {
				t.Errorf("deadline %v s, activeDeadlineSeconds %v (start %.1f s), want 15 s after the start", info.DeadlineS, ads, info.StartS)
			}
			res, err := sb.Exec(ctx, runtime.Command{Script: tc.script, Timeout: tc.timeout})
			took := time.Since(t0)
			t.Logf("exec ended %.1f s after the container ran (deadline %s): %v, %+v", took.Seconds(), d, err, res)
			if took < d-time.Second || took > d+90*time.Second {
				t.Errorf("the pod ended %s after its start, deadline %s", took, d)
			}
			if tc.timeout < d {
				if err != nil || !res.TimedOut || res.ExitCode != -1 || !strings.Contains(strings.Join(res.Notes, " "), "deadline") {
					t.Errorf("past its timeout: %v %+v, want killed at its timeout, by the pod's deadline", err, res)
				}
			} else if runtime.InfraReason(err) != runtime.ReasonDeadline || res.TimedOut {
				t.Errorf("within its timeout: %v (reason %q) %+v, want %s", err, runtime.InfraReason(err), res, runtime.ReasonDeadline)
			}
			// The kubelet's event can come before its status update.
			for {
				p, err := k.Client().CoreV1().Pods(k.Namespace()).Get(ctx, info.ID, metav1.GetOptions{})
				if err == nil && p.Status.Phase == corev1.PodFailed && p.Status.Reason == "DeadlineExceeded" {
					t.Logf("pod status %.1f s after its start: %s %s %q, containers %+v", time.Since(t0).Seconds(), p.Status.Phase, p.Status.Reason, p.Status.Message, p.Status.ContainerStatuses)
					break
				}
				if time.Since(t0) > d+2*time.Minute {
					t.Fatalf("pod after its deadline: %v %s %s", err, p.Status.Phase, p.Status.Reason)
				}
				time.Sleep(time.Second)
			}
		})
	}
}

// TestKubernetesPodMainProcessBound: the container's main process ends by
// itself (here 15 s after the container started, its slack shortened
// below the kubelet's 60 s deadline, as if the kubelet had stopped
// enforcing it), and with it every process of the container, the command
// run through exec too: gone from the node (this machine).
func TestKubernetesPodMainProcessBound(t *testing.T) {
	k := newTestKube(t, testRunID(t), func(o *KubernetesOptions) { o.PodDeadline = time.Minute })
	k.lifetimeSlack = -45 * time.Second
	ctx := context.Background()
	sb := startPod(t, k, runtime.Spec{Name: "bound", Image: k8sTestImage, Workdir: "/work"})
	t0 := time.Now()
	arg := fmt.Sprintf("600.%d", time.Now().UnixNano()%1e6)
	res, err := sb.Exec(ctx, runtime.Command{Args: []string{"sleep", arg}, Timeout: 5 * time.Minute})
	took := time.Since(t0)
	t.Logf("exec ended %.1f s after the container ran: %v, %+v", took.Seconds(), err, res)
	if runtime.InfraReason(err) != runtime.ReasonGone || took < 14*time.Second || took > 45*time.Second {
		t.Errorf("exec under a main process bound to 15 s: %v (reason %q) after %s, want %s after about 15 s", err, runtime.InfraReason(err), took, runtime.ReasonGone)
	}
	for i := 0; ; i++ {
		if !hostProcess("sleep\x00" + arg + "\x00") {
			break
		}
		if i == 100 {
			t.Fatalf("the command's process (sleep %s) still runs after its container's main process ended", arg)
		}
		time.Sleep(100 * time.Millisecond)
	}
	p, err := k.Client().CoreV1().Pods(k.Namespace()).Get(ctx, sb.Info().ID, metav1.GetOptions{})
	if err != nil || len(p.Status.ContainerStatuses) != 1 || p.Status.ContainerStatuses[0].State.Terminated == nil || p.Status.Reason == "DeadlineExceeded" {
		t.Errorf("pod after its main process ended: %v %+v", err, p.Status)
	}
}

// hostProcess says whether a process of this machine has the command line
// cmdline (NUL-separated, as /proc/PID/cmdline holds it). It reads the
// command line (which waits on a thrashing process's memory map lock)
// only of processes named (/proc/PID/comm) as cmdline's first word.
func hostProcess(cmdline string) bool {
	comm, _, _ := strings.Cut(cmdline, "\x00")
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		if c, err := os.ReadFile(filepath.Join("/proc", e.Name(), "comm")); err != nil || strings.TrimSpace(string(c)) != comm {
			continue
		}
		if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); err == nil && string(b) == cmdline {
			return true
		}
	}
	return false
}

func waitPodGone(t *testing.T, k *Kubernetes, name string) {
	t.Helper()
	for i := 0; i < 120; i++ {
		_, err := k.Client().CoreV1().Pods(k.Namespace()).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Errorf("pod %s still there 60 s after deletion", name)
}

func TestKubernetesInfraFailures(t *testing.T) {
	ctx := context.Background()
	t.Run("image", func(t *testing.T) {
		// No registry is reachable: an image the node lacks cannot be pulled.
		k := newTestKube(t, testRunID(t), nil)
		_, err := k.Start(ctx, runtime.Spec{Name: "noimage", Image: "localhost/polynfi/absent:1"})
		if runtime.InfraReason(err) != runtime.ReasonImage {
			t.Fatalf("absent image: %v (reason %q), want %s", err, runtime.InfraReason(err), runtime.ReasonImage)
		}
		assertNoPods(t, k)
	})
	t.Run("pending", func(t *testing.T) {
		k := newTestKube(t, testRunID(t), func(o *KubernetesOptions) {
			o.NodeSelector = map[string]string{"polynfi.io/no-such-node": "x"}
			o.PendingTimeout = 3 * time.Second
		})
		_, err := k.Start(ctx, runtime.Spec{Name: "pending", Image: k8sTestImage})
		if runtime.InfraReason(err) != runtime.ReasonPending || !strings.Contains(err.Error(), "node") {
			t.Fatalf("unschedulable pod: %v (reason %q), want %s", err, runtime.InfraReason(err), runtime.ReasonPending)
		}
		assertNoPods(t, k)
	})
	t.Run("oom", func(t *testing.T) {
		k := newTestKube(t, testRunID(t), nil)
		sb := startPod(t, k, runtime.Spec{Name: "oom", Image: k8sTestImage, Limits: runtime.Limits{MemoryBytes: 48 << 20}})
		res, err := sb.Exec(ctx, runtime.Command{Args: []string{"dd", "if=/dev/zero", "of=/dev/null", "bs=256M", "count=1"}})
		if runtime.InfraReason(err) != runtime.ReasonOOM {
			t.Fatalf("256 MiB under a 48 MiB limit: %v (reason %q) exit %d, want %s", err, runtime.InfraReason(err), res.ExitCode, runtime.ReasonOOM)
		}
		// The sandbox survives (only the command was killed) and the
		// next failing command is not blamed on the old kill.
		res, err = sb.Exec(ctx, runtime.Command{Script: "exit 7"})
		if err != nil || res.ExitCode != 7 {
			t.Fatalf("after the OOM kill: %v exit %d", err, res.ExitCode)
		}
	})
	t.Run("evicted", func(t *testing.T) {
		// 64 MiB written under a 16 MiB ephemeral-storage limit: the
		// kubelet's eviction manager (every 10 s) evicts the pod.
		k := newTestKube(t, testRunID(t), nil)
		sb := startPod(t, k, runtime.Spec{Name: "evict", Image: k8sTestImage, Workdir: "/work", Limits: runtime.Limits{DiskBytes: 16 << 20}})
		cctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
		defer cancel()
		// An infrastructure failure, never the command's own result, and
		// named for what it is: the runtime watches the pod (status and
		// Events) for up to explainDying after its container stopped, so
		// the kubelet's Evicted reason is found even when it reaches the
		// API server late (a CI rehearsal saw more than 45 s).
		t0 := time.Now()
		res, err := sb.Exec(cctx, runtime.Command{Script: "dd if=/dev/zero of=/work/fill bs=1M count=64 2>/dev/null; sync; sleep 200"})
		if r := runtime.InfraReason(err); r != runtime.ReasonEvicted || !strings.Contains(err.Error(), "ephemeral") {
			t.Fatalf("over the ephemeral-storage limit: %v (reason %q, exit %d), want %s naming ephemeral storage", err, r, res.ExitCode, runtime.ReasonEvicted)
		}
		t.Logf("after %.0f s: %v", time.Since(t0).Seconds(), err)
	})
	t.Run("deleted mid-run", func(t *testing.T) {
		k := newTestKube(t, testRunID(t), nil)
		sb := startPod(t, k, runtime.Spec{Name: "gone", Image: k8sTestImage})
		go func() {
			time.Sleep(2 * time.Second)
			zero := int64(0)
			_ = k.Client().CoreV1().Pods(k.Namespace()).Delete(context.Background(), sb.Info().ID, metav1.DeleteOptions{GracePeriodSeconds: &zero})
		}()
		_, err := sb.Exec(ctx, runtime.Command{Args: []string{"sleep", "60"}})
		if r := runtime.InfraReason(err); r != runtime.ReasonGone {
			t.Fatalf("pod deleted under a command: %v (reason %q), want %s", err, r, runtime.ReasonGone)
		}
	})
	t.Run("api unreachable", func(t *testing.T) {
		dir := t.TempDir()
		cfg := "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \"https://127.0.0.1:1\"}\nusers:\n- name: u\n  user: {token: x}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n"
		if err := os.WriteFile(filepath.Join(dir, "kc"), []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := NewKubernetes(ctx, KubernetesOptions{Kubeconfig: filepath.Join(dir, "kc"), RunID: "x"})
		if runtime.InfraReason(err) != runtime.ReasonDaemon {
			t.Fatalf("no API server: %v (reason %q), want %s", err, runtime.InfraReason(err), runtime.ReasonDaemon)
		}
	})
}

func assertNoPods(t *testing.T, k *Kubernetes) {
	t.Helper()
	time.Sleep(200 * time.Millisecond)
	pods, err := k.Client().CoreV1().Pods(k.Namespace()).List(context.Background(), metav1.ListOptions{LabelSelector: LabelSession + "=" + k.Session()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil {
			t.Errorf("pod %s left after a failed start", p.Name)
		}
	}
}

// A driver that dies leaves its pods; the next start of the same run id
// deletes them before creating its own.
func TestKubernetesLeftoversDeletedAtNextStart(t *testing.T) {
	runID := testRunID(t)
	ctx := context.Background()
	dead := newTestKube(t, runID, nil)
	var left []string
	for i := 0; i < 3; i++ {
		sb := startPod(t, dead, runtime.Spec{Name: fmt.Sprintf("left-%d", i), Image: k8sTestImage})
		left = append(left, sb.Info().ID)
	}
	dead.Close() // as if killed: nothing removed

	next := newTestKube(t, runID, nil)
	if err := next.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range left {
		p, err := next.Client().CoreV1().Pods(next.Namespace()).Get(ctx, name, metav1.GetOptions{})
		if err == nil && p.DeletionTimestamp == nil {
			t.Errorf("pod %s of the killed driver not deleted", name)
		}
	}
	for _, name := range left {
		waitPodGone(t, next, name)
	}
	cms, _ := next.Client().CoreV1().ConfigMaps(next.Namespace()).List(ctx, metav1.ListOptions{LabelSelector: LabelRunID + "=" + labelValue(runID)})
	for _, cm := range cms.Items {
		if cm.Labels[LabelSession] == dead.Session() {
			t.Errorf("owner configmap %s of the killed driver left", cm.Name)
		}
	}
	// polynfi cleanup --run-id: everything of the run, this driver's too.
	sb := startPod(t, next, runtime.Spec{Name: "mine", Image: k8sTestImage})
	n, err := CleanupRun(ctx, next.Client(), next.Namespace(), runID)
	if err != nil || n != 1 {
		t.Fatalf("cleanup: %d pods, %v; want 1", n, err)
	}
	waitPodGone(t, next, sb.Info().ID)
}

func TestLabelValue(t *testing.T) {
	for in, want := range map[string]string{
		"predictions":                "predictions",
		"my run/2024":                "my_run_2024-" + shortHash("my run/2024"),
		strings.Repeat("a", 70):      strings.Repeat("a", 54) + "-" + shortHash(strings.Repeat("a", 70)),
		"--":                         shortHash("--"),
		"django__django-11099.gold.": "django__django-11099.gold-" + shortHash("django__django-11099.gold."),
	} {
		if got := labelValue(in); got != want || len(got) > 63 {
			t.Errorf("labelValue(%q) = %q, want %q", in, got, want)
		}
	}
	if n := podName("Django__Django-11099"); !strings.HasPrefix(n, "polynfi-django-django-11099-") || len(n) != len("polynfi-django-django-11099-")+6 {
		t.Errorf("podName = %q", n)
	}
}

// TestPodFailureReasons reads pod statuses as the API server and the
// kubelet write them (the shapes of Kubernetes v1.31) into reasons.
func TestPodFailureReasons(t *testing.T) {
	running := corev1.ContainerStatus{Name: "sandbox", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
	ready := func(s corev1.ConditionStatus) corev1.PodCondition {
		return corev1.PodCondition{Type: corev1.PodReady, Status: s}
	}
	for _, tc := range []struct {
		name   string
		status corev1.PodStatus
		want   string
	}{
		{"running", corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{ready(corev1.ConditionTrue)}, ContainerStatuses: []corev1.ContainerStatus{running}}, ""},
		{"evicted", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "Evicted", Message: "Pod ephemeral local storage usage exceeds the total limit of containers 16Mi."}, runtime.ReasonEvicted},
		{"evicting", corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "TerminationByKubelet", Message: "Pod was evicted"}}}, runtime.ReasonEvicted},
		{"node lost (status)", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "NodeLost", Message: "Node localhost which was running pod is unresponsive"}, runtime.ReasonNodeLost},
		{"taint manager on a not-ready pod", corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{running}, Conditions: []corev1.PodCondition{ready(corev1.ConditionFalse),
			{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint"}}}, runtime.ReasonNodeLost},
		{"taint manager on a ready pod", corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{running}, Conditions: []corev1.PodCondition{ready(corev1.ConditionTrue),
			{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint"}}}, runtime.ReasonGone},
		{"oom", corev1.PodStatus{Phase: corev1.PodFailed, ContainerStatuses: []corev1.ContainerStatus{{Name: "sandbox", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "OOMKilled", ExitCode: 137}}}}}, runtime.ReasonOOM},
		{"deadline", corev1.PodStatus{Phase: corev1.PodFailed, Reason: "DeadlineExceeded", Message: "Pod was active on the node longer than the specified deadline",
			ContainerStatuses: []corev1.ContainerStatus{{Name: "sandbox", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Completed", ExitCode: 0}}}}}, runtime.ReasonDeadline},
		{"exited", corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{Name: "sandbox", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{Reason: "Error", ExitCode: 137}}}}}, runtime.ReasonGone},
	} {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{NodeName: "n1"}, Status: tc.status}
		if got := runtime.InfraReason(podFailure(p)); got != tc.want {
			t.Errorf("%s: reason %q (%v), want %q", tc.name, got, podFailure(p), tc.want)
		}
	}
}
