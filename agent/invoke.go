package agent

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/internal/plural"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runtime"
)

// The parts of `polynfi run` that are not flags or printing: the tasks of
// a dataset, the invocation's runtime and its teardown, the account of
// runs that did not complete (moved from internal/cli, #25 item 7c).

// LoadTasks loads the dataset's tasks or instances, restricted to ids.
func LoadTasks(path string, ids []string, log io.Writer) ([]Task, dataset.Kind, error) {
	kind, err := dataset.DetectKind(path)
	if err != nil {
		return nil, "", err
	}
	var tasks []Task
	if kind == dataset.KindNFITasks {
		ts, err := dataset.LoadNFITasks(path)
		if err != nil {
			return nil, kind, fmt.Errorf("load NFI tasks: %w", err)
		}
		for _, re := range ts.Errors {
			fmt.Fprintf(log, "polynfi: skipping task: %s\n", textesc.Terminal(re.Error()))
		}
		for i := range ts.Tasks {
			tasks = append(tasks, Task{NFI: &ts.Tasks[i]})
		}
	} else {
		ds, err := dataset.Load(path)
		if err != nil {
			return nil, kind, fmt.Errorf("load dataset: %w", err)
		}
		for _, re := range ds.Errors {
			fmt.Fprintf(log, "polynfi: skipping row: %s\n", textesc.Terminal(re.Error()))
		}
		for i := range ds.Instances {
			tasks = append(tasks, Task{Instance: &ds.Instances[i]})
		}
	}
	if len(ids) > 0 {
		byID := map[string]Task{}
		for _, t := range tasks {
			byID[t.ID()] = t
		}
		tasks = nil
		for _, id := range ids {
			t, ok := byID[id]
			if !ok {
				return nil, kind, usagef("--instance-ids: %q is not a valid task of %s", id, path)
			}
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		return nil, kind, fmt.Errorf("%s: no valid task or instance", path)
	}
	return tasks, kind, nil
}

// NoRunCompleted says, when the invocation recorded runs and none of them
// completed, how many failed and the likely cause: the most frequent
// reason (ties: the first seen), with a hint when it is a program the
// sandbox does not show (exit 127, "No such file or directory", "command
// not found": under --runtime local the agent sees only what the README's
// agent sandbox lists, and a program elsewhere needs --agent-visible).
func NoRunCompleted(sum *Summary) (string, bool) {
	if sum == nil || len(sum.Records) == 0 || sum.ByStatus[StatusCompleted] > 0 {
		return "", false
	}
	count := map[string]int{}
	var order []string
	notFound := 0
	for _, r := range sum.Records {
		why := r.Reason()
		if count[why] == 0 {
			order = append(order, why)
		}
		count[why]++
		if r.ExitCode == 127 || strings.Contains(why, "No such file or directory") || strings.Contains(why, "command not found") {
			notFound++
		}
	}
	top := order[0]
	for _, w := range order[1:] {
		if count[w] > count[top] {
			top = w
		}
	}
	msg := fmt.Sprintf("all %s failed; most often (%d): %s", plural.Count(len(sum.Records), "run"), count[top], top)
	if len(sum.Records) == 1 {
		msg = "the one run failed: " + top
	}
	// The records of sandboxed runs already end with ProgramHiddenHint:
	// the hint is given once.
	if notFound*2 > len(sum.Records) && !strings.Contains(top, ProgramHiddenHint) {
		msg += "; the agent's program (or one it runs) was not found inside the sandbox: under --runtime local the agent sees only the toolchain directories, its workspace and what --agent-visible/--agent-writable add, so a program under a hidden path (/tmp, a home directory, the dataset's directory) needs --agent-visible DIR"
	}
	return msg, true
}

// Failure is one run of the summary that did not complete.
type Failure struct {
	InstanceID string `json:"instance_id"`
	Run        int    `json:"run"`
	Status     string `json:"status"`
	Reason     string `json:"reason"`
	Record     string `json:"record"`
	// Prediction is false when the run wrote none (it changed nothing).
	Prediction bool `json:"prediction"`
}

// Failures lists the records of s that did not complete, in s's order.
func Failures(out string, s *Summary) []Failure {
	fails := []Failure{}
	for _, r := range s.Records {
		if r.Status == StatusCompleted {
			continue
		}
		dir := RunDir(out, r.Agent, r.InstanceID, r.Run)
		_, err := os.Stat(filepath.Join(dir, PredictionFile))
		fails = append(fails, Failure{InstanceID: r.InstanceID, Run: r.Run, Status: r.Status, Reason: r.Reason(),
			Record: filepath.Join(dir, RecordFile), Prediction: err == nil})
	}
	return fails
}

// HideDatasetPath is what to hide of the dataset: its directory (the
// task sources and reference solutions next to it go too), or the file
// alone when the directory is / or holds the home directory (hiding that
// would hide the agent's own configuration).
func HideDatasetPath(dataset string) string {
	dir := filepath.Dir(dataset)
	home, _ := os.UserHomeDir()
	if dir == "/" || (home != "" && (dir == home || strings.HasPrefix(home+"/", dir+"/"))) {
		return dataset
	}
	return dir
}

// UsageError is an error in what the command line asked (exit code 2):
// IsUsage reports true.
type UsageError struct{ err error }

func (e UsageError) Error() string { return e.err.Error() }
func (e UsageError) Unwrap() error { return e.err }

// IsUsage reports true: the error is in the command line.
func (e UsageError) IsUsage() bool { return true }

func usagef(format string, args ...any) error { return UsageError{fmt.Errorf(format, args...)} }

// Invocation is one `polynfi run` over a dataset's tasks.
type Invocation struct {
	// Options are the runner's; Invoke sets Runtime, Repos, RunKey and
	// Limits.
	Options
	// Dataset is the dataset's path (absolute), Kind its kind; ReposDir
	// the directory of repository clones ("": the dataset's repos/).
	Dataset  string
	Kind     dataset.Kind
	ReposDir string
	// Backend says where agents run: Local (the local sandbox, its
	// options NoIsolation and MaxOutput taken from Backend.Local) or
	// Docker (Out, Log, Images and Limits as eval's).
	Backend backend.Options
	// RunDone is called when the runs have ended, before anything is
	// removed.
	RunDone func()
}

// Invoke runs inv's agent on tasks, as `polynfi run` does: OUT created,
// the agents' runtime opened (the local sandbox, checked that it isolates
// the agent unless waived, or a Docker engine with the instances' image
// resolver for repository instances; the gold agent runs no command and
// stays local), the dataset's directory and the repositories hidden, the
// runs done, then the runtime's leftovers removed (backend.Close). An
// error from the runs is returned with the summary when the summary is
// one of an interruption.
func Invoke(ctx context.Context, inv Invocation, tasks []Task) (*Summary, error) {
	o := inv.Backend
	log := o.Log
	if inv.ReposDir == "" {
		inv.ReposDir = filepath.Join(filepath.Dir(inv.Dataset), "repos")
	}
	if err := os.MkdirAll(inv.Out, 0o755); err != nil {
		return nil, err
	}
	var rt runtime.Runtime
	local := runtime.NewLocal(ctx, o.Local)
	defer local.Close()
	rt = local
	repos := clones.New(inv.ReposDir, filepath.Join(inv.Out, ".repos"))
	key := o.RunKey
	var be *backend.Backend
	if o.Runtime == backend.Docker {
		isNFI := inv.Kind == dataset.KindNFITasks
		if isNFI && inv.Image == "" && inv.Agent != GoldAgent {
			return nil, usagef("--runtime docker: SWE-NFI tasks have no image of their own: give --image (an image that provides the agent)")
		}
		if !isNFI && inv.Image != "" {
			return nil, usagef("--image: repository instances run in their own image (resolved as eval does: the row's image, --image-template, or built from the row's Dockerfile); --image is for SWE-NFI tasks")
		}
		if inv.Agent != GoldAgent {
			if !isNFI {
				o.Repos, o.ScratchDir = repos, filepath.Join(inv.Out, ".work", ".images")
			}
			b, err := backend.Open(ctx, o)
			if err != nil {
				return nil, err
			}
			be = b
			defer func() {
				if be != nil {
					be.Close(ctx)
				}
			}()
			if !isNFI {
				if err := os.MkdirAll(o.ScratchDir, 0o755); err != nil {
					return nil, err
				}
			}
			rt = b.Runtime
		}
	}
	if inv.Agent != GoldAgent && rt == runtime.Runtime(local) {
		if local.Refuses() {
			return nil, fmt.Errorf("%s: refusing to run agents outside a sandbox; install bubblewrap or pass --no-isolation", local.Note())
		}
		if note := local.Note(); note != "" {
			fmt.Fprintf(log, "polynfi: %s: the agent can see and write everything this user can\n", note)
		} else if err := local.AgentReady(ctx); err != nil {
			return nil, fmt.Errorf("refusing to run agents: %w; pass --no-isolation to run them unisolated", err)
		} else if err := runtime.CheckAgentAccess(inv.Visible, inv.Writable); err != nil {
			return nil, usagef("--agent-visible/--agent-writable: %v", err)
		}
	}
	opt := inv.Options
	opt.Runtime, opt.Repos, opt.Limits, opt.RunKey = rt, repos, o.Limits.WithDefaults(runtime.DefaultsFor("")), key
	r, err := NewRunner(opt, []string{HideDatasetPath(inv.Dataset), inv.ReposDir})
	if err != nil {
		return nil, UsageError{err}
	}
	if be != nil && be.Images != nil {
		r.SetImages(be.Images)
	}
	for _, n := range r.Notes() {
		fmt.Fprintf(log, "polynfi: %s\n", n)
	}
	sum, runErr := r.Run(ctx, tasks)
	if inv.RunDone != nil {
		inv.RunDone()
	}
	if be != nil {
		be.Close(ctx)
		be = nil
	}
	if runErr != nil && (sum == nil || !sum.Interrupted) {
		return nil, runErr
	}
	return sum, runErr
}
