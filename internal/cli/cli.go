// Package cli implements the polynfi command line: subcommands, flags,
// configuration loading and exit codes. It is the only owner of stdout,
// stderr, the environment and the exit code; it imports every other package
// and is imported by none.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes. Source: polynfi house style (shared/design/STYLE.md, Errors).
const (
	ExitOK          = 0   // success
	ExitFindings    = 1   // findings or unresolved instances, where a command promises that
	ExitUsage       = 2   // bad flags or arguments
	ExitError       = 3   // an error (bad input file, I/O)
	ExitInterrupted = 130 // interrupted by a signal
)

// env is what every subcommand gets: the streams and the root context.
type env struct {
	ctx    context.Context
	stdout io.Writer
	stderr io.Writer
}

// usageError marks an error in the command line itself (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitError carries a chosen exit code without a message of its own (the
// command already printed what it had to say).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs polynfi with args (without the program name) and returns the
// process exit code.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdout: stdout, stderr: stderr}
	root := newRoot(e)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "polynfi: interrupted")
		return ExitInterrupted
	}
	fmt.Fprintf(stderr, "polynfi: %v\n", err)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return ExitUsage
	}
	return ExitError
}

func isCobraUsage(err error) bool {
	s := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "requires at most", "flag needs an argument", "invalid argument"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "polynfi",
		Short: "Judge code changes by coding agents: correctness, localization, non-functional quality",
		Long: `polynfi judges a code change the way a senior reviewer would:
  correctness     run the patch against the repository's tests (SWE-PolyBench, SWE-bench)
  localization    file- and syntax-node-level retrieval metrics (SWE-PolyBench)
  quality         92 executable non-functional rules over Python (SWE-NFI)
and builds the datasets these are measured on.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	// Each subcommand lives in its own file; keep this list sorted.
	for _, mk := range []func(*env) *cobra.Command{
		newDiffCmd,
		newEvalCmd,
		newMetricsCmd,
		newMineCmd,
		newReportCmd,
		newReviewCmd,
		newRulesCmd,
		newRunCmd,
		newSampleCmd,
		newScoreCmd,
		newTasksCmd,
	} {
		root.AddCommand(mk(e))
	}
	return root
}

// checkFormat validates a --format value against the allowed ones.
func checkFormat(got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return usagef("--format %q: want one of %s", got, strings.Join(allowed, ", "))
}
