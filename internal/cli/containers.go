package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/docker/go-units"
	"github.com/spf13/pflag"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
)

// containerOptions are the flags of the container runtime, shared by
// `polynfi eval` and `polynfi images build`.
type containerOptions struct {
	runtime         string
	imageTemplate   string
	baseDockerfiles string
	buildWorkers    int
	cpus            float64
	memory          string
	pids            int64
	retries         int
	cacheLevel      string
	startAhead      int
}

// Default process limit per container. CPUs and memory default per
// language (runtime.DefaultsFor; 0 and "" leave them to it).
const defaultPids = 4096

func (o *containerOptions) register(f *pflag.FlagSet, withRuntime bool) {
	if withRuntime {
		f.StringVar(&o.runtime, "runtime", "local", "where tests run: local (a work tree on this machine, under bubblewrap), docker (a container per instance, through the Docker Engine API; DOCKER_HOST is honoured) or kubernetes (a pod per instance in a cluster; see the cluster flags)")
		f.Float64Var(&o.cpus, "cpus", 0, "CPU quota per container, in cores (docker; default: per language, 2, or 4 for C++ and Rust)")
		f.StringVar(&o.memory, "memory", "", "memory limit per container, e.g. 512m, 4g (docker; a container killed at it is infra_failure; default: per language, 4g, or 8g for C++ and Rust)")
		f.Int64Var(&o.pids, "pids", defaultPids, "process limit per container (docker)")
		o.startAhead = -1
		f.Var(optionalCount{&o.startAhead}, "start-ahead", "containers started ahead of the workers, each with its image resolved, patches copied in and test patch applied, so that an instance's start is off its path (docker; default: as many as --workers; 0: none)")
	}
	f.StringVar(&o.imageTemplate, "image-template", "", "prebuilt image per instance, with {id}, {id_lower}, {swebench_id} ({id_lower} with __ as _1776_), {repo}, {owner}, {name}, {version}: e.g. swe-polybench.eval.x86_64.{id_lower} or swebench/sweb.eval.x86_64.{swebench_id}:latest (docker)")
	f.StringVar(&o.baseDockerfiles, "base-dockerfiles", "", "directory of <language>.Dockerfile files for the polybench_<language>_base images (default: the ones polynfi ships)")
	f.IntVar(&o.buildWorkers, "build-workers", 1, "image builds and pulls at once (docker)")
	f.IntVar(&o.retries, "retries", 2, "retries of an instance that ends in an infrastructure failure, and of a failed pull or build")
	f.StringVar(&o.cacheLevel, "cache-level", images.CacheEnv, "images kept after the run: none, base, env or instance (SWE-bench's cache levels)")
}

func (o *containerOptions) validate() error {
	if o.runtime != "" && o.runtime != "local" && o.runtime != "docker" && o.runtime != "kubernetes" {
		return usagef("--runtime %q: want local, docker or kubernetes", o.runtime)
	}
	if !slices.Contains(images.CacheLevels, o.cacheLevel) {
		return usagef("--cache-level %q: want one of %s", o.cacheLevel, strings.Join(images.CacheLevels, ", "))
	}
	if o.buildWorkers < 1 {
		return usagef("--build-workers %d: want at least 1", o.buildWorkers)
	}
	if o.retries < 0 {
		return usagef("--retries %d: want 0 or more", o.retries)
	}
	if o.startAhead < -1 {
		return usagef("--start-ahead %d: want 0 or more", o.startAhead)
	}
	if o.cpus < 0 || o.pids < 0 {
		return usagef("--cpus and --pids must not be negative")
	}
	if o.memory != "" && o.memory != "0" {
		if _, err := units.RAMInBytes(o.memory); err != nil {
			return usagef("--memory %q: %v", o.memory, err)
		}
	}
	return nil
}

