package runtime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// Runtime starts sandboxes: one per instance attempt. Backends: Local (a
// host work tree under bubblewrap), Docker (a container from an image,
// through the Docker Engine API) and Kubernetes (a pod, through client-go).
// Implementations are safe for concurrent use.
type Runtime interface {
	// Name is the backend's name as records carry it: "local", "docker"
	// or "kubernetes".
	Name() string
	// Start creates and starts a sandbox as spec says. An error that is
	// the environment's fault (daemon unreachable, image missing, pod
	// never scheduled) wraps an *InfraError; the caller must Remove a
	// returned Sandbox whatever happens next.
	Start(ctx context.Context, spec Spec) (Sandbox, error)
}

// Spec is what a sandbox is made from.
type Spec struct {
	// Name is a human-readable name, usually the instance id; backends
	// derive container and pod names from it (sanitized, made unique).
	Name string
	// Image is the container image (docker, kubernetes); Local ignores it.
	Image string
	// Language is the instance's language (dataset spelling); Kubernetes
	// picks per-language pod resources by it. Optional.
	Language string
	// Workdir is where the repository lives and where commands run by
	// default: for Local, an existing host directory (the workspace); for
	// containers, a path inside the image (SWE-bench and SWE-PolyBench
	// images use /testbed).
	Workdir string
	// Env holds the KEY=VALUE pairs every command sees, besides PinnedEnv.
	// It is the whole environment of a container; for Local see
	// Local.Start.
	Env []string
	// Labels are attached to the container or pod (run id, instance) so
	// that a later run can find and remove what a killed run left.
	Labels map[string]string
	// Limits bound what commands in the sandbox may use.
	Limits Limits
	// Timeout is the timeout of the sandbox's longest command, the test
	// run (0: TimeoutFor(Language)). A backend that bounds a sandbox's
	// life on its own side derives the bound from it (Kubernetes: the
	// pod's deadline, KubernetesOptions.PodDeadline), so that a sandbox
	// whose driver is gone ends by itself.
	Timeout time.Duration
	// Network allows network access to commands; false (the default)
	// means none.
	Network bool
	// CleanEnv gives commands Env (and PinnedEnv) only. A container's
	// environment is always Env; Local otherwise adds Env to polynfi's own.
	CleanEnv bool
	// Hide lists host paths commands must not see (Local: see
	// Command.Hide; a container sees nothing of the host anyway).
	Hide []string
	// Writable lists more host directories commands may write (Local only;
	// see Command.Writable).
	Writable []string
	// Visible lists host paths bound read-only after Hide (Local only; see
	// Command.Visible).
	Visible []string
	// HostView: see Command.HostView (Local only).
	HostView bool
	// AgentView, Home and Own: see Command (Local only).
	AgentView bool
	Home      string
	Own       []string
}

// Limits bound a sandbox. A zero field means no limit beyond the backend's
// default; a backend that cannot enforce a limit says so in Info().Notes.
type Limits struct {
	// CPUs is the CPU quota in cores (1.5 = one and a half cores).
	CPUs float64
	// MemoryBytes caps resident memory; a sandbox killed for exceeding it
	// is an InfraError with reason ReasonOOM.
	MemoryBytes int64
	// Pids caps the number of processes and threads.
	Pids int64
	// DiskBytes caps what commands may write (where the backend can).
	DiskBytes int64
}

// Sandbox is one started environment. Paths are as seen inside the
// sandbox; a relative path is relative to Workdir. Exec, CopyIn and CopyOut
// may be called from one goroutine at a time.
type Sandbox interface {
	// Info describes the sandbox for the record.
	Info() Info
	// Workdir is the repository's directory inside the sandbox.
	Workdir() string
	// Exec runs cmd inside the sandbox with cmd.Timeout; cmd.Dir "" is
	// Workdir. A command that starts and exits non-zero, or is killed at
	// its timeout, is a Result, not an error. The error is non-nil when
	// the command could not be run (wrapping *InfraError when the sandbox
	// is gone or was killed for memory) or when ctx was cancelled.
	Exec(ctx context.Context, cmd Command) (Result, error)
	// CopyIn writes files under dir (Workdir when ""), creating parent
	// directories. A path must be relative and clean (no "..").
	CopyIn(ctx context.Context, dir string, files []File) error
	// CopyOut returns the regular files at or under path, read up to max
	// bytes in all (0: DefaultMaxOutput); paths in the result are
	// relative to path's parent for a file and to path for a directory.
	// A missing path gives no files and no error.
	CopyOut(ctx context.Context, path string, max int64) ([]File, error)
	// Remove destroys the sandbox and what runs in it. It is idempotent
	// and must be called, with a context that is not cancelled, even
	// after ctx of the run was.
	Remove(ctx context.Context) error
}

