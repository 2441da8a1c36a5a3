package kube

import (
	"archive/tar"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/apimachinery/pkg/watch"
	listersv1 "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/remotecommand"
	utilexec "k8s.io/client-go/util/exec"
	"k8s.io/klog/v2"

	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
)

// Labels polynfi puts on every object it creates in a cluster. LabelRunID
// and LabelOwner let a later run (and `polynfi cleanup --run-id`) find and
// delete what a killed run left; LabelSession tells the pods of one driver
// process from those of another run of the same id.
const (
	LabelManagedBy = "app.kubernetes.io/managed-by" // always "polynfi"
	LabelRunID     = "polynfi.io/run-id"
	LabelOwner     = "polynfi.io/owner"
	LabelSession   = "polynfi.io/session"
	LabelNetwork   = "polynfi.io/network" // "allowed" on pods with Spec.Network
	managedBy      = "polynfi"
)

// IsolationPod names the sandbox of the Kubernetes runtime.
const IsolationPod = "pod"

// PodResources are the CPU and memory requests and limits of one pod, in
// Kubernetes quantity syntax ("500m", "2", "4Gi"); "" leaves one unset.
type PodResources struct {
	CPURequest, CPULimit       string
	MemoryRequest, MemoryLimit string
}

// DefaultPodResources are the per-language defaults of KubernetesOptions.
// Resources. Requests are kept small so that the scheduler packs test pods
// densely (a test run is mostly bursty CPU); limits bound one run. Java gets
// more memory for Maven/Gradle and the JVM. These are polynfi's own
// starting points, not measured from a benchmark: set them per cluster.
var DefaultPodResources = map[string]PodResources{
	"":           {CPURequest: "100m", CPULimit: "2", MemoryRequest: "256Mi", MemoryLimit: "4Gi"},
	"python":     {CPURequest: "100m", CPULimit: "2", MemoryRequest: "256Mi", MemoryLimit: "4Gi"},
	"javascript": {CPURequest: "100m", CPULimit: "2", MemoryRequest: "256Mi", MemoryLimit: "4Gi"},
	"typescript": {CPURequest: "100m", CPULimit: "2", MemoryRequest: "256Mi", MemoryLimit: "4Gi"},
	"java":       {CPURequest: "250m", CPULimit: "2", MemoryRequest: "512Mi", MemoryLimit: "6Gi"},
}

// KubernetesOptions configure NewKubernetes. The zero value (with RunID)
// uses $KUBECONFIG or ~/.kube/config, its current context and namespace
// "default".
type KubernetesOptions struct {
	// Kubeconfig is the kubeconfig file ("": $KUBECONFIG, then
	// ~/.kube/config); Context picks a context in it ("": current).
	Kubeconfig, Context string
	// InCluster uses the service account of the pod the driver runs in.
	InCluster bool
	// Namespace holds the pods ("": the context's namespace, else
	// "default"). It must exist.
	Namespace string
	// RunID labels every object (LabelRunID); required.
	RunID string
	// Owner labels every object (LabelOwner; "": the host name).
	Owner string
	// QPS and Burst rate-limit the client's API calls (0: 50 and 100).
	QPS   float32
	Burst int
	// Resources are the pod requests and limits by lower-case language
	// (Spec.Language; "" is the fallback), merged over
	// DefaultPodResources. Spec.Limits, when set, override the limits.
	Resources map[string]PodResources
	// NodeSelector and Tolerations place the pods.
	NodeSelector map[string]string
	Tolerations  []corev1.Toleration
	// ImagePullSecrets name secrets in Namespace; ImagePullPolicy is
	// Always, IfNotPresent or Never ("": IfNotPresent).
	ImagePullSecrets []string
	ImagePullPolicy  corev1.PullPolicy
	// ServiceAccount runs the pods ("": the namespace's default). Its
	// token is mounted only when MountServiceAccountToken is set.
	ServiceAccount           string
	MountServiceAccountToken bool
	// RunAsUser, when set, runs the container as that uid with
	// runAsNonRoot (for images that allow it); nil keeps the image's user.
	RunAsUser *int64
	// NoNetworkPolicy skips the deny-all NetworkPolicy (for clusters where
	// the user may not create one).
	NoNetworkPolicy bool
	// PendingTimeout bounds the time from pod creation to a running
	// container (0: 10 minutes); past it Start fails with ReasonPending.
	PendingTimeout time.Duration
	// PodDeadline is how long a pod may run after its container started
	// before the kubelet ends it, whether or not the driver still runs
	// (0: PodDeadlineFor(spec.Timeout), the test timeout plus
	// PodDeadlineAllowance). See Kubernetes.PodFor for how it becomes the
	// pod's activeDeadlineSeconds.
	PodDeadline time.Duration
	// MaxOutput limits each captured stream of Exec (0: DefaultMaxOutput).
	MaxOutput int
}

// PodDeadlineAllowance is the part of a pod's default deadline
// (PodDeadlineFor) that is not the test run: copying the patches in, the
// harness's git commands (base commit, test patch cascade, snapshot, model
// patch cascade, test files reset; 5 minutes each at most), the test
// reports copied out, and the kill 10 s after the test timeout. polynfi's
// own margin, not measured: these take seconds on an idle node and
// minutes on a node whose CPUs are queued.
const PodDeadlineAllowance = 10 * time.Minute

// lifetimeSlack is how much longer than its deadline (counted from the
// container's start) the main process of a pod's container lives: the
// second bound of a pod, for a node whose kubelet is stopped (a frozen or
// crashed kubelet enforces no deadline, but the container runtime still
// reaps the main process, and the kernel then kills every process of the
// container). Long enough that a live kubelet's deadline comes first.
const lifetimeSlack = time.Minute

// PodDeadlineFor is the default deadline of a pod whose test run has
// timeout testTimeout (0: DefaultTimeout): testTimeout +
// PodDeadlineAllowance, counted from the pod's container running (30 min
// for the default 20 min test timeout, 40 min for Java's 30 min).
func PodDeadlineFor(testTimeout time.Duration) time.Duration {
	if testTimeout <= 0 {
		testTimeout = runtime.DefaultTimeout
	}
	return testTimeout + PodDeadlineAllowance
}

// Kubernetes runs each sandbox as one Pod through the API server: the pod's
// only container idles (sh, sleep; up to the pod's deadline, see PodFor)
// and commands run in it through the API's exec, files move as tar streams over exec (as kubectl cp does). The
// driver stays outside the cluster. One shared informer watches the pods
// of this driver (LabelSession), so waiting for hundreds of pods costs one
// watch. Images need /bin/sh, tar and timeout (coreutils). Safe for
// concurrent use; call Close when done.
type Kubernetes struct {
	cfg       *rest.Config
	cs        *KubeClient
	ns        string
	opts      KubernetesOptions
	session   string
	maxOutput int

	// lifetimeSlack is how much longer than its deadline a container's
	// main process lives (NewKubernetes: lifetimeSlack); tests shorten it.
	lifetimeSlack time.Duration

	mu       sync.Mutex
	started  bool
	startErr error
	owner    *metav1.OwnerReference
	stop     chan struct{}
	lister   listersv1.PodLister
	waiters  map[string][]chan struct{}
}

var quietClientGo sync.Once

