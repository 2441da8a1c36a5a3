package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/docker/go-units"
	"github.com/spf13/pflag"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime"
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

// backend is the run's backend options of these flags: a run writing to
// out, its notes on log.
func (o *containerOptions) backend(out string, log io.Writer) backend.Options {
	return backend.Options{Runtime: o.runtime, Out: out, RunKey: backend.RunKey(out), Log: log, Limits: o.limits(),
		Images: backend.Images{Template: o.imageTemplate, BaseDockerfiles: o.baseDockerfiles, BuildWorkers: o.buildWorkers, Retries: o.retries, CacheLevel: o.cacheLevel}}
}
