package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	corev1 "k8s.io/api/core/v1"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
	"github.com/polynfi/polynfi/runtime/kube"
)

// kubeFlags are the cluster settings of --runtime kubernetes (eval) and of
// cleanup: where the pods go and what they may use.
type kubeFlags struct {
	kubeconfig, context, namespace string
	inCluster                      bool
	qps                            float32
	burst                          int
	cpuRequest, cpuLimit           string
	memRequest, memLimit           string
	nodeSelector                   []string
	tolerations                    []string
	pullSecrets                    []string
	pullPolicy                     string
	serviceAccount                 string
	mountToken                     bool
	runAsUser                      int64
	noNetworkPolicy                bool
	pendingTimeout                 time.Duration
	podDeadline                    time.Duration
	nodeContainerd                 string
}

func (k *kubeFlags) register(f *pflag.FlagSet) {
	f.StringVar(&k.kubeconfig, "kubeconfig", "", "kubernetes: kubeconfig file (default: $KUBECONFIG, then ~/.kube/config)")
	f.StringVar(&k.context, "kube-context", "", "kubernetes: context of the kubeconfig (default: its current context)")
	f.BoolVar(&k.inCluster, "in-cluster", false, "kubernetes: use the service account of the pod polynfi runs in")
	f.StringVar(&k.namespace, "namespace", "", "kubernetes: namespace of the pods (default: the context's, else default)")
	f.Float32Var(&k.qps, "kube-qps", 50, "kubernetes: API requests per second of the client (rate limit)")
	f.IntVar(&k.burst, "kube-burst", 100, "kubernetes: API request burst of the client")
	f.StringVar(&k.cpuRequest, "pod-cpu-request", "", "kubernetes: CPU request of every pod (default per language: 100m, Java 250m)")
	f.StringVar(&k.cpuLimit, "pod-cpu-limit", "", "kubernetes: CPU limit of every pod (default: 2)")
	f.StringVar(&k.memRequest, "pod-memory-request", "", "kubernetes: memory request of every pod (default per language: 256Mi, Java 512Mi)")
	f.StringVar(&k.memLimit, "pod-memory-limit", "", "kubernetes: memory limit of every pod (default per language: 4Gi, Java 6Gi)")
	f.StringArrayVar(&k.nodeSelector, "node-selector", nil, "kubernetes: KEY=VALUE a node must carry (repeatable)")
	f.StringArrayVar(&k.tolerations, "toleration", nil, "kubernetes: KEY[=VALUE]:EFFECT taint the pods tolerate (repeatable)")
	f.StringArrayVar(&k.pullSecrets, "image-pull-secret", nil, "kubernetes: secret in the namespace for pulling images (repeatable)")
	f.StringVar(&k.pullPolicy, "image-pull-policy", "IfNotPresent", "kubernetes: Always, IfNotPresent or Never")
	f.StringVar(&k.serviceAccount, "service-account", "", "kubernetes: service account of the pods (default: the namespace's default)")
	f.BoolVar(&k.mountToken, "mount-service-account-token", false, "kubernetes: mount the service account's API token in the pods")
	k.runAsUser = -1
	f.Var(uidFlag{&k.runAsUser}, "run-as-user", "kubernetes: run the tests as this `UID` (0 or more) with runAsNonRoot (default: the image's user)")
	f.BoolVar(&k.noNetworkPolicy, "no-network-policy", false, "kubernetes: do not create the deny-all NetworkPolicy of the run's pods")
	f.DurationVar(&k.pendingTimeout, "pending-timeout", 10*time.Minute, "kubernetes: a pod not running after this is an infra failure (retried)")
	f.DurationVar(&k.podDeadline, "pod-deadline", 0, "kubernetes: the cluster ends a pod this long after its container started (activeDeadlineSeconds), even if polynfi is gone; a pod ended before its test ran out its timeout is an infra failure deadline_exceeded (default: the test timeout + 10m)")
	f.StringVar(&k.nodeContainerd, "node-containerd", "", "kubernetes, single-node test cluster: containerd socket of the node; each instance's image is copied into it from Docker (docker save | ctr -n k8s.io images import)")
}

// checkKubeconfig reports a kubeconfig that is not there
// (backend.CheckKubeconfig).
func (k *kubeFlags) checkKubeconfig() error {
	return backend.CheckKubeconfig(k.kubeconfig, k.inCluster)
}