// NewKubernetes connects to the cluster the options name and checks that
// the API server answers and the namespace exists; errors wrap an
// InfraError with ReasonDaemon.
func NewKubernetes(ctx context.Context, opts KubernetesOptions) (*Kubernetes, error) {
	if opts.RunID == "" {
		return nil, errors.New("kubernetes runtime: no run id")
	}
	var cfg *rest.Config
	ns := opts.Namespace
	var err error
	if opts.InCluster {
		cfg, err = rest.InClusterConfig()
		if ns == "" {
			if b, e := os.ReadFile("/var/run/secrets/kubernetes.io/serviceaccount/namespace"); e == nil {
				ns = strings.TrimSpace(string(b))
			}
		}
	} else {
		rules := clientcmd.NewDefaultClientConfigLoadingRules()
		if opts.Kubeconfig != "" {
			rules.ExplicitPath = opts.Kubeconfig
		}
		cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: opts.Context})
		cfg, err = cc.ClientConfig()
		if err == nil && ns == "" {
			ns, _, _ = cc.Namespace()
		}
	}
	if err != nil {
		return nil, runtime.Infra(runtime.ReasonDaemon, fmt.Errorf("kubernetes config: %w", err))
	}
	if ns == "" {
		ns = "default"
	}
	cfg.QPS, cfg.Burst = opts.QPS, opts.Burst
	if cfg.QPS <= 0 {
		cfg.QPS = 50
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 100
	}
	cfg.UserAgent = "polynfi"
	cs, err := NewKubeClient(cfg)
	if err != nil {
		return nil, runtime.Infra(runtime.ReasonDaemon, fmt.Errorf("kubernetes client: %w", err))
	}
	if _, err := cs.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			// No "kubernetes:" prefix: callers say which runtime
			// ("--runtime kubernetes: ...").
			return nil, fmt.Errorf("namespace %q does not exist on the cluster at %s (--namespace, or the kubeconfig context's namespace)", ns, cfg.Host)
		}
		if !apierrors.IsForbidden(err) { // a namespaced user may not read namespaces
			return nil, runtime.Infra(runtime.ReasonDaemon, fmt.Errorf("kubernetes API server %s: %w", cfg.Host, err))
		}
	}
	if opts.Owner == "" {
		opts.Owner, _ = os.Hostname()
	}
	if opts.PendingTimeout <= 0 {
		opts.PendingTimeout = 10 * time.Minute
	}
	if opts.ImagePullPolicy == "" {
		opts.ImagePullPolicy = corev1.PullIfNotPresent
	}
	quietClientGo.Do(func() {
		// client-go reports stream hiccups through klog on stderr; polynfi's
		// runtime never prints (errors come back as values).
		klog.SetLogger(logr.Discard())
	})
	k := &Kubernetes{cfg: cfg, cs: cs, ns: ns, opts: opts, session: randomSuffix(10),
		maxOutput: opts.MaxOutput, waiters: map[string][]chan struct{}{}, lifetimeSlack: lifetimeSlack}
	if k.maxOutput <= 0 {
		k.maxOutput = runtime.DefaultMaxOutput
	}
	return k, nil
}

// Name implements Runtime: "kubernetes".
func (k *Kubernetes) Name() string { return "kubernetes" }

// Namespace is the namespace the pods go to.
func (k *Kubernetes) Namespace() string { return k.ns }

// Session is this driver's LabelSession value.
func (k *Kubernetes) Session() string { return k.session }

// Client is the core/v1 and networking/v1 clients (rate-limited as the
// options say, one token bucket for both).
func (k *Kubernetes) Client() *KubeClient { return k.cs }

// Close stops the pod informer. Pods still running are left to Remove (or
// to the owner's deletion by Cleanup).
func (k *Kubernetes) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stop != nil {
		close(k.stop)
		k.stop = nil
	}
}

func (k *Kubernetes) baseLabels() map[string]string {
	return map[string]string{LabelManagedBy: managedBy, LabelRunID: labelValue(k.opts.RunID),
		LabelOwner: labelValue(k.opts.Owner), LabelSession: k.session}
}

// Prepare deletes what an earlier, killed run of the same run id left
// (CleanupRun), then creates this driver's owner object (a ConfigMap that
// owns every pod, so deleting it garbage-collects them), the deny-all
// NetworkPolicy, and starts the pod informer. Start calls it on first use;
// calling it first makes the cleanup's cost visible before the run.
func (k *Kubernetes) Prepare(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.started {
		return k.startErr
	}
	k.startErr = k.prepare(ctx)
	if k.startErr == nil || ctx.Err() == nil {
		k.started = k.startErr == nil
	}
	return k.startErr
}

func (k *Kubernetes) prepare(ctx context.Context) error {
	if _, err := CleanupRun(ctx, k.cs, k.ns, k.opts.RunID); err != nil {
		return err
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "polynfi-run-" + k.session, Labels: k.baseLabels()},
		Data: map[string]string{"run-id": k.opts.RunID, "owner": k.opts.Owner, "started": time.Now().UTC().Format(time.RFC3339)}}
	cm, err := k.cs.CoreV1().ConfigMaps(k.ns).Create(ctx, cm, metav1.CreateOptions{})
	if err != nil {
		return runtime.Infra(apiReason(err), fmt.Errorf("create owner configmap: %w", err))
	}
	k.owner = &metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: cm.Name, UID: cm.UID}
	if !k.opts.NoNetworkPolicy {
		np := &networkingv1.NetworkPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "polynfi-deny-" + k.session, Labels: k.baseLabels(),
				OwnerReferences: []metav1.OwnerReference{*k.owner}},
			Spec: networkingv1.NetworkPolicySpec{
				PodSelector: metav1.LabelSelector{
					MatchLabels:      map[string]string{LabelSession: k.session},
					MatchExpressions: []metav1.LabelSelectorRequirement{{Key: LabelNetwork, Operator: metav1.LabelSelectorOpDoesNotExist}},
				},
				// No ingress and no egress rule: all traffic denied.
				PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress},
			},
		}
		if _, err := k.cs.NetworkingV1().NetworkPolicies(k.ns).Create(ctx, np, metav1.CreateOptions{}); err != nil {
			return runtime.Infra(apiReason(err), fmt.Errorf("create network policy: %w", err))
		}
	}
	k.stop = make(chan struct{})
	// The pod informer client-go's informer factory would build, without
	// the factory (which imports every API group's client).
	pods, sel := k.cs.CoreV1().Pods(k.ns), labels.SelectorFromSet(map[string]string{LabelSession: k.session}).String()
	inf := cache.NewSharedIndexInformer(cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (kruntime.Object, error) {
			o.LabelSelector = sel
			return pods.List(ctx, o)
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			o.LabelSelector = sel
			return pods.Watch(ctx, o)
		},
	}, k.cs), &corev1.Pod{}, 0, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	notify := func(obj any) {
		if p, ok := obj.(*corev1.Pod); ok {
			k.notify(p.Name)
		} else if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			k.notify(path.Base(d.Key))
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: notify, UpdateFunc: func(_, n any) { notify(n) }, DeleteFunc: notify,
	}); err != nil {
		return err
	}
	k.lister = listersv1.NewPodLister(inf.GetIndexer())
	go inf.Run(k.stop)
	if !cache.WaitForCacheSync(k.stop, inf.HasSynced) {
		return runtime.Infra(runtime.ReasonDaemon, fmt.Errorf("kubernetes: %T informer did not sync", &corev1.Pod{}))
	}
	return nil
}

// notify wakes the goroutines waiting on pod name.
func (k *Kubernetes) notify(name string) {
	k.mu.Lock()
	ws := k.waiters[name]
	k.mu.Unlock()
	for _, c := range ws {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

func (k *Kubernetes) watch(name string) (chan struct{}, func()) {
	c := make(chan struct{}, 1)
	k.mu.Lock()
	k.waiters[name] = append(k.waiters[name], c)
	k.mu.Unlock()
	return c, func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		ws := k.waiters[name]
		for i, w := range ws {
			if w == c {
				ws = append(ws[:i], ws[i+1:]...)
				break
			}
		}
		if len(ws) == 0 {
			delete(k.waiters, name)
		} else {
			k.waiters[name] = ws
		}
	}
}

// resourcesFor merges the per-language settings and spec's limits.
func (k *Kubernetes) resourcesFor(spec runtime.Spec) (corev1.ResourceRequirements, []string, error) {
	lang := strings.ToLower(strings.TrimSpace(spec.Language))
	r, ok := k.opts.Resources[lang]
	if !ok {
		r, ok = DefaultPodResources[lang]
	}
	if !ok {
		if r, ok = k.opts.Resources[""]; !ok {
			r = DefaultPodResources[""]
		}
	}
	var notes []string
	if spec.Limits.CPUs > 0 {
		r.CPULimit = strconv.FormatInt(int64(spec.Limits.CPUs*1000+0.5), 10) + "m"
	}
	if spec.Limits.MemoryBytes > 0 {
		r.MemoryLimit = strconv.FormatInt(spec.Limits.MemoryBytes, 10)
	}
	if spec.Limits.Pids > 0 {
		notes = append(notes, "pids limit not enforced per pod (the kubelet's podPidsLimit applies)")
	}
	req := corev1.ResourceRequirements{Requests: corev1.ResourceList{}, Limits: corev1.ResourceList{}}
	set := func(l corev1.ResourceList, name corev1.ResourceName, v string) error {
		if v == "" {
			return nil
		}
		q, err := resource.ParseQuantity(v)
		if err != nil {
			return fmt.Errorf("kubernetes %s %q: %w", name, v, err)
		}
		l[name] = q
		return nil
	}
	for _, e := range []error{
		set(req.Requests, corev1.ResourceCPU, r.CPURequest), set(req.Limits, corev1.ResourceCPU, r.CPULimit),
		set(req.Requests, corev1.ResourceMemory, r.MemoryRequest), set(req.Limits, corev1.ResourceMemory, r.MemoryLimit),
	} {
		if e != nil {
			return req, nil, e
		}
	}
	if spec.Limits.DiskBytes > 0 {
		req.Limits[corev1.ResourceEphemeralStorage] = *resource.NewQuantity(spec.Limits.DiskBytes, resource.BinarySI)
	}
	// A request above its limit is invalid: lower the request.
	for _, n := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if l, ok := req.Limits[n]; ok {
			if q, ok := req.Requests[n]; ok && q.Cmp(l) > 0 {
				req.Requests[n] = l
			}
		}
	}
	return req, notes, nil
}

