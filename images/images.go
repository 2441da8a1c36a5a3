// Package images gives every instance the container image it runs in, as
// the published harnesses do: a prebuilt per-instance image (the row's
// image name or --image-template), else a build from the row's Dockerfile
// with the repository at base_commit as context (SWE-PolyBench; its
// polybench_<language>_base images built first), else a build from a task
// directory (SWE-bench 5.x task repositories). Pulls and builds are retried,
// logged per image under a build log directory, bounded by their own
// worker count, and preceded by a free-disk check. Images it builds carry
// LabelKind so that List and Prune find them and nothing else.
//
// Source: SWE-PolyBench docker_utils.py (build from the row's Dockerfile,
// .dockerignore removed, base images per language); SWE-bench
// harness/docker_build.py and run_evaluation.py (instance image names
// sweb.eval.x86_64.<id> with "__" as "_1776_", cache levels none, base,
// env, instance).
package images

import (
	"archive/tar"
	"bufio"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/docker/docker/errdefs"
	"github.com/docker/docker/pkg/jsonmessage"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/runtime"
)

// LabelKind marks the images polynfi builds: "base" (polybench_<language>_base)
// or "instance" (an instance's image).
const LabelKind = "io.polynfi.image"

// Cache levels: which images built by a run are kept when it ends
// (SWE-bench's --cache_level; polynfi has no separate environment images,
// so env keeps what base keeps).
const (
	CacheNone     = "none"     // remove every image the run built
	CacheBase     = "base"     // keep base images
	CacheEnv      = "env"      // keep base (and environment) images: the default
	CacheInstance = "instance" // keep everything
)

// CacheLevels lists the valid cache levels.
var CacheLevels = []string{CacheNone, CacheBase, CacheEnv, CacheInstance}

// DefaultMinFreeBytes is the free space a build needs in the engine's data
// directory, by default: 5 GiB.
const DefaultMinFreeBytes = 5 << 30

//go:embed bases/*.Dockerfile
var shippedBases embed.FS

// Options configure a Resolver.
type Options struct {
	// Template names a prebuilt per-instance image, with placeholders
	// {id} (the instance id), {id_lower} (lower case), {swebench_id}
	// (lower case, "__" as "_1776_") and {repo}, {owner}, {name}, {version}.
	// Examples: "swe-polybench.eval.x86_64.{id_lower}" (SWE-PolyBench),
	// "swebench/sweb.eval.x86_64.{swebench_id}:latest" (SWE-bench).
	Template string
	// BaseDockerfiles is a directory of <language>.Dockerfile files for
	// the polybench_<language>_base images (built with the directory as
	// context); "" uses the ones polynfi ships.
	BaseDockerfiles string
	// Checkout makes a standalone repository of repo at commit in dir (a
	// build context) holding that one commit and no other history
	// (clones.Repos.Checkout); required for builds from a row's
	// Dockerfile.
	Checkout func(ctx context.Context, repo, commit, dir string) error
	// Tree returns the id of the tree of repo at commit
	// (clones.Repos.TreeOf): part of the name of an image built from
	// the repository, so that different content gives a different image.
	// nil, or an error, leaves it out of the name.
	Tree func(ctx context.Context, repo, commit string) (string, error)
	// LogDir receives one build or pull log per image (OUT/build_logs);
	// "" keeps none.
	LogDir string
	// ScratchDir holds build contexts while they are made ("" = os.TempDir).
	ScratchDir string
	// Retries is how many more times a failed pull or build is tried.
	Retries int
	// BuildWorkers bounds the builds and pulls at once (0 means 1).
	BuildWorkers int
	// CacheLevel says what Cleanup keeps (one of CacheLevels; "" = env).
	CacheLevel string
	// MinFreeBytes is the free space a build needs in the engine's data
	// directory (0: DefaultMinFreeBytes; negative: no check).
	MinFreeBytes int64
	// Labels are added to every image built.
	Labels map[string]string
	// Rebuild builds instance images even when their tag exists (the
	// engine's layer cache still applies: unchanged steps are reused).
	Rebuild bool
	// Progress, when set, is told each attempt's start, each build step,
	// a pull's layer progress and each attempt's end (Event); it is called
	// from the goroutines that build and pull, concurrently, and must not
	// block long.
	Progress func(Event)
	// PullProgressEvery throttles a pull's progress events: one per layer
	// finished, and between those one at most per PullProgressEvery while
	// bytes arrive (0: DefaultPullProgressEvery; negative: only the layer
	// events).
	PullProgressEvery time.Duration
}

// DefaultPullProgressEvery is Options.PullProgressEvery's default: 10 s.
const DefaultPullProgressEvery = 10 * time.Second

