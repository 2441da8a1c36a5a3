package kube

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/runtime"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestKubernetesBwrapUnderPodChurn runs local-runtime commands under
// bubblewrap, with and without the host view, while pods with emptyDir and
// projected volumes start and go on the local cluster (their volumes,
// container root file systems and network namespaces mounted and
// unmounted on this machine), and requires that not one sandbox failed to
// set up: no failure and no retried set-up (SetupFailureNote). It keeps
// going until it has run at least $POLYNFI_CHURN_COMMANDS commands (default
// 400) and at least 12 pods were created and deleted meanwhile, so that
// the commands really overlapped the churn, however slow the machine. As
// a control it also runs bubblewrap with the whole / bound (--ro-bind / /,
// what the host view was) for as many commands and logs how many of those
// failed: not asserted, the race is a matter of timing.
func TestKubernetesBwrapUnderPodChurn(t *testing.T) {
	k := newTestKube(t, testRunID(t), nil)
	r := runtime.NewLocal(context.Background(), runtime.LocalOptions{})
	t.Cleanup(func() { r.Close() })
	if r.Isolation() != runtime.IsolationBwrap {
		citest.Missing(t, "bwrap unavailable: %s", r.Note())
	}
	want := 400
	if v, err := strconv.Atoi(os.Getenv("POLYNFI_CHURN_COMMANDS")); err == nil && v > 0 {
		want = v
	}
	const wantPods = 12
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	if err := k.Prepare(ctx); err != nil {
		t.Fatal(err)
	}

	// The churn: four pods at a time, each with an emptyDir and a
	// projected volume, started, awaited until they ran, deleted at once.
	stop := make(chan struct{})
	var churned atomic.Int64
	var churnErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		churnErr = churnPods(ctx, k, stop, &churned)
	}()
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()

	// The commands: four workers, alternately with and without the host
	// view, each until enough commands ran and enough pods churned.
	var ran, failed atomic.Int64
	var mu sync.Mutex
	var failures []string
	start := churned.Load()
	enough := func() bool { return ran.Load() >= int64(want) && churned.Load()-start >= wantPods }
	var workers sync.WaitGroup
	for w := 0; w < 4; w++ {
		workers.Add(1)
		go func(w int) {
			defer workers.Done()
			dir := t.TempDir()
			for i := 0; !enough() && ctx.Err() == nil; i++ {
				hostView := (i+w)%2 == 0
				res, err := r.Run(ctx, runtime.Command{Script: "test -x /usr/bin/env && echo ok > out.txt && cat out.txt", Dir: dir, HostView: hostView})
				ran.Add(1)
				bad := err != nil || res.ExitCode != 0 || string(res.Stdout) != "ok\n"
				for _, n := range res.Notes {
					bad = bad || strings.HasPrefix(n, runtime.SetupFailureNote)
				}
				if bad {
					failed.Add(1)
					mu.Lock()
					failures = append(failures, fmt.Sprintf("host view %v: exit %d err %v stdout %q stderr %q notes %v", hostView, res.ExitCode, err, res.Stdout, res.Stderr, res.Notes))
					mu.Unlock()
				}
			}
		}(w)
	}
	workers.Wait()
	commandPods := churned.Load() - start

	// The control: the whole / bound, as bubblewrap's set-up did before.
	var control, controlFailed atomic.Int64
	var controlMsgs sync.Map
	for w := 0; w < 4; w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for control.Load() < ran.Load() && ctx.Err() == nil {
				control.Add(1)
				out, err := exec.CommandContext(ctx, bwrapPath(t), "--unshare-user", "--uid", "1000", "--gid", "1000", "--unshare-pid",
					"--unshare-net", "--cap-drop", "ALL", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
					"--", "/bin/true").CombinedOutput()
				if err != nil {
					controlFailed.Add(1)
					controlMsgs.Store(strings.TrimSpace(string(out)), true)
				}
			}
		}()
	}
	workers.Wait()
	close(stop)
	wg.Wait()
	if churnErr != nil {
		t.Fatalf("pod churn: %v", churnErr)
	}
	if ctx.Err() != nil {
		t.Fatalf("timed out: %d commands, %d pods churned meanwhile", ran.Load(), commandPods)
	}
	t.Logf("%d commands (half with the host view), %d set-up failures, while %d pods were created and deleted", ran.Load(), failed.Load(), commandPods)
	t.Logf("control, / bound whole: %d of %d bubblewrap set-ups failed", controlFailed.Load(), control.Load())
	shown := 0
	controlMsgs.Range(func(k, _ any) bool { t.Logf("control failure: %s", k); shown++; return shown < 5 })
	if commandPods < wantPods {
		t.Errorf("only %d pods churned while the commands ran, want %d", commandPods, wantPods)
	}
	for i, f := range failures {
		if i == 10 {
			t.Errorf("... %d more", len(failures)-10)
			break
		}
		t.Errorf("sandbox failure: %s", f)
	}
}

// churnPods creates four pods at a time in k's namespace (the run's labels,
// so Cleanup deletes what is left), waits until each has run (or failed),
// deletes them without grace and counts them in n, until stop.
func churnPods(ctx context.Context, k *Kubernetes, stop <-chan struct{}, n *atomic.Int64) error {
	pods := k.Client().CoreV1().Pods(k.Namespace())
	zero := int64(0)
	for round := 0; ; round++ {
		select {
		case <-stop:
			return nil
		default:
		}
		var names []string
		for j := 0; j < 4; j++ {
			labels := k.baseLabels()
			labels["polynfi.io/test"] = "bwrap-churn"
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{GenerateName: "bwrap-churn-", Labels: labels},
				Spec: corev1.PodSpec{
					RestartPolicy:                 corev1.RestartPolicyNever,
					TerminationGracePeriodSeconds: &zero,
					AutomountServiceAccountToken:  new(bool),
					Containers: []corev1.Container{{Name: "c", Image: k8sTestImage, ImagePullPolicy: corev1.PullNever,
						Command:      []string{"sh", "-c", "cat /p/name > /e/x"},
						VolumeMounts: []corev1.VolumeMount{{Name: "e", MountPath: "/e"}, {Name: "p", MountPath: "/p"}}}},
					Volumes: []corev1.Volume{
						{Name: "e", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
						{Name: "p", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{{
							DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{
								Path: "name", FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}}}}}},
					},
				},
			}
			p, err := pods.Create(ctx, pod, metav1.CreateOptions{})
			if err != nil {
				return fmt.Errorf("create: %w", err)
			}
			names = append(names, p.Name)
		}
		for _, name := range names {
			if err := awaitPodRan(ctx, k, name); err != nil {
				return err
			}
		}
		for _, name := range names {
			if err := pods.Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: &zero}); err != nil {
				return fmt.Errorf("delete %s: %w", name, err)
			}
		}
		n.Add(int64(len(names)))
	}
}

// awaitPodRan polls the pod until it left Pending (its volumes were
// mounted and its container started) or ctx ends.
func awaitPodRan(ctx context.Context, k *Kubernetes, name string) error {
	for {
		p, err := k.Client().CoreV1().Pods(k.Namespace()).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("get %s: %w", name, err)
		}
		if p.Status.Phase != corev1.PodPending {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("pod %s still pending: %w", name, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// bwrapPath is the bubblewrap the local runtime uses (on PATH).
func bwrapPath(t *testing.T) string {
	p, err := exec.LookPath("bwrap")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
