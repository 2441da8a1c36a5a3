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
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runrecord"
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
	fmt.Fprintf(stderr, "polynfi: %s\n", textesc.TerminalBlock(err.Error()))
	return exitCode(err)
}

// exitCode maps an error to its exit code by its type, never by its text:
// a usageError (bad flags, arguments or values, an unknown command) is
// ExitUsage, an exitError carries its code, anything else (I/O, bad input
// files, git failures) is ExitError.
func exitCode(err error) int {
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var ue usageError
	if errors.As(err, &ue) || errors.Is(err, runrecord.ErrNotStore) {
		return ExitUsage
	}
	// A package's own usage error (report/bundle: a flag's value).
	var pu interface{ IsUsage() bool }
	if errors.As(err, &pu) && pu.IsUsage() {
		return ExitUsage
	}
	return ExitError
}

// usageArgs makes the errors of a positional-argument check usage errors.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			var ue usageError
			if errors.As(err, &ue) {
				return err
			}
			return usageError{err}
		}
		return nil
	}
}

// typeUsageErrors walks the command tree so that every argument check
// returns a usageError (cobra's own checks return plain errors).
func typeUsageErrors(c *cobra.Command) {
	if c.Args != nil {
		c.Args = usageArgs(c.Args)
	}
	for _, sub := range c.Commands() {
		typeUsageErrors(sub)
	}
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
		Version:       polynfiVersion(),
		Args:          cobra.ArbitraryArgs,
		// Without subcommand: help; with an unknown one: a usage error
		// (cobra's own "unknown command" error is an untyped string).
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return cmd.Help()
		},
	}
	// Every duration flag given on the command line must be positive (a
	// zero or negative limit would stop everything at once or never), and
	// no number may be negative: usage errors, exit 2.
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		var bad error
		cmd.Flags().Visit(func(f *pflag.Flag) {
			if bad != nil {
				return
			}
			switch f.Value.Type() {
			case "duration":
				if d, err := time.ParseDuration(f.Value.String()); err == nil && d <= 0 {
					bad = usagef("--%s %s: want a positive duration (e.g. 90s, 30m)", f.Name, f.Value.String())
				}
			case "int", "int64", "int32", "float64", "float32":
				// No count, size, budget, limit or rate of polynfi is negative.
				if v, err := strconv.ParseFloat(f.Value.String(), 64); err == nil && v < 0 {
					bad = usagef("--%s %s: want 0 or more", f.Name, f.Value.String())
				}
			}
		})
		return bad
	}
	root.SetVersionTemplate("polynfi {{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	// Each subcommand lives in its own file; keep this list sorted.
	for _, mk := range []func(*env) *cobra.Command{
		newAuditCmd,
		newCleanupCmd,
		newDiffCmd,
		newEvalCmd,
		newImagesCmd,
		newMetricsCmd,
		newMineCmd,
		newReportCmd,
		newCompareCmd,
		newRegradeCmd,
		newReviewCmd,
		newRulesCmd,
		newRunCmd,
		newSampleCmd,
		newScoreCmd,
		newTasksCmd,
		newValidateCmd,
	} {
		root.AddCommand(mk(e))
	}
	for _, c := range root.Commands() {
		typeUsageErrors(c)
	}
	// After the commands are added: normalization reaches every flag set.
	root.SetGlobalNormalizationFunc(normalizeFlagName)
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