// Event is one moment of an image pull or build, for progress reports.
type Event struct {
	Image   string
	Kind    string // "build" or "pull"
	Attempt int    // 1-based
	Of      int    // attempts at most (1 + Retries)
	// Step is the build step now starting as the engine names it ("Step
	// 3/12 : RUN make", cut to 100 characters) or, for a pull, how far it
	// is ("3/7 layers, 41.2 of 120.5 MB"); "" at an attempt's start and
	// end.
	Step string
	// A pull's progress (with Step set): layers finished (downloaded and
	// extracted, or already present) of the layers the engine named so
	// far, and bytes downloaded of the sizes known so far (the engine
	// gives a layer's size once its download starts).
	LayersDone, Layers int
	Bytes, BytesTotal  int64
	Elapsed            time.Duration // since the attempt started
	Done               bool          // the attempt ended: Err is its error, nil when it succeeded
	Err                error
	Log                string   // the attempt's log file ("" when none is kept)
	Tail               []string // the last lines of a failed attempt's output (at most tailLines)
	Steps              int      // steps run, when Done
	Cached             int      // of which from the layer cache, when Done
}

// tailLines is how many last lines of a failed attempt an Event carries.
const tailLines = 8

// progress calls Options.Progress when set.
func (r *Resolver) progress(ev Event) {
	if r.opts.Progress != nil {
		r.opts.Progress(ev)
	}
}

// Resolver resolves, pulls and builds images. Safe for concurrent use: an
// image wanted by several instances at once is pulled or built once.
type Resolver struct {
	cli  *client.Client
	opts Options
	sem  chan struct{}

	mu    sync.Mutex
	jobs  map[string]*job // by image name
	built []builtImage
}

type job struct {
	done   chan struct{}
	choice Choice
	err    error
}

type builtImage struct{ name, kind string }

// New returns a Resolver using cli. It removes the build lock files that
// killed processes left (RemoveStaleLocks).
func New(cli *client.Client, opts Options) *Resolver {
	RemoveStaleLocks()
	w := opts.BuildWorkers
	if w < 1 {
		w = 1
	}
	if opts.CacheLevel == "" {
		opts.CacheLevel = CacheEnv
	}
	if opts.MinFreeBytes == 0 {
		opts.MinFreeBytes = DefaultMinFreeBytes
	}
	return &Resolver{cli: cli, opts: opts, sem: make(chan struct{}, w), jobs: map[string]*job{}}
}

// SetRebuild sets Options.Rebuild.
func (r *Resolver) SetRebuild(b bool) { r.opts.Rebuild = b }

// Expand fills template's placeholders for instance in (see
// Options.Template).
func Expand(template string, in dataset.Instance) string {
	owner, name, _ := strings.Cut(in.Repo, "/")
	lower := strings.ToLower(in.InstanceID)
	return strings.NewReplacer(
		"{id}", in.InstanceID,
		"{id_lower}", lower,
		"{swebench_id}", strings.ReplaceAll(lower, "__", "_1776_"),
		"{repo}", in.Repo, "{owner}", owner, "{name}", name,
		"{version}", in.Version,
	).Replace(template)
}

// SWEPolyBenchImage is the name of SWE-PolyBench's prebuilt image of an
// instance: swe-polybench.eval.x86_64.<id in lower case>.
func SWEPolyBenchImage(id string) string {
	return "swe-polybench.eval.x86_64." + strings.ToLower(id)
}

// SWEBenchImage is the name of SWE-bench's prebuilt instance image:
// sweb.eval.x86_64.<id in lower case with "__" as "_1776_">.
// Source: SWE-bench harness/test_spec/test_spec.py instance_image_key.
func SWEBenchImage(id string) string {
	return "sweb.eval.x86_64." + strings.ReplaceAll(strings.ToLower(id), "__", "_1776_")
}

// Resolve implements harness.ImageResolver, trying in order: (a) the row's
// image or the template's, present locally or pulled (a failed pull falls
// through to a build when the row has a Dockerfile, else it is an
// InfraError with ReasonImage); (b) a build from the row's Dockerfile with
// the repository at base_commit as context; (c) a build from the task
// directory (Instance.BuildContext). A failed build is an InfraError with
// ReasonBuild (ReasonDiskFull when space is short).
func (r *Resolver) Resolve(ctx context.Context, in dataset.Instance) (Choice, error) {
	var named Choice
	switch {
	case in.Image != "":
		named = Choice{Image: in.Image, Source: SourceRow}
	case r.opts.Template != "":
		named = Choice{Image: Expand(r.opts.Template, in), Source: SourceTemplate}
	}
	var pullErr error
	if named.Image != "" {
		c, err := r.once(ctx, named.Image, func(ctx context.Context) (Choice, error) { return r.present(ctx, named) })
		if err == nil || strings.TrimSpace(in.Dockerfile) == "" {
			return c, err
		}
		pullErr = err
	}
	if strings.TrimSpace(in.Dockerfile) == "" {
		return Choice{}, runtime.Infra(runtime.ReasonImage, fmt.Errorf("%s: no image: the row has no image name and no Dockerfile, and no --image-template was given", in.InstanceID))
	}
	tree := ""
	if r.opts.Tree != nil && in.BuildContext == "" && in.Repo != "" {
		tree, _ = r.opts.Tree(ctx, in.Repo, in.BaseCommit)
	}
	name := instanceImageName(in, tree)
	c, err := r.once(ctx, name, func(ctx context.Context) (Choice, error) { return r.buildInstance(ctx, in, name) })
	if pullErr != nil {
		c.Notes = append(c.Notes, fmt.Sprintf("%s unavailable (%v): built from the Dockerfile", named.Image, pullErr))
	}
	return c, err
}

