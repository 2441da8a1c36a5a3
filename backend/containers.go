package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
	"github.com/polynfi/polynfi/runtime/kube"
)

// NewResolver makes the image resolver of a run: each pull and build
// step is reported on o.Log (ImageProgress), build logs go to
// o.Out/build_logs.
func NewResolver(d *docker.Docker, o Options) *images.Resolver {
	return images.New(d.Client(), images.Options{
		Progress:        ImageProgress(o.Log),
		Template:        o.Images.Template,
		BaseDockerfiles: o.Images.BaseDockerfiles,
		Checkout:        o.Repos.Checkout,
		Tree:            o.Repos.TreeOf,
		LogDir:          filepath.Join(o.Out, "build_logs"),
		ScratchDir:      o.ScratchDir,
		Retries:         o.Images.Retries,
		BuildWorkers:    o.Images.BuildWorkers,
		CacheLevel:      o.Images.CacheLevel,
		// live on a terminal, one line per layer (and per 10 s) otherwise
		PullProgressEvery: map[bool]time.Duration{true: time.Second, false: 0}[isTerminal(o.Log)],
	})
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// startDocker connects to the engine and removes the containers a killed
// run with the same key left behind.
func startDocker(ctx context.Context, log io.Writer, key string) (*docker.Docker, error) {
	d, err := docker.NewDocker(ctx, docker.DockerOptions{})
	if err != nil {
		return nil, fmt.Errorf("--runtime docker: %w", err)
	}
	n, err := d.RemoveStale(ctx, key)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("--runtime docker: removing containers of an earlier run: %w", err)
	}
	if n > 0 {
		fmt.Fprintf(log, "polynfi: removed %d container(s) left by an interrupted run\n", n)
	}
	return d, nil
}

// startKubernetes connects to the cluster, deletes what a killed run of
// the same key left, runs Prepare, and, when no image template names
// prebuilt images or NodeContainerd is set, makes the Docker image
// resolver (images are built locally, then pushed or loaded into the
// node).
func (b *Backend) startKubernetes(ctx context.Context) error {
	o := b.o
	k, err := kube.NewKubernetes(ctx, o.Kube)
	if err != nil {
		return fmt.Errorf("--runtime kubernetes: %w", err)
	}
	n, err := k.Cleanup(ctx, o.RunKey)
	if err != nil {
		k.Close()
		return fmt.Errorf("--runtime kubernetes: deleting the pods of an earlier run: %w", err)
	}
	if n > 0 {
		fmt.Fprintf(o.Log, "polynfi: deleted %d pod(s) left by an interrupted run\n", n)
	}
	if err := k.Prepare(ctx); err != nil {
		k.Close()
		return fmt.Errorf("--runtime kubernetes: %w", err)
	}
	if o.Images.Template == "" || o.NodeContainerd != "" {
		d, err := docker.NewDocker(ctx, docker.DockerOptions{})
		if err != nil {
			k.Close()
			return fmt.Errorf("--runtime kubernetes builds images with Docker (or give --image-template of pushed images): %w", err)
		}
		b.kubeDocker, b.resolver = d, NewResolver(d, o)
	}
	b.cluster, b.Runtime = k, k
	b.Images = kubeImages{template: o.Images.Template, r: b.resolver, load: o.NodeContainerd}
	return nil
}

// CheckKubeconfig reports, before any connection, a kubeconfig that is
// not there: the file given (--kubeconfig), else every file $KUBECONFIG
// lists, else ~/.kube/config (client-go's order). The error names where
// it looked. Nothing is checked with inCluster.
func CheckKubeconfig(kubeconfig string, inCluster bool) error {
	if inCluster {
		return nil
	}
	exists := func(p string) bool { st, err := os.Stat(p); return err == nil && !st.IsDir() }
	if kubeconfig != "" {
		if !exists(kubeconfig) {
			return fmt.Errorf("--kubeconfig %s: no such file (give the cluster's kubeconfig, or --in-cluster inside a pod)", kubeconfig)
		}
		return nil
	}
	if env := os.Getenv("KUBECONFIG"); env != "" {
		var tried []string
		for _, p := range filepath.SplitList(env) {
			if p == "" {
				continue
			}
			if exists(p) {
				return nil
			}
			tried = append(tried, p)
		}
		return fmt.Errorf("no kubeconfig: $KUBECONFIG names %s, which do not exist (give --kubeconfig FILE, or --in-cluster inside a pod)", strings.Join(tried, ", "))
	}
	home, err := os.UserHomeDir()
	def := filepath.Join(home, ".kube", "config")
	inPod := os.Getenv("KUBERNETES_SERVICE_HOST") != "" && os.Getenv("KUBERNETES_SERVICE_PORT") != ""
	if (err != nil || !exists(def)) && !inPod { // in a pod client-go falls back to its service account
		return fmt.Errorf("no kubeconfig: --kubeconfig not given, $KUBECONFIG not set, and %s does not exist (give --kubeconfig FILE, or --in-cluster inside a pod)", def)
	}
	return nil
}

// kubeImages resolves an instance's image for the cluster: the template's
// name as is (the cluster pulls it), else the Docker resolver's, copied
// into the node's containerd when load names its socket.
type kubeImages struct {
	template string
	r        *images.Resolver
	load     string
}

var loaded sync.Map // image name -> *loadOnce

type loadOnce struct {
	once sync.Once
	err  error
	note string
}

