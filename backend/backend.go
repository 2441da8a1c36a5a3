// Package backend is the run-scoped life cycle of where a run's tests or
// agents execute: the local bubblewrap sandbox, a Docker engine or a
// Kubernetes cluster, with the image resolver of the container runtimes.
// Open connects and removes what a killed run with the same key left;
// Close ends the run: the containers an interruption raced past, the
// images built by the run (by cache level), the engine's connection.
// eval, validate and run share it (moved from internal/cli's three
// copies, #25 item 7c).
package backend

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
	"github.com/polynfi/polynfi/runtime/kube"
)

// Runtimes are the values of Options.Runtime.
const (
	Local      = "local"
	Docker     = "docker"
	Kubernetes = "kubernetes"
)

// Images are the image flags of the container runtimes (eval's and
// images build's): how an instance's image is named, built and kept.
type Images struct {
	// Template names prebuilt images ({id}, {id_lower}, ...: images.Expand).
	Template        string
	BaseDockerfiles string
	BuildWorkers    int
	// Retries of a failed pull or build.
	Retries int
	// CacheLevel is one of images.CacheLevels: what Close keeps.
	CacheLevel string
}

// Options say which runtime a run uses and how.
type Options struct {
	// Runtime is Local ("" too), Docker or Kubernetes.
	Runtime string
	// Out is the run's output directory: build logs go to Out/build_logs.
	Out string
	// RunKey labels the run's containers and pods (RunKey(Out)).
	RunKey string
	// Repos and ScratchDir are where image builds take repositories and
	// build contexts from; a nil Repos builds no image (no resolver).
	Repos      *clones.Repos
	ScratchDir string
	// Log receives one line per image step, per removal and the
	// sandbox's notes.
	Log    io.Writer
	Images Images
	// Limits bound every container (Docker).
	Limits runtime.Limits
	// Local are the local sandbox's options.
	Local runtime.LocalOptions
	// Kube are the cluster's options; NodeContainerd, when set, is the
	// single-node cluster's containerd socket each image is copied into.
	Kube           kube.KubernetesOptions
	NodeContainerd string

	// Attach's: StartAhead instances are prepared ahead of the Workers
	// (Docker; negative: as many as Workers); the local sandbox's tests
	// get POLYNFI_DATASET_DIR=DatasetDir, may read ToolchainDirs(DatasetDir,
	// Toolchains) and write Writable.
	StartAhead, Workers int
	DatasetDir          string
	Toolchains          []string
	Writable            []string
}

// Backend is one run's runtime and image resolver, open until Close.
type Backend struct {
	o Options
	// Runtime starts the run's sandboxes; Local is set when it is the
	// local sandbox.
	Runtime runtime.Runtime
	Local   *runtime.Local
	// Images resolves an instance's image (container runtimes with a
	// resolver; nil otherwise).
	Images harness.ImageResolver

	engine *docker.Docker
	// kubeDocker builds the images of a cluster run.
	kubeDocker *docker.Docker
	cluster    *kube.Kubernetes
	resolver   *images.Resolver
}

// RunKey labels the containers of every run writing out: the same for a
// re-run of the same command, so that it finds what a killed run left
// (hex of the first 8 bytes of out's SHA-256).
func RunKey(out string) string {
	sum := sha256.Sum256([]byte(out))
	return hex.EncodeToString(sum[:8])
}

// Open starts o's runtime: the local sandbox (refused when bubblewrap is
// missing and not waived: runtime.CheckSandbox), a Docker engine (its stale
// containers of o.RunKey removed) with an image resolver when o.Repos is
// set, or a cluster (its stale pods deleted, Prepare run) whose images
// come from o.Images.Template or are built with Docker.
func Open(ctx context.Context, o Options) (*Backend, error) {
	b := &Backend{o: o}
	switch o.Runtime {
	case Docker:
		d, err := startDocker(ctx, o.Log, o.RunKey)
		if err != nil {
			return nil, err
		}
		b.engine, b.Runtime = d, d
		if o.Repos != nil {
			b.resolver = NewResolver(d, o)
			b.Images = b.resolver
		}
	case Kubernetes:
		if err := b.startKubernetes(ctx); err != nil {
			return nil, err
		}
	default:
		b.Local = runtime.NewLocal(ctx, o.Local)
		b.Runtime = b.Local
	}
	return b, nil
}