// contextRecipe names the way build contexts are made from a repository
// (context): part of every instance image's name, so that an image built
// from a context made otherwise (before version 2: a full clone, with the
// history after the base commit) is never reused.
const contextRecipe = "one-commit-2"

// instanceImageName is the tag of an instance's image built by polynfi:
// polynfi-eval/<repository, or task id, in lower case>:<12 hex digits of
// the SHA-256 of what goes into the build: the Dockerfile, the repository,
// the commit, the id of its tree ("" when unknown) and contextRecipe, or
// the task directory's files>. Instances with the same inputs (two
// instances of one repository at one commit with one Dockerfile) share
// their image.
func instanceImageName(in dataset.Instance, tree string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", in.Dockerfile, in.Repo, in.BaseCommit)
	if in.BuildContext == "" {
		fmt.Fprintf(h, "tree %s\x00context %s\x00", tree, contextRecipe)
	}
	if in.BuildContext != "" {
		_ = filepath.WalkDir(in.BuildContext, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if b, err := os.ReadFile(p); err == nil {
					rel, _ := filepath.Rel(in.BuildContext, p)
					fmt.Fprintf(h, "%s\x00%x\x00", rel, sha256.Sum256(b))
				}
			}
			return nil
		})
	}
	key := strings.ReplaceAll(in.Repo, "/", "__")
	if in.BuildContext != "" || key == "" {
		key = in.InstanceID
	}
	var b strings.Builder
	for _, c := range strings.ToLower(key) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' {
			b.WriteRune(c)
		} else {
			b.WriteByte('-')
		}
	}
	return "polynfi-eval/" + strings.Trim(b.String(), ".-_") + ":" + hex.EncodeToString(h.Sum(nil))[:12]
}

// once runs f for image name once at a time; callers that come while it
// runs get its result. A failed attempt is forgotten, so a later instance
// (or a retry of the run) tries again.
func (r *Resolver) once(ctx context.Context, name string, f func(context.Context) (Choice, error)) (Choice, error) {
	r.mu.Lock()
	if j, ok := r.jobs[name]; ok {
		r.mu.Unlock()
		select {
		case <-j.done:
		case <-ctx.Done():
			return Choice{}, ctx.Err()
		}
		c := j.choice
		if j.err == nil && c.How != "local" {
			c.How = "cached"
		}
		return c, j.err
	}
	j := &job{done: make(chan struct{})}
	r.jobs[name] = j
	r.mu.Unlock()
	j.choice, j.err = f(ctx)
	if j.err != nil {
		r.mu.Lock()
		delete(r.jobs, name)
		r.mu.Unlock()
	}
	close(j.done)
	return j.choice, j.err
}

// exists reports whether the engine has image name.
func (r *Resolver) exists(ctx context.Context, name string) (bool, error) {
	_, err := r.cli.ImageInspect(ctx, name)
	if err == nil {
		return true, nil
	}
	if errdefs.IsNotFound(err) {
		return false, nil
	}
	if client.IsErrConnectionFailed(err) {
		return false, runtime.Infra(runtime.ReasonDaemon, err)
	}
	return false, runtime.Infra(runtime.ReasonAPI, err)
}

