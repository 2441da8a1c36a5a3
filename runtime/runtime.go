// Package runtime owns where and how commands run: the Runner interface and
// its Local implementation (a process group per command, a timeout that kills
// the whole group, a pinned environment, and bubblewrap isolation when the
// machine has it). Container and cluster backends implement the same
// interface later.
//
// The package knows nothing about tests, patches or datasets: it runs a
// command in a directory and reports what happened. It never prints.
package runtime

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
)

// Runner runs one command to completion. Implementations are safe for
// concurrent use.
type Runner interface {
	// Run runs cmd and returns its result. A command that starts and exits
	// non-zero, or is killed at its timeout, is a Result, not an error. The
	// error is non-nil when the command could not be started, or when ctx
	// was cancelled (then it wraps ctx.Err() and the process group has
	// been killed).
	Run(ctx context.Context, cmd Command) (Result, error)
}

// Command is what to run. Exactly one of Args and Script is set: Args is an
// argv (Args[0] looked up on PATH), Script a bash script run as
// `bash -c Script`.
type Command struct {
	Args   []string
	Script string
	// Dir is the working directory; under isolation it is the one
	// writable tree besides /tmp and Writable.
	Dir string
	// Env holds extra KEY=VALUE pairs added to the allow-listed part of
	// the runner's environment (see commandEnv); the pinned variables
	// (PinnedEnv) override them.
	Env []string
	// Timeout bounds the wall time; 0 means no limit beyond ctx.
	Timeout time.Duration
	// Writable lists more directories left writable under isolation.
	Writable []string
	// Hide lists host paths the command must not see: under bubblewrap a
	// directory is replaced by an empty one (a tmpfs) and a file by an
	// empty file, before Dir and Writable are bound back (so Dir may lie
	// inside a hidden directory). Hiding os.TempDir() gives the command a
	// private /tmp. Without isolation nothing can be hidden and Run adds a
	// note saying so.
	Hide []string
	// Visible lists host paths bound read-only after Hide, so that they stay
	// visible inside a hidden directory (a tool installed under /tmp when
	// /tmp is hidden).
	Visible []string
	// Network keeps network access under isolation (an agent needs its
	// model's API); false (the default) runs the command without network.
	Network bool
	// CleanEnv runs the command with Env and PinnedEnv only instead of
	// adding them to this process's environment.
	CleanEnv bool
	// HostView shows the command the host's file system read-only (minus
	// the container engines' state directories, whose mounts come and go,
	// and their sockets: hostView.args; minus Hide; Dir and Writable
	// read-write) instead of the minimal view
	// a test command gets (/usr, /etc without secrets, the toolchains,
	// Visible; see Local.bwrapArgs). For polynfi's own commands in a work
	// tree (the harness's git); test commands never set it, and agents
	// get AgentView.
	HostView bool
	// AgentView shows the command the agent view instead (agentview.go:
	// an allow-list of /usr, /etc without secrets, the toolchains,
	// Visible, Writable, Dir and a private home and /tmp), run as a user
	// that is never the host's root (AgentUID when polynfi runs as root).
	// For coding agents; it takes precedence over HostView.
	AgentView bool
	// Home, with AgentView, is a host directory bound read-write at the
	// home directory's path ("" for an empty tmpfs there).
	Home string
	// Own, with AgentView, lists more host trees made the agent's user's
	// before the command runs (Dir and Home always are) when polynfi runs
	// as root.
	Own []string
	// User runs the command in a container as this user ("UID:GID", or a
	// name the image's /etc/passwd knows; Docker's exec user); "" is the
	// image's user. Local ignores it (AgentView picks the agent's user);
	// Kubernetes refuses a command that sets it (its exec cannot change
	// the user).
	User string
	// Stdin, when set, is the command's standard input (else none).
	Stdin io.Reader
	// Stdout and Stderr, when set, also receive each stream as the command
	// writes it (the captured copies in Result are kept as well). Writes
	// happen on the runner's goroutines; an error from them is ignored.
	Stdout io.Writer
	Stderr io.Writer
}

// describe names the command in errors: its program, or "a script".
func (c Command) describe() string {
	if len(c.Args) > 0 {
		return c.Args[0]
	}
	return "a bash script"
}

// Argv returns the argv that runs c: Args, or `bash -c Script`. The error
// says that not exactly one of them is set.
func (c Command) Argv() ([]string, error) {
	switch {
	case c.Script != "" && len(c.Args) == 0:
		return []string{"bash", "-c", c.Script}, nil
	case c.Script == "" && len(c.Args) > 0:
		return c.Args, nil
	}
	return nil, errors.New("want exactly one of Args and Script")
}

// Result is what a command did. ExitCode is the process's exit status, or
// -1 when it was killed by a signal (including at the timeout). Duration
// is wall time from start to the end of Wait. Stdout and Stderr are the
// captured streams, each truncated at the runner's output limit (a note
// says so). Isolation names the sandbox used ("bwrap" or "none"); Notes
// carry anything a reader of the record should know (no isolation, output
// truncated, killed at timeout).
type Result struct {
	ExitCode  int           `json:"exit_code"`
	Duration  time.Duration `json:"-"`
	Stdout    []byte        `json:"-"`
	Stderr    []byte        `json:"-"`
	TimedOut  bool          `json:"timed_out"`
	Isolation string        `json:"isolation"`
	Notes     []string      `json:"notes,omitempty"`
}

// PinnedEnv are the variables fixed in every command's environment for
// reproducible test runs. Source: polynfi evaluation spec §2 (Determinism).
var PinnedEnv = []string{"TZ=UTC", "PYTHONHASHSEED=0", "LC_ALL=C.UTF-8"}

// Default timeouts of a test run, by language. Source: SWE-PolyBench
// src/poly_bench_evaluation/constants.py (JAVA_TIMEOUT 1800, DEFAULT_TIMEOUT
// 1200, in seconds).
const (
	JavaTimeout    = 1800 * time.Second
	DefaultTimeout = 1200 * time.Second
)

// TimeoutFor returns the default timeout of a test run in language
// (case-insensitive): DefaultsFor(language).Timeout, that is JavaTimeout
// for Java, BuildTimeout for the compiled languages that build before they
// test (C, C++, Rust), DefaultTimeout otherwise.
func TimeoutFor(language string) time.Duration {
	return DefaultsFor(language).Timeout
}

// MergeEnv returns base with extra and then pinned applied, later values
// replacing earlier ones with the same key; order of first appearance kept.
func MergeEnv(base []string, layers ...[]string) []string {
	idx := map[string]int{}
	var out []string
	add := func(kv string) {
		k, _, _ := strings.Cut(kv, "=")
		if i, ok := idx[k]; ok {
			out[i] = kv
			return
		}
		idx[k] = len(out)
		out = append(out, kv)
	}
	for _, kv := range base {
		add(kv)
	}
	for _, l := range layers {
		for _, kv := range l {
			add(kv)
		}
	}
	return out
}
