package kube

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
)

// KubeClient is the Kubernetes API client of the runtime: client-go's REST
// client for the two API groups it uses, core/v1 (pods, their exec, config
// maps, events, nodes, namespaces) and networking/v1 (network policies),
// with typed operations on each resource (Resource).
//
// It does not use client-go's generated typed clients: importing even one
// of them (k8s.io/client-go/kubernetes/typed/core/v1) links
// k8s.io/client-go/kubernetes/scheme, whose package initialization
// registers all ~50 API groups' types in every polynfi process (about 2 ms
// of the ~13 ms CPU of `polynfi --version`, 15% of its start-up; issue 29),
// and, through the apply configurations, protobuf, OpenAPI and
// structured-merge-diff (~160 packages of the build). The scheme here
// holds core/v1 and networking/v1 only and is built on first use.
type KubeClient struct {
	core, net *rest.RESTClient
}

// Group is one API group version's REST client, as the runtime uses it.
type Group struct {
	rc *rest.RESTClient
}

// CoreV1 is the core/v1 group.
func (c *KubeClient) CoreV1() Group { return Group{c.core} }

// NetworkingV1 is the networking.k8s.io/v1 group.
func (c *KubeClient) NetworkingV1() Group { return Group{c.net} }

// RESTClient is the group's client-go REST client (requests the typed
// operations do not cover: pods' exec).
func (g Group) RESTClient() *rest.RESTClient { return g.rc }

// Pods in namespace ns (core/v1).
func (g Group) Pods(ns string) Resource[*corev1.Pod, *corev1.PodList] {
	return Resource[*corev1.Pod, *corev1.PodList]{g.rc, ns, "pods"}
}

// ConfigMaps in namespace ns (core/v1).
func (g Group) ConfigMaps(ns string) Resource[*corev1.ConfigMap, *corev1.ConfigMapList] {
	return Resource[*corev1.ConfigMap, *corev1.ConfigMapList]{g.rc, ns, "configmaps"}
}

// Events in namespace ns (core/v1).
func (g Group) Events(ns string) Resource[*corev1.Event, *corev1.EventList] {
	return Resource[*corev1.Event, *corev1.EventList]{g.rc, ns, "events"}
}

// Nodes of the cluster (core/v1, not namespaced).
func (g Group) Nodes() Resource[*corev1.Node, *corev1.NodeList] {
	return Resource[*corev1.Node, *corev1.NodeList]{g.rc, "", "nodes"}
}

// Namespaces of the cluster (core/v1, not namespaced).
func (g Group) Namespaces() Resource[*corev1.Namespace, *corev1.NamespaceList] {
	return Resource[*corev1.Namespace, *corev1.NamespaceList]{g.rc, "", "namespaces"}
}

// NetworkPolicies in namespace ns (networking/v1).
func (g Group) NetworkPolicies(ns string) Resource[*networkingv1.NetworkPolicy, *networkingv1.NetworkPolicyList] {
	return Resource[*networkingv1.NetworkPolicy, *networkingv1.NetworkPolicyList]{g.rc, ns, "networkpolicies"}
}

// Resource is one resource of a group, in one namespace ("" for a cluster
// resource): T is its object type (*corev1.Pod) and L its list type. The
// operations are the API server's verbs with the options of metav1; errors
// are client-go's (apierrors.IsNotFound and the rest apply).
type Resource[T kruntime.Object, L kruntime.Object] struct {
	rc       *rest.RESTClient
	ns, name string
}

func (r Resource[T, L]) req(verb string) *rest.Request {
	return r.rc.Verb(verb).NamespaceIfScoped(r.ns, r.ns != "").Resource(r.name)
}

func timeoutOf(s *int64) time.Duration {
	if s == nil {
		return 0
	}
	return time.Duration(*s) * time.Second
}

// Get reads the object called name.
func (r Resource[T, L]) Get(ctx context.Context, name string, o metav1.GetOptions) (T, error) {
	out := newObject[T]()
	err := r.req("GET").Name(name).VersionedParams(&o, codecs().params).Do(ctx).Into(out)
	return out, err
}

// List reads the objects the options select.
func (r Resource[T, L]) List(ctx context.Context, o metav1.ListOptions) (L, error) {
	out := newObject[L]()
	err := r.req("GET").VersionedParams(&o, codecs().params).Timeout(timeoutOf(o.TimeoutSeconds)).Do(ctx).Into(out)
	return out, err
}