// present returns c when its image is local, else pulls it (with retries).
func (r *Resolver) present(ctx context.Context, c Choice) (Choice, error) {
	ok, err := r.exists(ctx, c.Image)
	if err != nil {
		return c, err
	}
	if ok {
		c.How = "local"
		return c, nil
	}
	if err := r.acquire(ctx); err != nil {
		return c, err
	}
	defer r.release()
	log := r.logFile(c.Image, "pull")
	defer log.Close()
	var last error
	for attempt := 0; attempt <= r.opts.Retries; attempt++ {
		c.Attempts++
		if attempt > 0 {
			fmt.Fprintf(log, "--- retry %d\n", attempt)
			if err := sleep(ctx, backoff(attempt)); err != nil {
				return c, err
			}
		}
		start := time.Now()
		ev := Event{Image: c.Image, Kind: "pull", Attempt: attempt + 1, Of: r.opts.Retries + 1, Log: log.Name()}
		r.progress(ev)
		var st buildStats
		every := r.opts.PullProgressEvery
		if every == 0 {
			every = DefaultPullProgressEvery
		}
		var lastEv time.Time
		lastDone := 0
		st.onPull = func(p *pullStats) {
			done, n, b, total := p.counts()
			if done == lastDone && (every < 0 || time.Since(lastEv) < every) {
				return
			}
			lastDone, lastEv = done, time.Now()
			e := ev
			e.LayersDone, e.Layers, e.Bytes, e.BytesTotal = done, n, b, total
			e.Step = fmt.Sprintf("%d/%d layers, %.1f of %.1f MB", done, n, float64(b)/1e6, float64(total)/1e6)
			e.Elapsed = time.Since(start)
			r.progress(e)
		}
		last = r.pull(ctx, c.Image, log, &st)
		end := ev
		end.Done, end.Err, end.Elapsed = true, last, time.Since(start)
		if last != nil {
			end.Tail = st.tail
		}
		if ctx.Err() == nil {
			r.progress(end)
		}
		if last == nil {
			c.How = "pulled"
			c.BuildLog = log.Name()
			return c, nil
		}
		if ctx.Err() != nil {
			return c, ctx.Err()
		}
		fmt.Fprintf(log, "error: %v\n", last)
	}
	c.BuildLog = log.Name()
	return c, runtime.Infra(runtime.ReasonImage, fmt.Errorf("image %s is not present and cannot be pulled: %w", c.Image, last))
}

func (r *Resolver) pull(ctx context.Context, name string, log io.Writer, st *buildStats) error {
	rc, err := r.cli.ImagePull(ctx, name, image.PullOptions{})
	if err != nil {
		st.keep(err.Error())
		return err
	}
	defer rc.Close()
	return readStream(rc, log, st)
}

// buildStats counts the steps of a classic build's output (Docker's
// "Step 2/4 : ..." and " ---> Using cache", Podman's "STEP 2/4: ..." and
// "--> Using cache ...").
type buildStats struct {
	steps, cached int
	// onStep, when set, is called with each step line as it arrives.
	onStep func(line string)
	// tail holds the last tailLines lines of the output.
	tail []string
	// onPull, when set, is called with a pull's layer state after each
	// message about a layer.
	onPull func(*pullStats)
	pull   pullStats
}

// pullStats follows the layers of a pull through the engine's messages
// (Docker's "Pulling fs layer", "Waiting", "Downloading" with
// progressDetail current/total bytes, "Download complete", "Extracting",
// "Pull complete", "Already exists").
type pullStats struct {
	layers map[string]*layerState
}

type layerState struct {
	done           bool
	current, total int64
}

// layerStatuses are the statuses that name a layer by its id.
var layerStatuses = map[string]bool{"Pulling fs layer": true, "Waiting": true, "Downloading": true, "Verifying Checksum": true,
	"Download complete": true, "Extracting": true, "Pull complete": true, "Already exists": true, "Retrying": true}

// note records message m about a layer; it reports whether m was one.
func (p *pullStats) note(m *jsonmessage.JSONMessage) bool {
	status := m.Status
	if i := strings.Index(status, " in "); i > 0 && strings.HasPrefix(status, "Retrying") {
		status = "Retrying"
	}
	if m.ID == "" || !layerStatuses[status] {
		return false
	}
	if p.layers == nil {
		p.layers = map[string]*layerState{}
	}
	l := p.layers[m.ID]
	if l == nil {
		l = &layerState{}
		p.layers[m.ID] = l
	}
	switch status {
	case "Downloading":
		if m.Progress != nil {
			l.current, l.total = m.Progress.Current, max(m.Progress.Total, l.total)
		}
	case "Download complete", "Extracting":
		if l.total > 0 {
			l.current = l.total
		}
	case "Pull complete", "Already exists":
		l.done = true
		if l.total > 0 {
			l.current = l.total
		}
	}
	return true
}

// counts returns the layers done, the layers named, and the bytes
// downloaded of the sizes known.
func (p *pullStats) counts() (done, layers int, bytes, total int64) {
	for _, l := range p.layers {
		layers++
		if l.done {
			done++
		}
		bytes += l.current
		total += l.total
	}
	return
}

// keep adds the lines of a stream chunk to the tail.
func (b *buildStats) keep(chunk string) {
	if b == nil {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(chunk, "\n"), "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) == "" {
			continue
		}
		b.tail = append(b.tail, l)
		if len(b.tail) > tailLines {
			b.tail = b.tail[len(b.tail)-tailLines:]
		}
	}
}

