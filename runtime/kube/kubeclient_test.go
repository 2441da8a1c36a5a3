package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

// TestNewKubeClientSharesRateLimiter: the core/v1 and networking/v1
// clients draw on one QPS/Burst token bucket, as client-go's clientset's
// do, so that --kube-qps bounds the driver's requests as a whole.
func TestNewKubeClientSharesRateLimiter(t *testing.T) {
	cs, err := NewKubeClient(&rest.Config{Host: "http://127.0.0.1:1", QPS: 5, Burst: 10})
	if err != nil {
		t.Fatal(err)
	}
	core, net := cs.CoreV1().RESTClient().GetRateLimiter(), cs.NetworkingV1().RESTClient().GetRateLimiter()
	if core == nil || core != net {
		t.Errorf("rate limiters: core/v1 %p, networking/v1 %p; want one shared", core, net)
	}
	if _, err := NewKubeClient(&rest.Config{Host: "http://127.0.0.1:1", QPS: 5}); err == nil {
		t.Error("QPS 5 with Burst 0: no error")
	}
}

// TestKubernetesPodInformerWiring runs NewKubernetes and Prepare against a
// minimal API server made with net/http/httptest (the tests against the
// real cluster are TestKubernetes*, which skip without one): the pod
// informer, built from a ListWatch since the runtime no longer uses
// client-go's informer factory, lists and watches only this driver's pods
// (LabelSession) in the namespace, syncs, fills the lister, and wakes the
// goroutines waiting on a pod when a watch event names it.
func TestKubernetesPodInformerWiring(t *testing.T) {
	const ns = "polynfi-test"
	var (
		mu       sync.Mutex
		requests []string
		session  string
	)
	sendP2 := make(chan struct{})
	pod := func(name, rv string, ann map[string]string) map[string]any {
		return map[string]any{"kind": "Pod", "apiVersion": "v1", "metadata": map[string]any{
			"name": name, "namespace": ns, "resourceVersion": rv, "annotations": ann,
			"labels": map[string]string{LabelSession: session}}}
	}
	event := func(w http.ResponseWriter, typ string, obj any) {
		b, _ := json.Marshal(map[string]any{"type": typ, "object": obj})
		w.Write(append(b, '\n'))
		w.(http.Flusher).Flush()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		mu.Lock()
		requests = append(requests, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		status := func() { io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Success"}`) }
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/"+ns:
			fmt.Fprintf(w, `{"kind":"Namespace","apiVersion":"v1","metadata":{"name":%q}}`, ns)
		case r.Method == http.MethodDelete:
			status()
		case r.Method == http.MethodPost: // the body is protobuf: answer with the created object's kind
			kind, apiVersion := "ConfigMap", "v1"
			if strings.HasSuffix(r.URL.Path, "/networkpolicies") {
				kind, apiVersion = "NetworkPolicy", "networking.k8s.io/v1"
			}
			w.WriteHeader(http.StatusCreated)
			fmt.Fprintf(w, `{"kind":%q,"apiVersion":%q,"metadata":{"name":"created","namespace":%q,"uid":"uid-1"}}`, kind, apiVersion, ns)
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/"+ns+"/pods":
			if strings.Contains(q.Get("labelSelector"), LabelRunID) { // CleanupRun: nothing left from before
				io.WriteString(w, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}`)
				return
			}
			if q.Get("watch") != "true" && q.Get("watch") != "1" {
				b, _ := json.Marshal(map[string]any{"kind": "PodList", "apiVersion": "v1",
					"metadata": map[string]any{"resourceVersion": "1"}, "items": []any{pod("p1", "1", nil)}})
				w.Write(b)
				return
			}
			w.WriteHeader(http.StatusOK)
			if q.Get("sendInitialEvents") == "true" { // client-go's streaming list
				event(w, "ADDED", pod("p1", "1", nil))
				event(w, "BOOKMARK", pod("", "1", map[string]string{"k8s.io/initial-events-end": "true"}))
			}
			select {
			case <-sendP2:
				event(w, "ADDED", pod("p2", "2", nil))
			case <-r.Context().Done():
				return
			}
			<-r.Context().Done()
		default:
			http.Error(w, "not served by this test: "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		}
	}))
	defer srv.Close()
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kc, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: t, cluster: {server: %q}}]
users: [{name: u, user: {}}]
contexts: [{name: c, context: {cluster: t, user: u, namespace: %s}}]
current-context: c
`, srv.URL, ns)), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	k, err := NewKubernetes(ctx, KubernetesOptions{Kubeconfig: kc, RunID: "run-1", Owner: "me"})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	mu.Lock()
	session = k.Session()
	mu.Unlock()
	if k.Namespace() != ns {
		t.Errorf("namespace %q, want %q (the context's)", k.Namespace(), ns)
	}
	if err := k.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := k.lister.Pods(ns).Get("p1"); err != nil {
		t.Errorf("lister after sync: %v", err)
	}
	woken, done := k.watch("p2")
	defer done()
	close(sendP2)
	select {
	case <-woken:
	case <-ctx.Done():
		t.Fatal("no wake-up for the watched pod p2")
	}
	if _, err := k.lister.Pods(ns).Get("p2"); err != nil {
		t.Errorf("lister after the watch event: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	sel := LabelSession + "=" + k.Session()
	var listed bool
	for _, r := range requests {
		if strings.HasPrefix(r, "GET /api/v1/namespaces/"+ns+"/pods?") && !strings.Contains(r, "polynfi.io%2Frun-id") {
			listed = true
			if !strings.Contains(r, "labelSelector="+strings.ReplaceAll(strings.ReplaceAll(sel, "/", "%2F"), "=", "%3D")) {
				t.Errorf("informer request without this session's selector %s: %s", sel, r)
			}
		}
	}
	if !listed {
		t.Errorf("the informer never listed or watched the pods; requests:\n%s", strings.Join(requests, "\n"))
	}
}