// Attach opens o's runtime as h's (h.RunKey, h.Repos and h.ScratchDir
// where o leaves them empty): with Docker, its resolver, o.Limits and
// o.StartAhead; with the local sandbox (checked by runtime.CheckSandbox), the
// dataset directory, toolchains and writable directories of o. Close it
// after h's run.
func Attach(ctx context.Context, h *harness.Harness, o Options) (*Backend, error) {
	if o.RunKey == "" {
		o.RunKey = h.RunKey
	}
	if o.Repos == nil {
		o.Repos = h.Repos
	}
	if o.ScratchDir == "" {
		o.ScratchDir = h.ScratchDir
	}
	b, err := Open(ctx, o)
	if err != nil {
		return nil, err
	}
	h.Runtime, h.Images = b.Runtime, b.Images
	switch {
	case b.engine != nil:
		// CPU and memory left zero by the flags default per language
		// (runtime.DefaultsFor: Rust and C++ builds get more).
		h.Limits, h.LanguageLimits = o.Limits, true
		h.StartAhead = o.StartAhead
		if h.StartAhead < 0 {
			h.StartAhead = o.Workers
		}
	case b.Local != nil:
		if err := runtime.CheckSandbox(o.Log, b.Local); err != nil {
			b.Close(ctx)
			return nil, err
		}
		h.Env = []string{"POLYNFI_DATASET_DIR=" + o.DatasetDir}
		h.Writable, h.ReadOnly = o.Writable, ToolchainDirs(o.DatasetDir, o.Toolchains)
	}
	return b, nil
}

// Close ends the run: the containers of its key an interruption raced
// past are removed (a minute at most), the images it built go as its
// cache level says (five minutes at most), and the connections close.
// Both are said on the log. ctx may be cancelled: the removals run on
// their own deadlines.
func (b *Backend) Close(ctx context.Context) {
	if b.engine != nil {
		// Every container of the run is removed by then; anything an
		// interruption raced past goes now.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
		if n, err := b.engine.RemoveStale(rctx, b.o.RunKey); err != nil || n > 0 {
			fmt.Fprintf(b.o.Log, "polynfi: removed %d leftover container(s) of this run (%v)\n", n, err)
		}
		cancel()
	}
	if b.resolver != nil {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Minute)
		if removed, err := b.resolver.Cleanup(cctx); err != nil {
			fmt.Fprintf(b.o.Log, "polynfi: removing images (--cache-level %s): %v\n", b.o.Images.CacheLevel, err)
		} else if len(removed) > 0 {
			fmt.Fprintf(b.o.Log, "polynfi: removed %d image(s) built by this run (--cache-level %s)\n", len(removed), b.o.Images.CacheLevel)
		}
		cancel()
	}
	if b.engine != nil {
		b.engine.Close()
	}
	if b.kubeDocker != nil {
		b.kubeDocker.Close()
	}
	if b.cluster != nil {
		b.cluster.Close()
	}
	if b.Local != nil {
		b.Local.Close()
	}
}

// ToolchainDirs returns the host directories a test command may read
// under isolation: the dataset directory's env/ (the toolchains a dataset
// ships, as the bundled sample's Node packages) when it exists, and the
// extra directories (made absolute). Never the dataset directory itself:
// its rows hold the gold patches.
func ToolchainDirs(dsDir string, extra []string) []string {
	var out []string
	if fi, err := os.Stat(filepath.Join(dsDir, "env")); err == nil && fi.IsDir() {
		out = append(out, filepath.Join(dsDir, "env"))
	}
	for _, d := range extra {
		if a, err := filepath.Abs(d); err == nil {
			out = append(out, a)
		}
	}
	return out
}

// Attacher is Attach as a harness.EvalOptions.Attach: the backend of o
// attached to the harness of a run, closed by the function it returns.
func Attacher(o Options) func(ctx context.Context, h *harness.Harness) (func(), error) {
	return func(ctx context.Context, h *harness.Harness) (func(), error) {
		b, err := Attach(ctx, h, o)
		if err != nil {
			return nil, err
		}
		return func() { b.Close(ctx) }, nil
	}
}