var (
	reCached = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?im)^\s*-+> using cache\b`) })
)

func (b *buildStats) add(stream string) {
	if b != nil {
		steps := reStepLine().FindAllString(stream, -1)
		b.steps += len(steps)
		b.cached += len(reCached().FindAllStringIndex(stream, -1))
		if b.onStep != nil {
			for _, l := range steps {
				l = strings.TrimSpace(l)
				if len(l) > 100 {
					l = l[:97] + "..."
				}
				b.onStep(l)
			}
		}
		b.keep(stream)
	}
}

// reStepLine matches a build step's line (Docker's "Step 2/4 : ...",
// Podman's "STEP 2/4: ...").
var reStepLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?im)^step \d+/\d+ ?:.*$`) })

// readStream copies the engine's JSON message stream of a build or pull
// to log as text, counts a build's steps into st (when not nil), and
// returns the error the stream reports, if any.
func readStream(rc io.Reader, log io.Writer, st *buildStats) error {
	dec := json.NewDecoder(rc)
	for {
		var m jsonmessage.JSONMessage
		if err := dec.Decode(&m); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading the engine's output: %w", err)
		}
		if st != nil && st.onPull != nil && st.pull.note(&m) {
			st.onPull(&st.pull)
		}
		switch {
		case m.Error != nil:
			fmt.Fprintf(log, "error: %s\n", m.Error.Message)
			st.keep("error: " + m.Error.Message)
			return errors.New(m.Error.Message)
		case m.Stream != "":
			io.WriteString(log, m.Stream)
			st.add(m.Stream)
		case m.Status != "" && m.Progress == nil:
			fmt.Fprintf(log, "%s %s\n", m.ID, m.Status)
			st.keep(m.ID + " " + m.Status)
		}
	}
}