func (ki kubeImages) Resolve(ctx context.Context, in dataset.Instance) (images.Choice, error) {
	var c images.Choice
	if ki.r == nil {
		c = images.Choice{Image: images.Expand(ki.template, in), Source: images.SourceTemplate, How: "cluster"}
		return c, nil
	}
	c, err := ki.r.Resolve(ctx, in)
	if err != nil || ki.load == "" {
		return c, err
	}
	v, _ := loaded.LoadOrStore(ki.load+"\x00"+c.Image, &loadOnce{})
	l := v.(*loadOnce)
	l.once.Do(func() {
		if nodeHasImage(ctx, ki.load, c.Image) {
			l.note = "already in the node's containerd " + ki.load + " (same image id)"
			return
		}
		cmd := exec.CommandContext(ctx, "sh", "-c", `docker save "$1" | ctr --address "$2" -n k8s.io images import -`, "sh", c.Image, ki.load)
		if out, err := cmd.CombinedOutput(); err != nil {
			l.err = runtime.Infra(runtime.ReasonImage, fmt.Errorf("copy image %s into the node's containerd %s: %v: %s", c.Image, ki.load, err, strings.TrimSpace(string(out))))
		}
		l.note = "copied into the node's containerd " + ki.load
	})
	if l.err == nil {
		c.Notes = append(c.Notes, l.note)
	}
	return c, l.err
}

// nodeHasImage says whether the node's containerd at socket already holds
// Docker's image name with the same content: its reference (normalised as
// the kubelet does: docker.io/[library/]NAME[:latest]) names a manifest
// whose config digest is Docker's image id. Any doubt (a tool fails, a
// digest reference, an index) says no: the image is copied again.
func nodeHasImage(ctx context.Context, socket, name string) bool {
	id, err := exec.CommandContext(ctx, "docker", "image", "inspect", "-f", "{{.Id}}", name).Output()
	if err != nil || !strings.HasPrefix(strings.TrimSpace(string(id)), "sha256:") || strings.Contains(name, "@") {
		return false
	}
	ls, err := exec.CommandContext(ctx, "ctr", "--address", socket, "-n", "k8s.io", "images", "ls").Output()
	if err != nil {
		return false
	}
	digest := map[string]string{} // reference -> manifest digest
	for _, l := range strings.Split(string(ls), "\n") {
		if f := strings.Fields(l); len(f) >= 3 {
			digest[f[0]] = f[2]
		}
	}
	d := digest[normalizeImageRef(name)]
	if d == "" {
		return false
	}
	// the reference's manifest (a pull from a registry can give the same
	// image another manifest digest than an import: compare configs)
	m, err := exec.CommandContext(ctx, "ctr", "--address", socket, "-n", "k8s.io", "content", "get", d).Output()
	if err != nil {
		return false
	}
	var man struct {
		Config struct {
			Digest string `json:"digest"`
		} `json:"config"`
	}
	return json.Unmarshal(m, &man) == nil && man.Config.Digest == strings.TrimSpace(string(id))
}

// normalizeImageRef is name as containerd's CRI plugin stores it: a
// registry host added when the first component is none (docker.io, with
// library/ for a single component) and the tag latest when it has none.
func normalizeImageRef(name string) string {
	first, _, hasSlash := strings.Cut(name, "/")
	if !hasSlash || !strings.ContainsAny(first, ".:") && first != "localhost" {
		if !hasSlash {
			name = "library/" + name
		}
		name = "docker.io/" + name
	}
	last := name[strings.LastIndex(name, "/")+1:]
	if !strings.Contains(last, ":") {
		name += ":latest"
	}
	return name
}

// ImageProgress reports image pulls and builds on w, one line each: an
// attempt's start, each build step with the time since the attempt
// started, a pull's layers and megabytes (images.Event.Step, throttled by
// images.Options.PullProgressEvery), and its end; a failed attempt at once, with its error, its log
// and the log's last lines. Safe for concurrent use.
func ImageProgress(w io.Writer) func(images.Event) {
	var mu sync.Mutex
	return func(ev images.Event) {
		mu.Lock()
		defer mu.Unlock()
		verb := map[string]string{"build": "building", "pull": "pulling"}[ev.Kind]
		attempt := ""
		if ev.Of > 1 {
			attempt = fmt.Sprintf(" (attempt %d of %d)", ev.Attempt, ev.Of)
		}
		name := textesc.Terminal(ev.Image)
		switch {
		case !ev.Done && ev.Step == "":
			fmt.Fprintf(w, "polynfi: image %s: %s%s\n", name, verb, attempt)
		case !ev.Done && ev.Kind == "pull":
			fmt.Fprintf(w, "polynfi: image %s: pulling: %s (%.0fs)\n", name, ev.Step, ev.Elapsed.Seconds())
		case !ev.Done:
			fmt.Fprintf(w, "polynfi: image %s: %s (%.0fs)\n", name, textesc.Terminal(ev.Step), ev.Elapsed.Seconds())
		case ev.Err == nil && ev.Kind == "build":
			fmt.Fprintf(w, "polynfi: image %s: built in %.0fs (%d steps, %d from the layer cache)\n", name, ev.Elapsed.Seconds(), ev.Steps, ev.Cached)
		case ev.Err == nil:
			fmt.Fprintf(w, "polynfi: image %s: pulled in %.0fs\n", name, ev.Elapsed.Seconds())
		default:
			fmt.Fprintf(w, "polynfi: image %s: %s failed%s after %.0fs: %s\n", name, ev.Kind, attempt, ev.Elapsed.Seconds(), textesc.Terminal(ev.Err.Error()))
			if ev.Log != "" {
				fmt.Fprintf(w, "  log: %s\n", ev.Log)
			}
			for _, l := range ev.Tail {
				fmt.Fprintf(w, "  | %s\n", textesc.Terminal(l))
			}
		}
	}
}