// deadline is the time spec's pod may run after its container started
// (KubernetesOptions.PodDeadline, else PodDeadlineFor).
func (k *Kubernetes) deadline(spec runtime.Spec) time.Duration {
	if k.opts.PodDeadline > 0 {
		return k.opts.PodDeadline
	}
	t := spec.Timeout
	if t <= 0 {
		t = runtime.TimeoutFor(spec.Language)
	}
	return PodDeadlineFor(t)
}

// ceilSeconds is d in whole seconds, rounded up.
func ceilSeconds(d time.Duration) int64 {
	return int64(math.Ceil(d.Seconds()))
}

// PodFor returns the pod Start would create for spec (without owner), for
// inspection and tests.
//
// Its spec.activeDeadlineSeconds, the time from the kubelet's start of the
// pod (image pull included) after which the kubelet kills its containers
// and marks it Failed (reason DeadlineExceeded), is PendingTimeout + D,
// D the pod's deadline (KubernetesOptions.PodDeadline, else the test
// timeout + PodDeadlineAllowance): a pod that takes all of PendingTimeout
// to run still has D. Once the container runs, Start lowers it to the
// seconds since the pod was created + D (a deadline may be lowered, never
// raised), so the pod ends at most D after its container started, with
// or without the driver. Its container's main process, which idles while
// commands come through exec, ends D + 1 minute after the container
// started, which ends every process of the container even on a node whose
// kubelet no longer runs.
func (k *Kubernetes) PodFor(spec runtime.Spec) (*corev1.Pod, []string, error) {
	res, notes, err := k.resourcesFor(spec)
	if err != nil {
		return nil, nil, err
	}
	lbl := k.baseLabels()
	keys := make([]string, 0, len(spec.Labels))
	for key := range spec.Labels {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		if lk := labelKey(key); lk != "" {
			if _, ours := lbl[lk]; !ours {
				lbl[lk] = labelValue(spec.Labels[key])
			}
		}
	}
	if spec.Network {
		lbl[LabelNetwork] = "allowed"
	}
	var env []corev1.EnvVar
	for _, kv := range runtime.MergeEnv(nil, spec.Env, runtime.PinnedEnv) {
		name, val, _ := strings.Cut(kv, "=")
		env = append(env, corev1.EnvVar{Name: name, Value: val})
	}
	f, t := false, true
	zero := int64(0)
	sc := &corev1.SecurityContext{
		AllowPrivilegeEscalation: &f,
		Privileged:               &f,
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
		SeccompProfile:           &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
	if k.opts.RunAsUser != nil {
		sc.RunAsUser, sc.RunAsNonRoot = k.opts.RunAsUser, &t
	}
	mount := k.opts.MountServiceAccountToken
	ads := ceilSeconds(k.opts.PendingTimeout + k.deadline(spec))
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: podName(spec.Name), Namespace: k.ns, Labels: lbl,
			Annotations: map[string]string{"polynfi.io/name": spec.Name}},
		Spec: corev1.PodSpec{
			RestartPolicy:                 corev1.RestartPolicyNever,
			ActiveDeadlineSeconds:         &ads,
			TerminationGracePeriodSeconds: &zero,
			AutomountServiceAccountToken:  &mount,
			ServiceAccountName:            k.opts.ServiceAccount,
			EnableServiceLinks:            &f,
			NodeSelector:                  k.opts.NodeSelector,
			Tolerations:                   k.opts.Tolerations,
			SecurityContext:               &corev1.PodSecurityContext{SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
			Containers: []corev1.Container{{
				Name:            "sandbox",
				Image:           spec.Image,
				ImagePullPolicy: k.opts.ImagePullPolicy,
				// Idle until deleted or ended by the deadline (the
				// kubelet then kills every process of the pod), and
				// at most lifetimeSlack longer: when this main
				// process ends, the kernel kills every process of the
				// container, kubelet or not. Commands come through
				// exec. No signal handler: the kernel drops the signals
				// a process of the container sends its PID 1 without
				// one, so the code under test cannot end the pod (a
				// trap on TERM let it); pods are deleted with a grace
				// period of 0 (SIGKILL).
				Command:         []string{"/bin/sh", "-c", fmt.Sprintf("trap '' TERM INT HUP; sleep %d & wait $!", ceilSeconds(k.deadline(spec)+k.lifetimeSlack))},
				WorkingDir:      spec.Workdir,
				Env:             env,
				Resources:       res,
				SecurityContext: sc,
			}},
		},
	}
	for _, s := range k.opts.ImagePullSecrets {
		pod.Spec.ImagePullSecrets = append(pod.Spec.ImagePullSecrets, corev1.LocalObjectReference{Name: s})
	}
	return pod, notes, nil
}

// Start implements Runtime: it creates the pod and waits until its
// container runs. Failures are InfraErrors: ReasonPending (not running
// within PendingTimeout), ReasonImage (pull errors, invalid or absent
// image), ReasonEvicted, ReasonGone (deleted or failed before running),
// ReasonAPI/ReasonDaemon (the API server). The pod is deleted on failure.
func (k *Kubernetes) Start(ctx context.Context, spec runtime.Spec) (runtime.Sandbox, error) {
	if spec.Image == "" {
		return nil, errors.New("kubernetes sandbox: no image")
	}
	if err := k.Prepare(ctx); err != nil {
		return nil, err
	}
	pod, notes, err := k.PodFor(spec)
	if err != nil {
		return nil, err
	}
	pod.OwnerReferences = []metav1.OwnerReference{*k.owner}
	wake, unwatch := k.watch(pod.Name)
	defer unwatch()
	created := time.Now()
	if _, err := k.cs.CoreV1().Pods(k.ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, runtime.Infra(apiReason(err), fmt.Errorf("create pod %s: %w", pod.Name, err))
	}
	s := &podSandbox{k: k, name: pod.Name, workdir: spec.Workdir, created: created, memLimit: memLimit(pod),
		info: runtime.Info{Runtime: k.Name(), ID: pod.Name, Image: spec.Image, Isolation: IsolationPod, Notes: notes}}
	if !k.opts.NoNetworkPolicy && !spec.Network {
		s.info.Notes = append(s.info.Notes, "network denied by NetworkPolicy (enforced only where the cluster's network plugin enforces NetworkPolicy)")
	}
	deadline := time.NewTimer(k.opts.PendingTimeout)
	defer deadline.Stop()
	for {
		p, err := k.lister.Pods(k.ns).Get(pod.Name)
		if err == nil {
			done, ierr := podStarted(p)
			if done && ierr == nil {
				s.info.Node = p.Spec.NodeName
				s.Started = time.Since(created)
				s.info.StartS = math.Round(s.Started.Seconds()*1000) / 1000
				s.lowerDeadline(ctx, k.deadline(spec))
				return s, nil
			}
			if ierr != nil {
				_ = s.Remove(context.WithoutCancel(ctx))
				return nil, ierr
			}
		}
		select {
		case <-wake:
		case <-time.After(2 * time.Second): // belt and braces: re-read the cache
		case <-deadline.C:
			msg := "not running"
			if p != nil {
				msg = pendingWhy(p)
			}
			_ = s.Remove(context.WithoutCancel(ctx))
			return nil, runtime.Infra(runtime.ReasonPending, fmt.Errorf("pod %s: %s after %s", pod.Name, msg, k.opts.PendingTimeout))
		case <-ctx.Done():
			_ = s.Remove(context.WithoutCancel(ctx))
			return nil, ctx.Err()
		}
	}
}