// dockerOnly refuses, with a usage error (exit 2), the per-container
// limit flags given with a runtime that does not apply them, instead of
// ignoring them: --cpus, --memory, --pids and --start-ahead are the Docker
// runtime's; a pod's limits are --pod-cpu-limit and --pod-memory-limit and
// its process limit is the kubelet's podPidsLimit (cluster configuration);
// the local runtime has fixed limits of its own.
func (o *containerOptions) dockerOnly(f *pflag.FlagSet) error {
	if o.runtime == "docker" {
		return nil
	}
	var given []string
	for _, name := range []string{"cpus", "memory", "pids", "start-ahead"} {
		if f.Lookup(name) != nil && f.Changed(name) {
			given = append(given, "--"+name)
		}
	}
	if len(given) == 0 {
		return nil
	}
	rt := o.runtime
	if rt == "" {
		rt = "local"
	}
	if rt == "kubernetes" {
		return usagef("%s: not applied with --runtime kubernetes (a pod's limits are --pod-cpu-limit and --pod-memory-limit; its process limit is the kubelet's podPidsLimit)", strings.Join(given, ", "))
	}
	return usagef("%s: need --runtime docker (--runtime %s does not apply them)", strings.Join(given, ", "), rt)
}

func (o *containerOptions) limits() runtime.Limits {
	l := runtime.Limits{CPUs: o.cpus, Pids: o.pids}
	if o.memory != "" && o.memory != "0" {
		l.MemoryBytes, _ = units.RAMInBytes(o.memory)
	}
	return l
}

// runKey labels the containers of every run writing out: the same for a
// re-run of the same command, so that it finds what a killed run left.
func runKey(out string) string {
	sum := sha256.Sum256([]byte(out))
	return hex.EncodeToString(sum[:8])
}

// resolver makes the image resolver of a run writing to out.
// Each pull and build step is reported on progress (imageProgress).
func (o *containerOptions) resolver(d *docker.Docker, repos *harness.Repos, out, scratch string, progress io.Writer) *images.Resolver {
	return images.New(d.Client(), images.Options{
		Progress:        imageProgress(progress),
		Template:        o.imageTemplate,
		BaseDockerfiles: o.baseDockerfiles,
		Checkout:        repos.Checkout,
		Tree:            repos.TreeOf,
		LogDir:          filepath.Join(out, "build_logs"),
		ScratchDir:      scratch,
		Retries:         o.retries,
		BuildWorkers:    o.buildWorkers,
		CacheLevel:      o.cacheLevel,
	})
}

// startDocker connects to the engine and removes the containers a killed
// run with the same key left behind.
func startDocker(ctx context.Context, e *env, key string) (*docker.Docker, error) {
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
		fmt.Fprintf(e.stderr, "polynfi: removed %d container(s) left by an interrupted run\n", n)
	}
	return d, nil
}

// optionalCount is a count flag whose default (-1, "not given") is shown
// as no default: the usage text says what not giving it means.
type optionalCount struct{ v *int }

func (c optionalCount) String() string {
	if c.v == nil || *c.v < 0 {
		return ""
	}
	return strconv.Itoa(*c.v)
}

func (c optionalCount) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want 0 or more")
	}
	*c.v = n
	return nil
}

func (optionalCount) Type() string { return "int" }

// attachDocker connects to the Docker engine and makes it h's runtime: its
// images resolved as co says (built into out's scratch space when
// needed), co's resource limits, and startAhead instances prepared ahead
// of the workers (a negative startAhead: as many as workers). The caller
// closes the returned engine. Errors are startDocker's (engine not
// reachable).
func (co containerOptions) attachDocker(e *env, h *harness.Harness, out string, startAhead, workers int) (*docker.Docker, *images.Resolver, error) {
	d, err := startDocker(e.ctx, e, h.RunKey)
	if err != nil {
		return nil, nil, err
	}
	resolver := co.resolver(d, h.Repos, out, h.ScratchDir, e.stderr)
	h.Runtime, h.Images, h.Limits, h.LanguageLimits = d, resolver, co.limits(), true
	h.StartAhead = startAhead
	if h.StartAhead < 0 {
		h.StartAhead = workers
	}
	return d, resolver, nil
}

// imageProgress reports image pulls and builds on w, one line each: an
// attempt's start, each build step with the time since the attempt
// started, and its end; a failed attempt at once, with its error, its log
// and the log's last lines. Safe for concurrent use.
func imageProgress(w io.Writer) func(images.Event) {
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