// File is a file copied into or out of a sandbox.
type File struct {
	Path string      // slash-separated, relative
	Mode fs.FileMode // permission bits; 0 means 0o644
	Data []byte
}

// Info describes a sandbox for the record.
type Info struct {
	Runtime   string `json:"runtime"`             // "local", "docker", "kubernetes"
	ID        string `json:"id,omitempty"`        // container id, pod name, or work tree
	Image     string `json:"image,omitempty"`     // image the sandbox was made from
	Node      string `json:"node,omitempty"`      // cluster node (kubernetes)
	Isolation string `json:"isolation,omitempty"` // "bwrap", "none", "container", "pod"
	// StartS is the seconds from creating the sandbox to its running
	// (kubernetes: pod created to container running, scheduling and any
	// image pull included; 0 for the other runtimes).
	StartS float64 `json:"start_s,omitempty"`
	// DeadlineS is the seconds after its start at which the backend ends
	// the sandbox by itself, whether or not its driver still runs
	// (kubernetes: the pod's deadline, counted from the container
	// running; 0: none).
	DeadlineS float64  `json:"deadline_s,omitempty"`
	Notes     []string `json:"notes,omitempty"` // limits not enforced, no isolation, ...
}

// Reasons of infrastructure failures, as records carry them.
const (
	ReasonDaemon     = "daemon_unreachable"  // the engine or API server did not answer
	ReasonImage      = "image_unavailable"   // no such image, pull failed
	ReasonBuild      = "image_build_failed"  // building the instance's image failed
	ReasonOOM        = "oom_killed"          // the sandbox was killed for memory
	ReasonGone       = "sandbox_gone"        // the container or pod vanished mid-run
	ReasonPending    = "pending_timeout"     // a pod never started
	ReasonEvicted    = "evicted"             // the node evicted the pod
	ReasonNodeLost   = "node_lost"           // the pod's node stopped reporting (Ready not True) mid-run
	ReasonDeadline   = "deadline_exceeded"   // the backend ended the sandbox at its deadline (Info.DeadlineS) before its commands were done
	ReasonAPI        = "api_error"           // any other error of the engine's API
	ReasonNoSandbox  = "no_sandbox"          // no isolation is available and none was waived
	ReasonDiskFull   = "disk_full"           // not enough free disk for a build
	ReasonValidation = "environment_invalid" // the environment failed its validation
)

// InfraError is a failure of the environment, not of the code under test:
// it is never scored as the model's failure, and an evaluation that ends
// in one is retried.
type InfraError struct {
	Reason string // one of the Reason constants
	Err    error
}

func (e *InfraError) Error() string {
	if e.Err == nil {
		return "infrastructure failure: " + e.Reason
	}
	return fmt.Sprintf("infrastructure failure (%s): %v", e.Reason, e.Err)
}

func (e *InfraError) Unwrap() error { return e.Err }

// Infra wraps err as an InfraError with reason (nil stays nil).
func Infra(reason string, err error) error {
	if err == nil {
		return nil
	}
	return &InfraError{Reason: reason, Err: err}
}

// InfraReason returns the reason of the InfraError in err's chain, or ""
// when err is not an infrastructure failure.
func InfraReason(err error) string {
	var ie *InfraError
	if errors.As(err, &ie) {
		return ie.Reason
	}
	return ""
}

// Labels polynfi puts on the containers and pods it creates (besides
// Spec.Labels).
const (
	// LabelManaged marks every container of polynfi ("true").
	LabelManaged = "io.polynfi.managed"
	// LabelRun carries the run key: the same for every run writing the
	// same output directory, so that the next run can remove what a
	// killed one left (Docker.RemoveStale).
	LabelRun = "io.polynfi.run"
	// LabelInstance carries the instance id.
	LabelInstance = "io.polynfi.instance"
)

// ErrEndedAtTimeout is in the chain of every error a sandbox gives after
// its backend ended it at a command's timeout because what the command
// left running could not be killed inside it (kube.Kubernetes: a fork bomb
// holding every process slot of the pod, so that no exec can start; the
// pod is deleted). That command's Result says TimedOut: the timeout is its
// outcome, not an infrastructure failure; nothing more runs or can be read
// in the sandbox.
var ErrEndedAtTimeout = errors.New("the sandbox was ended at a command's timeout")

// StoppedError is the error of a sandbox command during which the sandbox
// stopped by itself: its PID 1 exited with a status the engine reports no
// outside cause for (no kill or stop through the engine, no OOM kill, no
// signal, not removed). Only what ran inside can have done that, so it is
// the outcome of the command, not an InfraError.
type StoppedError struct {
	ID       string // the container's short id
	ExitCode int    // its PID 1's exit status
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("container %s stopped by itself during the command: its PID 1 exited with status %d (no outside cause reported by the engine)", e.ID, e.ExitCode)
}