// lowerDeadline sets the running pod's activeDeadlineSeconds to the
// seconds since its creation (an upper bound of the time since the
// kubelet's start of it, without comparing clocks) + d, so that the
// kubelet ends it at most d from now (PodFor), and records d. A pod whose
// deadline cannot be lowered keeps the one it was created with (a note
// says so).
func (s *podSandbox) lowerDeadline(ctx context.Context, d time.Duration) {
	n := ceilSeconds(time.Since(s.created) + d)
	patch := fmt.Sprintf(`{"spec":{"activeDeadlineSeconds":%d}}`, n)
	_, err := s.k.cs.CoreV1().Pods(s.k.ns).Patch(context.WithoutCancel(ctx), s.name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		s.info.DeadlineS = float64(ceilSeconds(s.k.opts.PendingTimeout + d))
		s.info.Notes = append(s.info.Notes, fmt.Sprintf("pod deadline not lowered to %d s (%v): it ends %s after the kubelet started it", n, err, s.k.opts.PendingTimeout+d))
		return
	}
	s.deadline = d
	s.info.DeadlineS = float64(ceilSeconds(d))
	s.info.Notes = append(s.info.Notes, fmt.Sprintf("the cluster ends the pod %s after it started running (activeDeadlineSeconds %d), whether or not polynfi still runs", d, n))
}

// podStarted says whether p's container runs (true, nil), cannot run
// (true, InfraError), or may still start (false, nil).
func podStarted(p *corev1.Pod) (bool, error) {
	if p.DeletionTimestamp != nil {
		return true, runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s is being deleted", p.Name))
	}
	if err := podFailure(p); err != nil {
		return true, err
	}
	for _, c := range p.Status.ContainerStatuses {
		if w := c.State.Waiting; w != nil {
			switch w.Reason {
			case "ErrImagePull", "ImagePullBackOff", "ErrImageNeverPull", "InvalidImageName", "ImageInspectError", "RegistryUnavailable":
				return true, runtime.Infra(runtime.ReasonImage, fmt.Errorf("pod %s: image %s: %s: %s", p.Name, c.Image, w.Reason, w.Message))
			case "CreateContainerConfigError", "CreateContainerError", "RunContainerError":
				return true, runtime.Infra(runtime.ReasonAPI, fmt.Errorf("pod %s: %s: %s", p.Name, w.Reason, w.Message))
			}
		}
		if c.State.Running != nil && p.Status.Phase == corev1.PodRunning {
			return true, nil
		}
	}
	return false, nil
}

// podFailure classifies a pod that can no longer run commands: evicted,
// OOM-killed, failed or finished, node lost. Nil when it still can.
func podFailure(p *corev1.Pod) error {
	if p.Status.Reason == "DeadlineExceeded" {
		ads := "?"
		if p.Spec.ActiveDeadlineSeconds != nil {
			ads = strconv.FormatInt(*p.Spec.ActiveDeadlineSeconds, 10)
		}
		return runtime.Infra(runtime.ReasonDeadline, fmt.Errorf("pod %s ended by the kubelet at its deadline (activeDeadlineSeconds %s since %s; --pod-deadline): %s", p.Name, ads, startTime(p), p.Status.Message))
	}
	if p.Status.Reason == "Evicted" {
		return runtime.Infra(runtime.ReasonEvicted, fmt.Errorf("pod %s evicted: %s", p.Name, p.Status.Message))
	}
	if p.Status.Reason == "NodeLost" {
		return runtime.Infra(runtime.ReasonNodeLost, fmt.Errorf("pod %s: %s: %s", p.Name, p.Status.Reason, p.Status.Message))
	}
	if p.Status.Reason == "UnexpectedAdmissionError" || p.Status.Reason == "NodeAffinity" {
		return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s: %s: %s", p.Name, p.Status.Reason, p.Status.Message))
	}
	// The kubelet marks a pod it evicts (TerminationByKubelet) before its
	// phase and reason change; the container is already gone then.
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue {
			if c.Reason == "TerminationByKubelet" || strings.Contains(c.Message, "evict") {
				return runtime.Infra(runtime.ReasonEvicted, fmt.Errorf("pod %s: %s: %s", p.Name, c.Reason, c.Message))
			}
			// The taint manager deletes the pods of a node that stays
			// unreachable or not ready past their NoExecute toleration
			// (300 s by default); the node controller marked them not
			// ready before.
			if c.Reason == "DeletionByTaintManager" && podNotReady(p) {
				return runtime.Infra(runtime.ReasonNodeLost, fmt.Errorf("pod %s on node %s: %s: %s", p.Name, p.Spec.NodeName, c.Reason, c.Message))
			}
			return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s: %s: %s", p.Name, c.Reason, c.Message))
		}
	}
	for _, c := range p.Status.ContainerStatuses {
		if t := c.State.Terminated; t != nil {
			if t.Reason == "OOMKilled" {
				return runtime.Infra(runtime.ReasonOOM, fmt.Errorf("pod %s: container killed for memory (limit %s)", p.Name, memLimit(p)))
			}
			return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s: container exited (%s, code %d)", p.Name, t.Reason, t.ExitCode))
		}
	}
	if p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
		return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s %s: %s %s", p.Name, p.Status.Phase, p.Status.Reason, p.Status.Message))
	}
	return nil
}

// startTime is the kubelet's start of p in RFC 3339, or "its start".
func startTime(p *corev1.Pod) string {
	if p.Status.StartTime == nil {
		return "its start"
	}
	return p.Status.StartTime.UTC().Format(time.RFC3339)
}

// podNotReady says whether p's Ready condition is False.
func podNotReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionFalse
		}
	}
	return false
}

func memLimit(p *corev1.Pod) string {
	if len(p.Spec.Containers) > 0 {
		if q, ok := p.Spec.Containers[0].Resources.Limits[corev1.ResourceMemory]; ok {
			return q.String()
		}
	}
	return "none"
}

// pendingWhy says why a pod is not running yet, from its conditions.
func pendingWhy(p *corev1.Pod) string {
	for _, c := range p.Status.Conditions {
		if c.Status != corev1.ConditionTrue && c.Message != "" {
			return fmt.Sprintf("%s: %s", c.Reason, c.Message)
		}
	}
	for _, c := range p.Status.ContainerStatuses {
		if c.State.Waiting != nil {
			return fmt.Sprintf("%s %s", c.State.Waiting.Reason, c.State.Waiting.Message)
		}
	}
	return "phase " + string(p.Status.Phase)
}

// apiReason maps an API error to ReasonDaemon (server unreachable or
// overloaded) or ReasonAPI.
func apiReason(err error) string {
	if apierrors.IsServerTimeout(err) || apierrors.IsTimeout(err) || apierrors.IsTooManyRequests(err) || apierrors.IsServiceUnavailable(err) || apierrors.IsInternalError(err) {
		return runtime.ReasonDaemon
	}
	var se apierrors.APIStatus
	if !errors.As(err, &se) { // not an answer of the API server: transport
		return runtime.ReasonDaemon
	}
	return runtime.ReasonAPI
}

type podSandbox struct {
	k       *Kubernetes
	name    string
	workdir string
	info    runtime.Info
	created time.Time
	// Started is the time from the pod's creation to its running
	// container, as Start measured it.
	Started time.Duration
	// memLimit is the container's memory limit as the record states it;
	// oomSeen the OOM kills of its cgroup already reported (a new
	// container's cgroup starts at 0).
	memLimit string
	oomSeen  int
	// deadline is the pod's deadline counted from its container running
	// (lowerDeadline; 0 when it could not be lowered).
	deadline time.Duration
	// ended is set when settle deleted the pod at a command's timeout:
	// the error (wrapping runtime.ErrEndedAtTimeout) of every later call.
	ended   error
	removed sync.Once
	rmErr   error
}

func (s *podSandbox) Info() runtime.Info { return s.info }
func (s *podSandbox) Workdir() string    { return s.workdir }

// StartLatency returns the time from creating sb's pod to its running
// container; 0 for a sandbox of another runtime.
func StartLatency(sb runtime.Sandbox) time.Duration {
	if p, ok := sb.(*podSandbox); ok {
		return p.Started
	}
	return 0
}