// options turns the flags into runtime options; a malformed value is a
// usage error naming the flag.
func (k *kubeFlags) options(runID string) (kube.KubernetesOptions, error) {
	o := kube.KubernetesOptions{Kubeconfig: k.kubeconfig, Context: k.context, InCluster: k.inCluster,
		Namespace: k.namespace, RunID: runID, QPS: k.qps, Burst: k.burst, ImagePullSecrets: k.pullSecrets,
		ServiceAccount: k.serviceAccount, MountServiceAccountToken: k.mountToken, NoNetworkPolicy: k.noNetworkPolicy,
		PendingTimeout: k.pendingTimeout, PodDeadline: k.podDeadline}
	switch corev1.PullPolicy(k.pullPolicy) {
	case corev1.PullAlways, corev1.PullIfNotPresent, corev1.PullNever:
		o.ImagePullPolicy = corev1.PullPolicy(k.pullPolicy)
	default:
		return o, usagef("--image-pull-policy %q: want Always, IfNotPresent or Never", k.pullPolicy)
	}
	if k.runAsUser >= 0 {
		uid := k.runAsUser
		o.RunAsUser = &uid
	}
	if k.cpuRequest != "" || k.cpuLimit != "" || k.memRequest != "" || k.memLimit != "" {
		o.Resources = map[string]kube.PodResources{}
		for lang, r := range kube.DefaultPodResources {
			for _, p := range []struct {
				flag, v string
				dst     *string
			}{
				{"--pod-cpu-request", k.cpuRequest, &r.CPURequest}, {"--pod-cpu-limit", k.cpuLimit, &r.CPULimit},
				{"--pod-memory-request", k.memRequest, &r.MemoryRequest}, {"--pod-memory-limit", k.memLimit, &r.MemoryLimit},
			} {
				if p.v != "" {
					*p.dst = p.v
				}
			}
			o.Resources[lang] = r
		}
	}
	for _, kv := range k.nodeSelector {
		key, val, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return o, usagef("--node-selector %q: want KEY=VALUE", kv)
		}
		if o.NodeSelector == nil {
			o.NodeSelector = map[string]string{}
		}
		o.NodeSelector[key] = val
	}
	for _, s := range k.tolerations {
		kv, effect, ok := strings.Cut(s, ":")
		key, val, hasVal := strings.Cut(kv, "=")
		t := corev1.Toleration{Key: key, Effect: corev1.TaintEffect(effect), Operator: corev1.TolerationOpExists}
		if hasVal {
			t.Operator, t.Value = corev1.TolerationOpEqual, val
		}
		switch t.Effect {
		case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
		default:
			ok = false
		}
		if !ok || key == "" {
			return o, usagef("--toleration %q: want KEY[=VALUE]:NoSchedule|PreferNoSchedule|NoExecute", s)
		}
		o.Tolerations = append(o.Tolerations, t)
	}
	return o, nil
}