// baseRef matches the SWE-PolyBench base images a Dockerfile starts from.
var baseRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?im)^\s*FROM\s+(?:--\S+\s+)*polybench_([a-z0-9]+)_base(?::\S+)?\b`)
})

// buildInstance builds an instance's image (sources (b) and (c)).
func (r *Resolver) buildInstance(ctx context.Context, in dataset.Instance, name string) (Choice, error) {
	c := Choice{Image: name, Source: SourceBuild}
	if in.BuildContext != "" {
		c.Source = SourceTask
	}
	ok, err := r.exists(ctx, name)
	if err != nil {
		return c, err
	}
	if ok && !r.opts.Rebuild {
		c.How = "local"
		return c, nil
	}
	for _, m := range baseRef().FindAllStringSubmatch(in.Dockerfile, -1) {
		b, err := r.base(ctx, m[1])
		c.Bases = append(c.Bases, b)
		if err != nil {
			return c, err
		}
	}
	ctxDir, remove, err := r.context(ctx, in)
	if err != nil {
		return c, err
	}
	defer remove()
	c.How = "built"
	return r.build(ctx, c, ctxDir, in.Dockerfile, "instance")
}

// context makes the build context of an instance: the task directory as
// it is, or a standalone checkout of the repository at base_commit without
// its .dockerignore (SWE-PolyBench removes it, so .git is in the image):
// Options.Checkout's, whose .git holds the base commit alone, so that the
// code under test cannot check a later commit (the fix) out of it.
func (r *Resolver) context(ctx context.Context, in dataset.Instance) (string, func(), error) {
	if in.BuildContext != "" {
		return in.BuildContext, func() {}, nil
	}
	if r.opts.Checkout == nil {
		return "", nil, errors.New("images: no checkout function for a build from the repository")
	}
	tmp, err := os.MkdirTemp(r.opts.ScratchDir, "image-ctx-")
	if err != nil {
		return "", nil, err
	}
	remove := func() { os.RemoveAll(tmp) }
	dir := filepath.Join(tmp, "repo")
	if err := r.opts.Checkout(ctx, in.Repo, in.BaseCommit, dir); err != nil {
		remove()
		return "", nil, fmt.Errorf("build context of %s: %w", in.InstanceID, err)
	}
	if err := os.Remove(filepath.Join(dir, ".dockerignore")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		remove()
		return "", nil, err
	}
	// What differs between two checkouts of one commit (the index's stat
	// data, reflogs with their times) would defeat the engine's layer
	// cache for COPY: left out (the harness refreshes the index).
	for _, p := range []string{"index", "logs", "FETCH_HEAD", "ORIG_HEAD"} {
		if err := os.RemoveAll(filepath.Join(dir, ".git", p)); err != nil {
			remove()
			return "", nil, err
		}
	}
	return dir, remove, nil
}

// base makes sure polybench_<lang>_base exists, building it from
// BaseDockerfiles/<lang>.Dockerfile (or the shipped one) when it does not.
func (r *Resolver) base(ctx context.Context, lang string) (string, error) {
	name := "polybench_" + lang + "_base"
	_, err := r.once(ctx, name, func(ctx context.Context) (Choice, error) {
		c := Choice{Image: name, Source: SourceBuild}
		ok, err := r.exists(ctx, name)
		if err != nil || ok {
			return c, err
		}
		var dockerfile []byte
		dir := ""
		if r.opts.BaseDockerfiles != "" {
			dir = r.opts.BaseDockerfiles
			dockerfile, err = os.ReadFile(filepath.Join(dir, lang+".Dockerfile"))
		} else {
			dockerfile, err = shippedBases.ReadFile("bases/" + lang + ".Dockerfile")
		}
		if err != nil {
			return c, runtime.Infra(runtime.ReasonBuild, fmt.Errorf("base image %s: no Dockerfile for language %q: %w", name, lang, err))
		}
		if dir == "" {
			if dir, err = os.MkdirTemp(r.opts.ScratchDir, "base-ctx-"); err != nil {
				return c, err
			}
			defer os.RemoveAll(dir)
		}
		c, err = r.build(ctx, c, dir, string(dockerfile), "base")
		return c, err
	})
	return name, err
}

// build builds dockerfile with dir as context as c.Image, with retries,
// logging to LogDir, after the free-disk check.
func (r *Resolver) build(ctx context.Context, c Choice, dir, dockerfile, kind string) (Choice, error) {
	if err := r.acquire(ctx); err != nil {
		return c, err
	}
	defer r.release()
	if err := r.checkDisk(ctx); err != nil {
		return c, err
	}
	// Another polynfi on this machine building the same image (another
	// run, a test) goes first; then the image is there.
	unlock, err := lockImage(ctx, r.cli.DaemonHost(), c.Image)
	if err != nil {
		return c, err
	}
	defer unlock()
	if !r.opts.Rebuild || kind != "instance" {
		ok, err := r.exists(ctx, c.Image)
		if err != nil {
			return c, err
		}
		if ok {
			c.How = "local"
			c.Notes = append(c.Notes, "built by another polynfi process meanwhile")
			return c, nil
		}
	}
	log := r.logFile(c.Image, "build")
	defer log.Close()
	c.BuildLog = log.Name()
	labels := map[string]string{LabelKind: kind}
	for k, v := range r.opts.Labels {
		labels[k] = v
	}
	var last error
	for attempt := 0; attempt <= r.opts.Retries; attempt++ {
		c.Attempts++
		if attempt > 0 {
			fmt.Fprintf(log, "--- retry %d\n", attempt)
			if err := sleep(ctx, backoff(attempt)); err != nil {
				return c, err
			}
		}
		start := time.Now()
		ev := Event{Image: c.Image, Kind: "build", Attempt: attempt + 1, Of: r.opts.Retries + 1, Log: log.Name()}
		r.progress(ev)
		st := buildStats{onStep: func(line string) {
			e := ev
			e.Step, e.Elapsed = line, time.Since(start)
			r.progress(e)
		}}
		last = r.buildOnce(ctx, c.Image, dir, dockerfile, labels, log, &st)
		fmt.Fprintf(log, "--- %s in %s: %d steps, %d from the layer cache\n", map[bool]string{true: "built", false: "failed"}[last == nil],
			time.Since(start).Round(time.Millisecond), st.steps, st.cached)
		end := ev
		end.Done, end.Err, end.Elapsed, end.Steps, end.Cached = true, last, time.Since(start), st.steps, st.cached
		if last != nil {
			end.Tail = st.tail
		}
		if ctx.Err() == nil {
			r.progress(end)
		}
		if last == nil {
			c.BuildSteps, c.CachedSteps = st.steps, st.cached
			r.mu.Lock()
			r.built = append(r.built, builtImage{c.Image, kind})
			r.mu.Unlock()
			return c, nil
		}
		if ctx.Err() != nil {
			return c, ctx.Err()
		}
	}
	if runtime.InfraReason(last) != "" {
		return c, last
	}
	return c, runtime.Infra(runtime.ReasonBuild, fmt.Errorf("build of %s failed (log: %s): %w", c.Image, c.BuildLog, last))
}

// buildOnce sends dir (with dockerfile as its Dockerfile) to the engine.
// The build has the default network; containers of the tests do not.
func (r *Resolver) buildOnce(ctx context.Context, name, dir, dockerfile string, labels map[string]string, log io.Writer, st *buildStats) error {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(tarContext(dir, dockerfile, pw)) }()
	defer pr.Close()
	resp, err := r.cli.ImageBuild(ctx, pr, build.ImageBuildOptions{
		Tags: []string{name}, Dockerfile: polynfiDockerfile, Remove: true, ForceRemove: true,
		Labels: labels, Version: build.BuilderV1,
	})
	if err != nil {
		if client.IsErrConnectionFailed(err) {
			return runtime.Infra(runtime.ReasonDaemon, err)
		}
		return err
	}
	defer resp.Body.Close()
	return readStream(resp.Body, log, st)
}

// polynfiDockerfile is the name under which the Dockerfile travels in the
// context (so that a file named Dockerfile in the repository is left alone).
const polynfiDockerfile = ".polynfi.Dockerfile"

// tarContext writes dir as a tar build context, with dockerfile added as
// polynfiDockerfile. Links are kept as links; other special files skipped.
func tarContext(dir, dockerfile string, w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	tw := tar.NewWriter(bw)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == polynfiDockerfile {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		link := ""
		if fi.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		} else if !fi.Mode().IsRegular() && !fi.IsDir() {
			return nil
		}
		h, err := tar.FileInfoHeader(fi, link)
		if err != nil {
			return err
		}
		h.Name = rel
		if fi.IsDir() {
			h.Name += "/"
		}
		h.Uid, h.Gid, h.Uname, h.Gname = 0, 0, "", ""
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if fi.Mode().IsRegular() {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			_, err = io.Copy(tw, f)
			f.Close()
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: polynfiDockerfile, Mode: 0o644, Size: int64(len(dockerfile)), Typeflag: tar.TypeReg}); err != nil {
		return err
	}
	if _, err := io.WriteString(tw, dockerfile); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

// checkDisk fails with ReasonDiskFull when the engine's data directory has
// less than MinFreeBytes free. Only a local engine's directory can be
// measured; for a remote one the check is skipped.
func (r *Resolver) checkDisk(ctx context.Context) error {
	if r.opts.MinFreeBytes < 0 {
		return nil
	}
	info, err := r.cli.Info(ctx)
	if err != nil {
		if client.IsErrConnectionFailed(err) {
			return runtime.Infra(runtime.ReasonDaemon, err)
		}
		return nil
	}
	var st syscall.Statfs_t
	if info.DockerRootDir == "" || syscall.Statfs(info.DockerRootDir, &st) != nil {
		return nil // not on this machine
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	if free < r.opts.MinFreeBytes {
		return runtime.Infra(runtime.ReasonDiskFull, fmt.Errorf("%s has %d MiB free, a build needs %d MiB", info.DockerRootDir, free>>20, r.opts.MinFreeBytes>>20))
	}
	return nil
}

// FreeBytes returns the free space of the engine's data directory, or -1
// when it cannot be measured (a remote engine).
func (r *Resolver) FreeBytes(ctx context.Context) int64 {
	info, err := r.cli.Info(ctx)
	var st syscall.Statfs_t
	if err != nil || info.DockerRootDir == "" || syscall.Statfs(info.DockerRootDir, &st) != nil {
		return -1
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// lockDirName is the directory under the temporary directory that holds
// the image build locks.
const lockDirName = "polynfi-image-locks"

// lockImage takes this machine's lock on building image name on the
// engine at host (a file lock under the temporary directory), waiting for
// another process that holds it; it returns the function that releases
// it, which also removes the lock file. A lock that cannot be made is no
// lock (the build goes on).
//
// Removing a lock file is safe because a lock counts only while its file
// is still at its path: a process that locked a file another process
// removed meanwhile (it waited on the old file) opens the path again.
func lockImage(ctx context.Context, host, name string) (func(), error) {
	dir := filepath.Join(os.TempDir(), lockDirName)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return func() {}, nil
	}
	sum := sha256.Sum256([]byte(host + "\x00" + name))
	path := filepath.Join(dir, hex.EncodeToString(sum[:12])+".lock")
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
		if err != nil {
			return func() {}, nil
		}
		locked, err := flockWait(ctx, f)
		if err != nil {
			f.Close()
			return nil, err
		}
		if !locked {
			f.Close()
			return func() {}, nil
		}
		if !samePath(f, path) {
			f.Close() // removed by its holder while this process waited: lock the new one
			continue
		}
		return func() {
			_ = os.Remove(path) // while holding it: a waiter sees it gone and opens the path again
			f.Close()
		}, nil
	}
}

// flockWait takes an exclusive lock on f, polling until ctx ends; locked
// is false when the file system refuses locks.
func flockWait(ctx context.Context, f *os.File) (locked bool, err error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return true, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return false, nil
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return false, err
		}
	}
}

// samePath reports whether the open file f is still the file at path.
func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// RemoveStaleLocks removes the image build lock files no process holds
// (those a killed build left; a finished build removes its own) and
// returns how many it removed. A lock another process holds is kept.
func RemoveStaleLocks() int {
	dir := filepath.Join(os.TempDir(), lockDirName)
	es, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range es {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".lock") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NOFOLLOW, 0)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil && samePath(f, path) && os.Remove(path) == nil {
			n++
		}
		f.Close()
	}
	return n
}

func (r *Resolver) acquire(ctx context.Context) error {
	select {
	case r.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (r *Resolver) release() { <-r.sem }

// logFile opens LogDir/<image name with / and : as _>.log for appending
// (a discarding file when there is no LogDir).
func (r *Resolver) logFile(name, what string) *logWriter {
	if r.opts.LogDir == "" {
		return &logWriter{w: io.Discard}
	}
	if err := os.MkdirAll(r.opts.LogDir, 0o755); err != nil {
		return &logWriter{w: io.Discard}
	}
	p := filepath.Join(r.opts.LogDir, strings.NewReplacer("/", "_", ":", "_").Replace(name)+".log")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return &logWriter{w: io.Discard}
	}
	fmt.Fprintf(f, "--- %s %s at %s\n", what, name, time.Now().UTC().Format(time.RFC3339))
	return &logWriter{w: f, f: f, name: p}
}

type logWriter struct {
	mu   sync.Mutex
	w    io.Writer
	f    *os.File
	name string
}

func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
func (l *logWriter) Name() string { return l.name }
func (l *logWriter) Close() error {
	if l.f != nil {
		return l.f.Close()
	}
	return nil
}

func backoff(attempt int) time.Duration {
	return time.Duration(1<<min(attempt-1, 5)) * time.Second
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Cleanup removes the images this Resolver built that the cache level
// does not keep: none removes all, base and env the instance images,
// instance nothing. It returns the images removed.
func (r *Resolver) Cleanup(ctx context.Context) ([]string, error) {
	r.mu.Lock()
	built := append([]builtImage(nil), r.built...)
	r.mu.Unlock()
	var removed []string
	var errs []error
	for i := len(built) - 1; i >= 0; i-- { // instances before their bases
		b := built[i]
		keep := r.opts.CacheLevel == CacheInstance || (b.kind == "base" && r.opts.CacheLevel != CacheNone)
		if keep {
			continue
		}
		if _, err := r.cli.ImageRemove(ctx, b.name, image.RemoveOptions{PruneChildren: true}); err != nil && !errdefs.IsNotFound(err) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, b.name)
	}
	return removed, errors.Join(errs...)
}

// Image is one image polynfi built, as List reports it.
type Image struct {
	Name    string    `json:"name"`
	Kind    string    `json:"kind"` // "base" or "instance"
	ID      string    `json:"id"`
	Size    int64     `json:"size_bytes"`
	Created time.Time `json:"created"`
}

// List returns the images polynfi built (LabelKind set), kind "" for all,
// sorted by name.
func List(ctx context.Context, cli *client.Client, kind string) ([]Image, error) {
	f := filters.NewArgs(filters.Arg("label", LabelKind))
	if kind != "" {
		f = filters.NewArgs(filters.Arg("label", LabelKind+"="+kind))
	}
	list, err := cli.ImageList(ctx, image.ListOptions{Filters: f})
	if err != nil {
		if client.IsErrConnectionFailed(err) {
			return nil, runtime.Infra(runtime.ReasonDaemon, err)
		}
		return nil, err
	}
	var out []Image
	for _, im := range list {
		names := im.RepoTags
		if len(names) == 0 {
			names = []string{"<none>"}
		}
		for _, n := range names {
			out = append(out, Image{Name: n, Kind: im.Labels[LabelKind], ID: strings.TrimPrefix(im.ID, "sha256:")[:12], Size: im.Size, Created: time.Unix(im.Created, 0).UTC()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Prune removes the images polynfi built of kind ("" for all: instance
// images first, then bases) and returns their names.
func Prune(ctx context.Context, cli *client.Client, kind string) ([]string, error) {
	kinds := []string{"instance", "base"}
	if kind != "" {
		kinds = []string{kind}
	}
	var removed []string
	var errs []error
	for _, k := range kinds {
		list, err := List(ctx, cli, k)
		if err != nil {
			return removed, err
		}
		for _, im := range list {
			ref := im.Name
			if ref == "<none>" {
				ref = im.ID
			}
			if _, err := cli.ImageRemove(ctx, ref, image.RemoveOptions{PruneChildren: true}); err != nil && !errdefs.IsNotFound(err) {
				errs = append(errs, fmt.Errorf("%s: %w", ref, err))
				continue
			}
			removed = append(removed, im.Name)
		}
	}
	return removed, errors.Join(errs...)
}