// dir resolves a sandbox path against the work directory.
func (s *podSandbox) dir(p string) string {
	switch {
	case p == "":
		if s.workdir == "" {
			return "."
		}
		return s.workdir
	case path.IsAbs(p) || s.workdir == "":
		return p
	}
	return path.Join(s.workdir, p)
}

// stream runs argv in the pod's container with the given streams.
func (s *podSandbox) stream(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) error {
	req := s.k.cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(s.k.ns).Name(s.name).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: "sandbox", Command: argv,
			Stdin: stdin != nil, Stdout: stdout != nil, Stderr: stderr != nil}, codecs().params)
	ws, err := remotecommand.NewWebSocketExecutor(s.k.cfg, "GET", req.URL().String())
	if err != nil {
		return runtime.Infra(runtime.ReasonAPI, err)
	}
	spdy, err := remotecommand.NewSPDYExecutor(s.k.cfg, "POST", req.URL())
	if err != nil {
		return runtime.Infra(runtime.ReasonAPI, err)
	}
	ex, err := remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
	if err != nil {
		return runtime.Infra(runtime.ReasonAPI, err)
	}
	gctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := s.guard(gctx, cancel)
	err = ex.StreamWithContext(gctx, remotecommand.StreamOptions{Stdin: stdin, Stdout: stdout, Stderr: stderr})
	stop()
	if err != nil && ctx.Err() == nil && gctx.Err() != nil {
		if cause := context.Cause(gctx); runtime.InfraReason(cause) != "" {
			return cause // the guard's reason
		}
	}
	return err
}

// How long failure waits for the reason of an exec that failed: a pod that
// still looks healthy (and answers a probe exec) gets explainHealthy before
// the failure is called api_error; a pod whose container stopped gets
// explainDying for the kubelet's status (Evicted, OOMKilled, ...) or event
// to reach the API server (on a loaded node it has taken more than 45 s).
var (
	explainHealthy = 15 * time.Second
	explainDying   = 3 * time.Minute
)

// podLook is what one look at a failed pod says.
type podLook int

const (
	lookHealthy podLook = iota // runs as before: the exec itself failed
	lookDying                  // the container stopped, the pod's status has no reason yet
	lookFinal                  // the reason is known
)

// failure explains an exec that could not run or was killed: the pod's
// state when it no longer runs, its node's when the node stopped
// reporting, else the API error. It watches the pod (informer events,
// re-read every 2 s) until its reason is known. A pod that still looks
// healthy after explainHealthy is probed with one more exec: if that runs,
// the failure was the exec's own (api_error); if not, or if the pod's
// container has stopped, the pod is dying and is waited for up to
// explainDying, its Events read at each look (the kubelet's Evicted event
// often reaches the API before the pod's status), and is then
// sandbox_gone. suspect (the caller's own exec already found the container
// not answering) reads the Events from the first look. A reason the
// stream's guard gave (node_lost, evicted, ...) is returned as it is.
func (s *podSandbox) failure(ctx context.Context, err error, suspect bool) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if r := runtime.InfraReason(err); r != "" && r != runtime.ReasonAPI && r != runtime.ReasonDaemon {
		return err
	}
	wake, unwatch := s.k.watch(s.name)
	defer unwatch()
	t0 := time.Now()
	dying := false
	for {
		ferr, look := s.podState(ctx, err)
		if look == lookFinal {
			return ferr
		}
		if look == lookDying {
			dying = true
		}
		if dying || suspect {
			if eerr := s.eventReason(ctx); eerr != nil {
				return eerr
			}
		}
		waited := time.Since(t0)
		switch {
		case dying && waited >= explainDying:
			return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s: %w; its container stopped and neither the pod's status nor its events said why within %s", s.name, err, explainDying))
		case !dying && waited >= explainHealthy:
			// Does the container still answer? Then the exec itself
			// failed (the API server, the connection): api_error.
			pctx, cancel := context.WithTimeout(ctx, time.Minute)
			perr := s.stream(pctx, []string{"/bin/sh", "-c", "exit 0"}, nil, io.Discard, io.Discard)
			cancel()
			if perr == nil {
				return ferr
			}
			if r := runtime.InfraReason(perr); r != "" && r != runtime.ReasonAPI && r != runtime.ReasonDaemon {
				return perr
			}
			dying = true
		}
		select {
		case <-ctx.Done():
			return ferr
		case <-wake:
		case <-time.After(2 * time.Second):
		}
	}
}

// podState is one look at the pod for failure: the error, and whether its
// reason is final (the pod's own failure other than a plain exit, its
// deletion, a lost node, or an API error reading it), the pod is dying (its
// container stopped, no reason yet) or looks healthy.
func (s *podSandbox) podState(ctx context.Context, err error) (error, podLook) {
	p, gerr := s.k.cs.CoreV1().Pods(s.k.ns).Get(context.WithoutCancel(ctx), s.name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(gerr):
		// An evicted pod that something deleted since keeps its event.
		if eerr := s.eventReason(ctx); eerr != nil {
			return eerr, lookFinal
		}
		return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s deleted: %w", s.name, err)), lookFinal
	case gerr != nil:
		return runtime.Infra(apiReason(gerr), fmt.Errorf("pod %s: %w (and reading the pod: %v)", s.name, err, gerr)), lookFinal
	}
	ferr := podFailure(p)
	if ferr != nil && runtime.InfraReason(ferr) != runtime.ReasonGone {
		return ferr, lookFinal
	}
	// A node that stopped reporting keeps its pods "Running" for minutes
	// (the exec stalls or fails first): ask the node.
	if nerr := s.k.nodeLost(ctx, p, err); nerr != nil {
		return nerr, lookFinal
	}
	if ferr != nil {
		if p.Status.Reason != "" || p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
			return ferr, lookFinal
		}
		return ferr, lookDying // the container exited; the kubelet's reason may follow
	}
	if p.DeletionTimestamp != nil {
		return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s is being deleted: %w", s.name, err)), lookFinal
	}
	var ie *runtime.InfraError
	if errors.As(err, &ie) {
		return err, lookFinal
	}
	return runtime.Infra(runtime.ReasonAPI, fmt.Errorf("exec in pod %s: %w", s.name, err)), lookHealthy
}

// nodeLost returns a ReasonNodeLost error when p's node is not Ready (the
// node controller set Ready=Unknown after the kubelet's heartbeats stopped
// for its --node-monitor-grace-period, or the kubelet reported NotReady) or
// no longer exists; nil when it is Ready, p is not bound, or the node
// cannot be read (a namespaced user may not read nodes).
func (k *Kubernetes) nodeLost(ctx context.Context, p *corev1.Pod, err error) error {
	if p.Spec.NodeName == "" {
		return nil
	}
	n, nerr := k.cs.CoreV1().Nodes().Get(context.WithoutCancel(ctx), p.Spec.NodeName, metav1.GetOptions{})
	if apierrors.IsNotFound(nerr) {
		return runtime.Infra(runtime.ReasonNodeLost, fmt.Errorf("pod %s: node %s deleted: %w", p.Name, p.Spec.NodeName, err))
	}
	if nerr != nil {
		return nil
	}
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady && c.Status != corev1.ConditionTrue {
			return runtime.Infra(runtime.ReasonNodeLost, fmt.Errorf("pod %s: node %s lost (Ready=%s since %s, %s: %s): %w",
				p.Name, n.Name, c.Status, c.LastTransitionTime.UTC().Format(time.RFC3339), c.Reason, c.Message, err))
		}
	}
	return nil
}

// eventReason reads the pod's Events for a reason its status may not show
// yet (or no longer, once deleted): the kubelet's Evicted, the taint
// manager's deletion (a NoExecute taint: node unreachable or not ready),
// a preemption. Nil when there is none or Events cannot be read.
func (s *podSandbox) eventReason(ctx context.Context) error {
	sel := fields.SelectorFromSet(fields.Set{"involvedObject.kind": "Pod", "involvedObject.name": s.name}).String()
	evs, err := s.k.cs.CoreV1().Events(s.k.ns).List(context.WithoutCancel(ctx), metav1.ListOptions{FieldSelector: sel})
	if err != nil {
		return nil
	}
	for _, e := range evs.Items {
		switch e.Reason {
		case "Evicted":
			return runtime.Infra(runtime.ReasonEvicted, fmt.Errorf("pod %s evicted (event from %s): %s", s.name, e.Source.Component, e.Message))
		case "TaintManagerEviction":
			return runtime.Infra(runtime.ReasonNodeLost, fmt.Errorf("pod %s deleted by the taint manager (event): %s", s.name, e.Message))
		case "DeadlineExceeded":
			d := "its deadline"
			if s.deadline > 0 {
				d = fmt.Sprintf("its deadline, %s after its container started", s.deadline)
			}
			return runtime.Infra(runtime.ReasonDeadline, fmt.Errorf("pod %s ended by the kubelet at %s (--pod-deadline; event): %s", s.name, d, e.Message))
		case "Preempted", "Preempting":
			return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s preempted (event): %s", s.name, e.Message))
		}
	}
	return nil
}