// newCleanupCmd deletes what a run left in a cluster.
func newCleanupCmd(e *env) *cobra.Command {
	var kf kubeFlags
	var runID, rt, outDir string
	var dryRun bool
	c := &cobra.Command{
		Use:   "cleanup --out DIR | --run-id KEY [--runtime docker|kubernetes] [--dry-run]",
		Short: "Delete the containers or pods a run left behind",
		Long: `cleanup deletes what polynfi created for one run and a killed run left behind.
The run is named by its output directory (--out, the --out of the eval or run
command) or its run key (--run-id, the label io.polynfi.run of its containers,
polynfi.io/run-id of its pods).

--runtime docker (the default, unless a kubernetes flag is given) removes the run's containers, running or not
(labels io.polynfi.managed=true and io.polynfi.run=KEY; never any other
container). --runtime kubernetes deletes every pod polynfi created for the
run in the namespace, whichever driver created it, with the run's owner
ConfigMap and NetworkPolicy (the kubernetes flags below select the cluster).
--dry-run lists the containers that would be removed and removes nothing
(docker only).

A run does the same for its own key when it starts, so a killed run's
leftovers go at the next start; cleanup is for runs that are not started
again. Unless --dry-run, cleanup also removes what killed polynfi processes
left on this machine, as every eval and run does when it starts: the local
sandbox's polynfi-sandbox-etc-<pid>-* directories in the temporary directory,
its polynfi-<pid>-* cgroups and the image build locks under
polynfi-image-locks/ that no process holds.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if outDir != "" {
				abs, err := filepath.Abs(outDir)
				if err != nil {
					return err
				}
				runID = backend.RunKey(abs)
			}
			if runID == "" {
				return usagef("--run-id or --out is required")
			}
			if !dryRun {
				if n := runtime.RemoveStaleLocal() + images.RemoveStaleLocks(); n > 0 {
					fmt.Fprintf(e.stderr, "polynfi: removed %d local sandbox directories, cgroups and image locks left by killed processes\n", n)
				}
			}
			if !cmd.Flags().Changed("runtime") {
				cmd.Flags().Visit(func(fl *pflag.Flag) {
					if strings.HasPrefix(fl.Usage, "kubernetes") {
						rt = "kubernetes"
					}
				})
			}
			switch rt {
			case "docker":
				return cleanupDocker(e, runID, dryRun)
			case "kubernetes":
			default:
				return usagef("--runtime %q: want docker or kubernetes", rt)
			}
			if dryRun {
				return usagef("--dry-run: supported with --runtime docker only")
			}
			opts, err := kf.options(runID)
			if err != nil {
				return err
			}
			if err := kf.checkKubeconfig(); err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(e.ctx, 5*time.Minute)
			defer cancel()
			k, err := kube.NewKubernetes(ctx, opts)
			if err != nil {
				return err
			}
			defer k.Close()
			n, err := k.Cleanup(ctx, runID)
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "deleted %d pod(s) of run %s in namespace %s\n", n, runID, k.Namespace())
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&runID, "run-id", "", "the run key whose leftovers to delete")
	outFlag(f, &outDir, "the --out of the eval or run command whose leftovers to delete (its run key)")
	f.StringVar(&rt, "runtime", "docker", "runtime of the run: docker or kubernetes (the default when a kubernetes flag is given)")
	f.BoolVar(&dryRun, "dry-run", false, "list what would be removed, remove nothing (docker)")
	kf.register(f)
	// cleanup only deletes: the flags that shape pods do not apply.
	for _, name := range podOnlyFlags {
		f.MarkHidden(name)
	}
	return c
}

// cleanupDocker removes (or, dry, lists) the containers of run key.
func cleanupDocker(e *env, key string, dry bool) error {
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Minute)
	defer cancel()
	d, err := docker.NewDocker(ctx, docker.DockerOptions{})
	if err != nil {
		return fmt.Errorf("--runtime docker: %w", err)
	}
	defer d.Close()
	names, err := d.StaleContainers(ctx, key)
	if err != nil {
		return err
	}
	if dry {
		for _, n := range names {
			fmt.Fprintf(e.stdout, "would remove container %s\n", n)
		}
		_, err := fmt.Fprintf(e.stdout, "%d container(s) of run %s would be removed (dry run: nothing removed)\n", len(names), key)
		return err
	}
	n, err := d.RemoveStale(ctx, key)
	if err != nil {
		return err
	}
	for _, name := range names {
		fmt.Fprintf(e.stdout, "removed container %s\n", name)
	}
	_, err = fmt.Fprintf(e.stdout, "removed %d container(s) of run %s\n", n, key)
	return err
}

// uidFlag is an optional user id: -1 (shown as no default) until set; a
// negative or non-numeric value is refused.
type uidFlag struct{ v *int64 }

func (u uidFlag) String() string {
	if u.v == nil || *u.v < 0 {
		return ""
	}
	return strconv.FormatInt(*u.v, 10)
}

func (u uidFlag) Set(s string) error {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return fmt.Errorf("want a user id, 0 or more")
	}
	*u.v = n
	return nil
}

func (uidFlag) Type() string { return "uid" }

// podOnlyFlags are the kubeFlags that shape the pods a run creates: they
// do not apply to cleanup, which only deletes.
var podOnlyFlags = []string{"pod-cpu-request", "pod-cpu-limit", "pod-memory-request", "pod-memory-limit", "node-selector",
	"toleration", "image-pull-secret", "image-pull-policy", "service-account", "mount-service-account-token", "run-as-user",
	"no-network-policy", "pending-timeout", "pod-deadline", "node-containerd"}