// Watch streams the changes to the objects the options select.
func (r Resource[T, L]) Watch(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
	o.Watch = true
	return r.req("GET").VersionedParams(&o, codecs().params).Timeout(timeoutOf(o.TimeoutSeconds)).Watch(ctx)
}

// Create makes obj and returns it as the API server stored it.
func (r Resource[T, L]) Create(ctx context.Context, obj T, o metav1.CreateOptions) (T, error) {
	out := newObject[T]()
	err := r.req("POST").VersionedParams(&o, codecs().params).Body(obj).Do(ctx).Into(out)
	return out, err
}

// Patch applies data, a patch of type pt, to the object called name.
func (r Resource[T, L]) Patch(ctx context.Context, name string, pt types.PatchType, data []byte, o metav1.PatchOptions) (T, error) {
	out := newObject[T]()
	err := r.rc.Patch(pt).NamespaceIfScoped(r.ns, r.ns != "").Resource(r.name).Name(name).
		VersionedParams(&o, codecs().params).Body(data).Do(ctx).Into(out)
	return out, err
}

// Delete deletes the object called name.
func (r Resource[T, L]) Delete(ctx context.Context, name string, o metav1.DeleteOptions) error {
	return r.req("DELETE").Name(name).Body(&o).Do(ctx).Error()
}

// DeleteCollection deletes the objects lo selects.
func (r Resource[T, L]) DeleteCollection(ctx context.Context, o metav1.DeleteOptions, lo metav1.ListOptions) error {
	return r.req("DELETE").VersionedParams(&lo, codecs().params).Timeout(timeoutOf(lo.TimeoutSeconds)).
		Body(&o).Do(ctx).Error()
}

// newObject returns a new empty object of T, a pointer to an API type
// such as *corev1.Pod.
func newObject[T kruntime.Object]() T {
	return reflect.New(reflect.TypeFor[T]().Elem()).Interface().(T)
}

// clientCodecs is the scheme of the two groups and its codecs.
type clientCodecs struct {
	scheme *kruntime.Scheme
	ser    kruntime.NegotiatedSerializer
	params kruntime.ParameterCodec
}

// codecs builds the scheme on first use (registering core/v1's types is
// reflection over some 100 types: a cost only runs on Kubernetes pay).
var codecs = sync.OnceValue(func() clientCodecs {
	s := kruntime.NewScheme()
	for _, add := range []func(*kruntime.Scheme) error{corev1.AddToScheme, networkingv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(fmt.Sprintf("kubernetes client scheme: %v", err))
		}
	}
	return clientCodecs{
		scheme: s,
		ser:    rest.CodecFactoryForGeneratedClient(s, serializer.NewCodecFactory(s)).WithoutConversion(),
		params: kruntime.NewParameterCodec(s),
	}
})

// NewKubeClient builds the REST clients of the two groups as client-go's
// kubernetes.NewForConfig builds its clientset: one HTTP transport and one
// QPS/Burst token bucket shared by both (none when c.QPS is 0; an error
// when c.QPS > 0 and c.Burst <= 0, or when c's TLS or auth settings are
// invalid). c is not modified.
func NewKubeClient(c *rest.Config) (*KubeClient, error) {
	cfg := *c
	if cfg.UserAgent == "" {
		cfg.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	hc, err := rest.HTTPClientFor(&cfg)
	if err != nil {
		return nil, err
	}
	if cfg.RateLimiter == nil && cfg.QPS > 0 {
		if cfg.Burst <= 0 {
			return nil, fmt.Errorf("kubernetes client: QPS %v needs a burst above 0 (got %d)", cfg.QPS, cfg.Burst)
		}
		cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(cfg.QPS, cfg.Burst)
	}
	core, err := groupClient(cfg, hc, corev1.SchemeGroupVersion, "/api")
	if err != nil {
		return nil, err
	}
	net, err := groupClient(cfg, hc, networkingv1.SchemeGroupVersion, "/apis")
	if err != nil {
		return nil, err
	}
	return &KubeClient{core: core, net: net}, nil
}

// groupClient is the REST client of one group version, configured as
// client-go's generated clients configure theirs (setConfigDefaults).
func groupClient(cfg rest.Config, hc *http.Client, gv schema.GroupVersion, apiPath string) (*rest.RESTClient, error) {
	cfg.GroupVersion = &gv
	cfg.APIPath = apiPath
	cfg.NegotiatedSerializer = codecs().ser
	return rest.RESTClientForConfigAndClient(&cfg, hc)
}