// guard watches the pod (through the shared informer, and every 10 s)
// while one of its exec streams runs, and cancels the stream with the
// reason the stream itself cannot give: the pod was deleted, evicted or
// OOM-killed, or its node stopped reporting. A lost node's exec stream
// stalls rather than fails (the kubelet that relays it is gone), so the
// pod's Ready condition, which the node controller sets to False when the
// node's heartbeats stop, is the signal to ask the node (one API read,
// only then). stop ends the watch.
func (s *podSandbox) guard(ctx context.Context, cancel context.CancelCauseFunc) (stop func()) {
	if s.k.lister == nil {
		return func() {}
	}
	wake, unwatch := s.k.watch(s.name)
	done := make(chan struct{})
	go func() {
		defer unwatch()
		tick := time.NewTicker(10 * time.Second)
		defer tick.Stop()
		for {
			if err := s.guardLook(ctx); err != nil {
				cancel(err)
				return
			}
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-wake:
			case <-tick.C:
			}
		}
	}()
	return func() { close(done) }
}

// guardLook is one look of guard at the informer's copy of the pod.
func (s *podSandbox) guardLook(ctx context.Context) error {
	p, err := s.k.lister.Pods(s.k.ns).Get(s.name)
	if apierrors.IsNotFound(err) {
		return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s deleted while a command ran", s.name))
	}
	if err != nil {
		return nil
	}
	if ferr := podFailure(p); ferr != nil && runtime.InfraReason(ferr) != runtime.ReasonGone {
		return ferr
	}
	if p.DeletionTimestamp != nil {
		return runtime.Infra(runtime.ReasonGone, fmt.Errorf("pod %s is being deleted", s.name))
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionFalse && p.Status.Phase == corev1.PodRunning {
			return s.k.nodeLost(ctx, p, fmt.Errorf("the exec stream stalled or failed (pod Ready=False since %s)", c.LastTransitionTime.UTC().Format(time.RFC3339)))
		}
	}
	return nil
}

// oomScript prints the memory cgroup's OOM-kill count (cgroup v1 or v2) as
// the container sees it, or nothing.
const oomScript = `f=/sys/fs/cgroup/memory/memory.oom_control; [ -r $f ] || f=/sys/fs/cgroup/memory.events; ` +
	`[ -r $f ] && while read k v; do [ "$k" = oom_kill ] && echo "$v"; done < $f; exit 0`

// oomKills returns the OOM kills the container's memory cgroup counts (-1
// when it cannot tell) and the exec's error when it could not run at all.
func (s *podSandbox) oomKills(ctx context.Context) (int, error) {
	var out runtime.CapBuffer
	out.Max = 64
	err := s.stream(ctx, []string{"/bin/sh", "-c", oomScript}, nil, &out, io.Discard)
	var ee utilexec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return -1, err
	}
	n, perr := strconv.Atoi(strings.TrimSpace(out.String()))
	if perr != nil {
		return -1, nil
	}
	return n, nil
}

// Exec implements Sandbox. The command runs under coreutils timeout (TERM at
// cmd.Timeout, KILL 10 s later, to its whole process group), in cmd.Dir,
// with cmd.Env and PinnedEnv added to the pod's environment; the driver
// closes its stream streamSlack after cmd.Timeout. After a timeout, every
// process the command left in the pod is killed (settle): by one more
// exec, or, when none can start (a fork bomb holds every process slot),
// by deleting the pod, after which every call of the sandbox returns an
// error wrapping runtime.ErrEndedAtTimeout; the command is a Result with
// TimedOut either way. After a non-zero exit, one more exec reads the
// container's memory cgroup: a new OOM kill there makes the result an
// InfraError with ReasonOOM.
//
// A pod ended at its deadline (PodFor) while the command ran is decided by
// what the driver saw of the command: one that had already run for
// cmd.Timeout or longer (its processes outlived the in-pod timeout, e.g.
// a child holding its output open) is a command killed at its timeout,
// Result.TimedOut, as it would have been had the driver closed its stream;
// one still within its timeout, or a command without one, is an
// InfraError with ReasonDeadline (the environment was too slow, not the
// code under test).
func (s *podSandbox) Exec(ctx context.Context, c runtime.Command) (runtime.Result, error) {
	if s.ended != nil {
		return runtime.Result{ExitCode: -1, Isolation: IsolationPod}, s.ended
	}
	if c.User != "" {
		return runtime.Result{ExitCode: -1, Isolation: IsolationPod}, fmt.Errorf("exec in pod %s as user %q: the kubernetes runtime runs every command as the pod's user", s.name, c.User)
	}
	res, err := s.exec(ctx, c)
	if runtime.InfraReason(err) == runtime.ReasonDeadline && c.Timeout > 0 && res.Duration >= c.Timeout {
		res.TimedOut, res.ExitCode = true, -1
		res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s: still running %s after it started, when the pod's deadline ended it (%v)",
			c.Timeout, res.Duration.Round(time.Second), err))
		return res, nil
	}
	return res, err
}

func (s *podSandbox) exec(ctx context.Context, c runtime.Command) (runtime.Result, error) {
	res := runtime.Result{ExitCode: -1, Isolation: IsolationPod}
	body, err := c.Argv()
	if err != nil {
		return res, fmt.Errorf("exec: %w", err)
	}
	argv := []string{"/bin/sh", "-c", `cd -- "$1" || exit 126; shift; exec "$@"`, "sh", s.dir(c.Dir)}
	if c.Timeout > 0 {
		argv = append(argv, "timeout", "-k", "10", strconv.FormatFloat(c.Timeout.Seconds(), 'f', 3, 64))
	}
	argv = append(argv, "env")
	argv = append(argv, runtime.MergeEnv(nil, c.Env, runtime.PinnedEnv)...)
	argv = append(argv, body...)
	sctx, cancel := ctx, func() {}
	if c.Timeout > 0 {
		// A backstop when the in-pod timeout cannot act, or when what the
		// command left (out of its process group) holds its output open
		// past the KILL: the driver closes the stream, then settles.
		sctx, cancel = context.WithTimeout(ctx, c.Timeout+streamSlack)
	}
	defer cancel()
	stdout := &runtime.CapBuffer{Max: s.k.maxOutput}
	stderr := &runtime.CapBuffer{Max: s.k.maxOutput}
	start := time.Now()
	err = s.stream(sctx, argv, nil, stdout, stderr)
	res.Duration = time.Since(start)
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	for _, b := range []*runtime.CapBuffer{stdout, stderr} {
		if b.Dropped() > 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("output truncated: %d bytes dropped", b.Dropped()))
		}
	}
	var ee utilexec.ExitError
	switch {
	case err == nil:
		res.ExitCode = 0
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitStatus()
	case ctx.Err() != nil:
		return res, fmt.Errorf("exec in pod %s: %w", s.name, ctx.Err())
	case sctx.Err() != nil:
		res.TimedOut = true
		res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s (stream closed by the driver)", c.Timeout))
		if _, serr := s.settle(ctx, &res); serr != nil {
			return res, serr
		}
		return res, nil
	default:
		return res, s.failure(ctx, err, false)
	}
	// timeout(1) exits 124 after TERM, 137 after KILL.
	if c.Timeout > 0 && (res.ExitCode == 124 || res.ExitCode == 137) && res.Duration >= c.Timeout {
		usable, serr := s.settle(ctx, &res)
		if serr != nil {
			return res, serr // the pod ended by itself (Exec: a deadline past the timeout is the timeout)
		}
		if !usable {
			res.TimedOut, res.ExitCode = true, -1
			res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s", c.Timeout))
			return res, nil
		}
	}
	if res.ExitCode != 0 {
		// timeout(1) exits 124 after TERM, 137 after KILL; an OOM kill is
		// 137 too, told apart by the cgroup's counter.
		n, cerr := s.oomKills(ctx)
		if n > s.oomSeen {
			s.oomSeen = n
			return res, runtime.Infra(runtime.ReasonOOM, fmt.Errorf("pod %s: a process was killed for memory (limit %s)", s.name, s.memLimit))
		}
		if cerr != nil || res.ExitCode == 137 {
			// The pod no longer answers, or the command was SIGKILLed:
			// deleted, evicted (the kubelet kills the container, and an
			// exec into it may still answer), node lost?
			var ferr error
			if cerr != nil {
				ferr = s.failure(ctx, fmt.Errorf("command exit %d, then the container did not answer: %w", res.ExitCode, cerr), true)
			} else {
				// the container answered: a pod that looks healthy is
				// left alone; one whose container has stopped is
				// watched for the kubelet's reason (eviction)
				why := fmt.Errorf("command killed (exit 137)")
				var look podLook
				if ferr, look = s.podState(ctx, why); look == lookDying {
					ferr = s.failure(ctx, why, true)
				}
			}
			if r := runtime.InfraReason(ferr); r != runtime.ReasonAPI && r != runtime.ReasonDaemon {
				return res, ferr
			}
			if cerr != nil {
				res.Notes = append(res.Notes, fmt.Sprintf("could not read the container's OOM count: %v", cerr))
			}
		}
		if c.Timeout > 0 && (res.ExitCode == 124 || res.ExitCode == 137) && res.Duration >= c.Timeout {
			res.TimedOut = true
			res.ExitCode = -1
			res.Notes = append(res.Notes, fmt.Sprintf("killed at timeout %s", c.Timeout))
		}
	}
	return res, nil
}

// settleScript ends every process of the container but PID 1, its
// keep-alive sleep (the oldest child of PID 1, by start time) and itself,
// forking nothing (kill and read are shell builtins): kill -STOP -1 stops
// them all at once (a process that forks cannot escape it: the kernel
// gives a signal sent to many processes during a fork to the child too),
// then each is killed, until only zombies (which PID 1 reaps) are left;
// the keep-alive is continued. Exit 1 when processes are left after 500
// rounds. The fields of /proc/PID/stat after the command name in
// parentheses: $1 state, $2 parent pid, ${20} start time (proc(5)).
const settleScript = `kill -STOP -1 2>/dev/null
keep= kt=
for d in /proc/[0-9]*; do
  read -r s 2>/dev/null < "$d/stat" || continue
  set -- ${s##*") "}
  [ "$2" = 1 ] || continue
  eval t=\${20}
  if [ -z "$kt" ] || [ "$t" -lt "$kt" ]; then keep=${d#/proc/} kt=$t; fi
done
n=0
while :; do
  left=0
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    case $p in 1|$$|$keep) continue ;; esac
    read -r s 2>/dev/null < "$d/stat" || continue
    set -- ${s##*") "}
    case $1 in Z|X) continue ;; esac
    kill -9 "$p" 2>/dev/null; left=$((left + 1))
  done
  [ $left = 0 ] && break
  n=$((n + 1))
  if [ $n -ge 500 ]; then [ -n "$keep" ] && kill -CONT "$keep"; echo "$left processes left" >&2; exit 1; fi
  kill -STOP -1 2>/dev/null
done
[ -n "$keep" ] && kill -CONT "$keep"
exit 0`

// How long settle waits for its exec (settleWait) and for the pod's
// deletion to be confirmed (endWait); streamSlack is how long after a
// command's timeout the driver closes its stream (the in-pod KILL comes
// 10 s after the timeout; a pod deadline below the timeout + streamSlack
// ends such a command first, see Exec). polynfi's own margins, not
// measured; tests shorten them.
var (
	streamSlack = time.Minute
	settleWait  = 45 * time.Second
	endWait     = 2 * time.Minute
)

// settle ends every process a command left in the pod once it was killed
// at its timeout: in-pod timeout(1) kills the command's process group
// only, and a fork bomb that re-forks can outlive it and hold every
// process slot of the pod (the kubelet's podPidsLimit), so that no exec,
// the harness's next command or this one, can start. One exec kills
// every process but PID 1 (settleScript); when it cannot run or processes
// are left, the pod is deleted (endAtTimeout), unless it is ending by
// itself (its deadline, an eviction, a deletion, its container stopped:
// podEnding), whose reason failure then returns as the error. It returns
// whether the pod is still usable; notes go to res.
func (s *podSandbox) settle(ctx context.Context, res *runtime.Result) (bool, error) {
	if ctx.Err() != nil {
		return true, nil // the caller's context decides
	}
	sctx, cancel := context.WithTimeout(ctx, settleWait)
	var stderr runtime.CapBuffer
	stderr.Max = 4096
	err := s.stream(sctx, []string{"/bin/sh", "-c", settleScript}, nil, io.Discard, &stderr)
	cancel()
	if err == nil || ctx.Err() != nil {
		return true, nil
	}
	if s.podEnding(ctx) {
		return false, s.failure(ctx, fmt.Errorf("after the command's timeout: %w", err), true)
	}
	why := err.Error()
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		why += ": " + msg
	}
	s.endAtTimeout(ctx, res, why)
	return false, nil
}

// podEnding says whether the pod is gone or ending by itself, as one read
// of it says: deleted or being deleted, failed (podFailure), its container
// not running, or its deadline (lowerDeadline) reached within 2 s by the
// driver's clock; also when it cannot be read (failure tells why).
func (s *podSandbox) podEnding(ctx context.Context) bool {
	p, err := s.k.cs.CoreV1().Pods(s.k.ns).Get(context.WithoutCancel(ctx), s.name, metav1.GetOptions{})
	if err != nil || p.DeletionTimestamp != nil || podFailure(p) != nil {
		return true
	}
	for _, c := range p.Status.ContainerStatuses {
		if c.State.Running == nil {
			return true
		}
	}
	return s.deadline > 0 && time.Since(s.created) >= s.Started+s.deadline-2*time.Second
}

// endAtTimeout deletes the pod (grace period 1 s: the kubelet kills its
// containers, every process of them, and only then removes the pod from
// the API server) and waits up to endWait for it to be gone; past that it
// forces the deletion (grace period 0). Every later call of the sandbox
// returns an error wrapping runtime.ErrEndedAtTimeout.
func (s *podSandbox) endAtTimeout(ctx context.Context, res *runtime.Result, why string) {
	ctx = context.WithoutCancel(ctx)
	s.ended = fmt.Errorf("pod %s: %w (what the command left running could not be killed inside it: %s)", s.name, runtime.ErrEndedAtTimeout, why)
	wake, unwatch := s.k.watch(s.name)
	defer unwatch()
	t0 := time.Now()
	one := int64(1)
	bg := metav1.DeletePropagationBackground
	pods := s.k.cs.CoreV1().Pods(s.k.ns)
	if err := pods.Delete(ctx, s.name, metav1.DeleteOptions{GracePeriodSeconds: &one, PropagationPolicy: &bg}); err != nil && !apierrors.IsNotFound(err) {
		res.Notes = append(res.Notes, fmt.Sprintf("what the command left running could not be killed inside the pod (%s), and deleting the pod failed: %v", why, err))
		return
	}
	limit := time.NewTimer(endWait)
	defer limit.Stop()
	for {
		var err error
		if s.k.lister != nil {
			_, err = s.k.lister.Pods(s.k.ns).Get(s.name)
		} else {
			_, err = pods.Get(ctx, s.name, metav1.GetOptions{})
		}
		if apierrors.IsNotFound(err) {
			res.Notes = append(res.Notes, fmt.Sprintf("what the command left running could not be killed inside the pod (%s): the pod was deleted, its containers killed in %s",
				why, time.Since(t0).Round(100*time.Millisecond)))
			return
		}
		select {
		case <-wake:
		case <-time.After(time.Second):
		case <-limit.C:
			zero := int64(0)
			_ = pods.Delete(ctx, s.name, metav1.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: &bg})
			res.Notes = append(res.Notes, fmt.Sprintf("what the command left running could not be killed inside the pod (%s): the pod was deleted, and its deletion forced after %s without the kubelet's confirmation", why, endWait))
			return
		}
	}
}

// CopyIn implements Sandbox: the files go as one tar stream, written while
// it is sent, into `tar -x` in the pod (owner not restored: the container
// has no CAP_CHOWN).
func (s *podSandbox) CopyIn(ctx context.Context, dir string, files []runtime.File) error {
	if s.ended != nil {
		return s.ended
	}
	for _, f := range files {
		if err := safepath.Check(f.Path); err != nil {
			return fmt.Errorf("copy into pod %s: %w", s.name, err)
		}
	}
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		now := time.Now()
		made := map[string]bool{}
		var err error
		for _, f := range files {
			// parent directories first, so tar creates them with a mode
			for d := path.Dir(f.Path); d != "." && !made[d] && err == nil; d = path.Dir(d) {
				made[d] = true
			}
			mode := int64(f.Mode.Perm())
			if mode == 0 {
				mode = 0o644
			}
			if err == nil {
				err = tw.WriteHeader(&tar.Header{Name: f.Path, Mode: mode, Size: int64(len(f.Data)), ModTime: now, Typeflag: tar.TypeReg})
			}
			if err == nil {
				_, err = tw.Write(f.Data)
			}
		}
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	d := s.dir(dir)
	var stderr runtime.CapBuffer
	stderr.Max = 4096
	err := s.stream(ctx, []string{"/bin/sh", "-c", `mkdir -p -- "$1" && exec tar -x -m --no-same-owner -C "$1" -f -`, "sh", d}, pr, io.Discard, &stderr)
	pr.Close()
	var ee utilexec.ExitError
	if errors.As(err, &ee) {
		return fmt.Errorf("copy into pod %s:%s: tar exit %d: %s", s.name, d, ee.ExitStatus(), strings.TrimSpace(stderr.String()))
	}
	if err != nil {
		return s.failure(ctx, err, false)
	}
	return nil
}

// CopyOut implements Sandbox: `tar -c` in the pod streams to the driver,
// which keeps regular files only, up to max bytes.
func (s *podSandbox) CopyOut(ctx context.Context, p string, max int64) ([]runtime.File, error) {
	if s.ended != nil {
		return nil, s.ended
	}
	if max <= 0 {
		max = runtime.DefaultMaxOutput
	}
	full := s.dir(p)
	pr, pw := io.Pipe()
	var stderr runtime.CapBuffer
	stderr.Max = 4096
	errc := make(chan error, 1)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		// Exit 3: nothing at the path (not an error to the caller).
		script := `[ -e "$1" ] || [ -L "$1" ] || exit 3; cd -- "$(dirname -- "$1")" && exec tar -c -f - -- "$(basename -- "$1")"`
		err := s.stream(sctx, []string{"/bin/sh", "-c", script, "sh", full}, nil, pw, &stderr)
		pw.CloseWithError(err)
		errc <- err
	}()
	var out []runtime.File
	var total int64
	tr := tar.NewReader(pr)
	base := path.Base(full)
	var rerr error
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			rerr = err
			break
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if total+h.Size > max {
			rerr = fmt.Errorf("copy out %s: more than %d bytes", p, max)
			cancel()
			break
		}
		b, err := io.ReadAll(io.LimitReader(tr, h.Size))
		if err != nil {
			rerr = err
			break
		}
		total += int64(len(b))
		name := path.Clean(h.Name)
		// directory members are relative to the directory itself
		if rel, ok := strings.CutPrefix(name, base+"/"); ok {
			name = rel
		}
		out = append(out, runtime.File{Path: name, Mode: os.FileMode(h.Mode).Perm(), Data: b})
	}
	pr.CloseWithError(io.EOF)
	err := <-errc
	var ee utilexec.ExitError
	if errors.As(err, &ee) && ee.ExitStatus() == 3 {
		return nil, nil
	}
	if rerr != nil {
		if strings.HasPrefix(rerr.Error(), "copy out") {
			return nil, rerr
		}
		if err == nil {
			return nil, fmt.Errorf("copy out of pod %s:%s: %w", s.name, full, rerr)
		}
	}
	if errors.As(err, &ee) {
		return nil, fmt.Errorf("copy out of pod %s:%s: tar exit %d: %s", s.name, full, ee.ExitStatus(), strings.TrimSpace(stderr.String()))
	}
	if err != nil {
		return nil, s.failure(ctx, err, false)
	}
	return out, nil
}

// Remove implements Sandbox: it deletes the pod at once (grace period 0)
// and returns without waiting for the kubelet. A pod already gone is not
// an error.
func (s *podSandbox) Remove(ctx context.Context) error {
	s.removed.Do(func() {
		zero := int64(0)
		bg := metav1.DeletePropagationBackground
		err := s.k.cs.CoreV1().Pods(s.k.ns).Delete(ctx, s.name, metav1.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: &bg})
		if err != nil && !apierrors.IsNotFound(err) {
			s.rmErr = runtime.Infra(apiReason(err), fmt.Errorf("delete pod %s: %w", s.name, err))
		}
	})
	return s.rmErr
}

// RunSelector is the label selector of every object polynfi made for
// runID (pods, owner ConfigMaps, NetworkPolicies): kubectl get pods -l it.
func RunSelector(runID string) string {
	return labels.SelectorFromSet(map[string]string{LabelManagedBy: managedBy, LabelRunID: labelValue(runID)}).String()
}

// CleanupRun deletes every pod, owner ConfigMap and NetworkPolicy polynfi
// made in namespace ns for runID (by LabelRunID), whichever driver made
// them, and returns the number of pods deleted. It does not wait for the
// pods' containers to stop.
func CleanupRun(ctx context.Context, cs *KubeClient, ns, runID string) (int, error) {
	sel := RunSelector(runID)
	pods, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return 0, runtime.Infra(apiReason(err), fmt.Errorf("list pods of run %s: %w", runID, err))
	}
	zero := int64(0)
	bg := metav1.DeletePropagationBackground
	del := metav1.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: &bg}
	n := 0
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		if err := cs.CoreV1().Pods(ns).Delete(ctx, p.Name, del); err != nil && !apierrors.IsNotFound(err) {
			return n, runtime.Infra(apiReason(err), fmt.Errorf("delete pod %s: %w", p.Name, err))
		}
		n++
	}
	if err := cs.NetworkingV1().NetworkPolicies(ns).DeleteCollection(ctx, del, metav1.ListOptions{LabelSelector: sel}); err != nil && !apierrors.IsNotFound(err) && !apierrors.IsForbidden(err) {
		return n, runtime.Infra(apiReason(err), fmt.Errorf("delete network policies of run %s: %w", runID, err))
	}
	if err := cs.CoreV1().ConfigMaps(ns).DeleteCollection(ctx, del, metav1.ListOptions{LabelSelector: sel}); err != nil && !apierrors.IsNotFound(err) {
		return n, runtime.Infra(apiReason(err), fmt.Errorf("delete owner configmaps of run %s: %w", runID, err))
	}
	return n, nil
}

// Cleanup is CleanupRun in this runtime's namespace.
func (k *Kubernetes) Cleanup(ctx context.Context, runID string) (int, error) {
	return CleanupRun(ctx, k.cs, k.ns, runID)
}

var (
	labelBad  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9._-]+`) })
	dnsBad    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9-]+`) })
	labelKeyR = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^([a-z0-9]([-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$`)
	})
)

// labelValue makes s a valid label value: at most 63 characters of
// [A-Za-z0-9._-], starting and ending alphanumeric; a value that had to be
// changed keeps a hash suffix so distinct inputs stay distinct.
func labelValue(s string) string {
	v := strings.Trim(labelBad().ReplaceAllString(s, "_"), "._-")
	if v == s && len(v) <= 63 {
		return v
	}
	h := shortHash(s)
	if len(v) > 63-9 {
		v = strings.TrimRight(v[:63-9], "._-")
	}
	if v == "" {
		return h
	}
	return v + "-" + h
}

// labelKey returns key when it is a valid label key, else "".
func labelKey(key string) string {
	if len(key) <= 253+64 && labelKeyR().MatchString(key) {
		return key
	}
	return ""
}

// podName is "polynfi-", a DNS-safe form of name, and a random suffix.
func podName(name string) string {
	n := strings.Trim(dnsBad().ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(n) > 40 {
		n = strings.TrimRight(n[:40], "-")
	}
	if n == "" {
		n = "sandbox"
	}
	return "polynfi-" + n + "-" + randomSuffix(6)
}

func randomSuffix(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)[:n]
}

func shortHash(s string) string {
	// FNV-1a, 32 bits: enough to keep sanitized label values apart.
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return fmt.Sprintf("%08x", h)
}
