package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// One vocabulary of flags, shared by every command:
//
//	--out, -o      where a command writes: a directory (eval, run, validate,
//	               images, review, ...) or a file (score, diff, report,
//	               compare, rules, metrics, sample, tasks, mine). --output is
//	               accepted as its old spelling.
//	--dataset      the dataset a command reads (sample's --input is an alias).
//	--workers, -j  how many units at once; 0, the default everywhere, is one
//	               per CPU core (runtime.NumCPU).
//
// Unknown flags get a "did you mean" naming the command's closest flags.

// flagAliases maps an accepted old or alternative flag name to the name
// every command uses (pflag normalization: both spellings set the same
// flag, help shows only the canonical one).
var flagAliases = map[string]string{
	"output": "out",
	"input":  "dataset",
}

// normalizeFlagName is the root's global flag normalization (flagAliases).
func normalizeFlagName(_ *pflag.FlagSet, name string) pflag.NormalizedName {
	if to, ok := flagAliases[name]; ok {
		return pflag.NormalizedName(to)
	}
	return pflag.NormalizedName(name)
}

// outFlag registers --out/-o, a directory the command writes into.
func outFlag(f *pflag.FlagSet, p *string, usage string) {
	f.StringVarP(p, "out", "o", "", usage)
}

// workersFlag registers --workers/-j with the one default of every
// command: 0, one per CPU core. Read it through workerCount.
func workersFlag(f *pflag.FlagSet, p *int, what string) {
	f.IntVarP(p, "workers", "j", 0, fmt.Sprintf("%s at once (default 0: one per CPU core, %d here)", what, runtime.NumCPU()))
}

// workerCount resolves a --workers value: n ≥ 1 as given, 0 one per CPU
// core (≥ 1).
func workerCount(n int) int {
	if n >= 1 {
		return n
	}
	return max(runtime.NumCPU(), 1)
}

// resultFile is --out/-o FILE of a command whose result goes to standard
// output by default: the result is written to FILE atomically instead (a
// failed run leaves no partial file and the old content stays).
type resultFile struct {
	path string
}

func (r *resultFile) register(c *cobra.Command) {
	c.Flags().StringVarP(&r.path, "out", "o", "", "write the result to FILE (atomically) instead of standard output")
}

// withResultFile gives c --out/-o FILE: its RunE then writes what it
// prints on standard output to FILE instead (resultFile.run).
func withResultFile(e *env, c *cobra.Command) *cobra.Command {
	var r resultFile
	r.register(c)
	inner := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		return r.run(e, func(e2 *env) error {
			// The command's closure holds e: point its stdout at the
			// destination for the call (one command runs per env).
			old := e.stdout
			e.stdout = e2.stdout
			defer func() { e.stdout = old }()
			return inner(cmd, args)
		})
	}
	return c
}

// run calls body with an env whose stdout is the result's destination.
// With --out, the file is written only if body succeeds or ends with a
// chosen exit code (exitError: a gate that tripped still writes its
// result); any other error leaves FILE as it was.
func (r *resultFile) run(e *env, body func(e *env) error) error {
	of := outputFlags{output: r.path}
	var exit error
	err := of.write(e, func(w io.Writer) error {
		e2 := *e
		e2.stdout = w
		err := body(&e2)
		var ee exitError
		if errors.As(err, &ee) {
			exit = err
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	return exit
}

// flagError is the root's flag error function: every flag error is a
// usage error (exit 2), and an unknown flag names the command's closest
// flags ("did you mean --dataset?").
func flagError(c *cobra.Command, err error) error {
	// "polynfi evl --dataset x": cobra found no command "evl" and parsed
	// the flags for the root; the unknown command is the user's mistake.
	if !c.HasParent() {
		if a := c.Flags().Args(); len(a) > 0 {
			return unknownCommand(c, a[0])
		}
	}
	msg := err.Error()
	var name string
	switch {
	case strings.HasPrefix(msg, "unknown flag: --"):
		name = strings.TrimPrefix(msg, "unknown flag: --")
	case strings.HasPrefix(msg, "unknown shorthand flag: '"):
		// pflag: unknown shorthand flag: 'x' in -xyz
		rest := strings.TrimPrefix(msg, "unknown shorthand flag: '")
		if i := strings.IndexByte(rest, '\''); i > 0 {
			name = rest[:i]
		}
	}
	if name == "" {
		return usageError{err}
	}
	if s := suggestFlags(c, name); len(s) > 0 {
		return usageError{fmt.Errorf("%w; did you mean %s? (polynfi %s --help lists the flags)", err, strings.Join(s, " or "), c.Name())}
	}
	return usageError{fmt.Errorf("%w (polynfi %s --help lists the flags)", err, c.Name())}
}

// unknownCommand is the usage error for a command name root does not
// have, naming up to three close commands ("did you mean eval?"): those
// within an edit distance of max(2, len(name)/3), or that name is a
// prefix of (3 letters or more), closest first.
func unknownCommand(root *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", name, root.CommandPath())
	if s := suggestCommands(root, name); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError{errors.New(msg + " (polynfi --help lists the commands)")}
}

func suggestCommands(root *cobra.Command, name string) []string {
	type cand struct {
		name string
		d    int
	}
	var cands []cand
	lname := strings.ToLower(name)
	limit := max(2, len(name)/3)
	for _, sub := range root.Commands() {
		if !sub.IsAvailableCommand() {
			continue
		}
		for _, n := range append([]string{sub.Name()}, sub.Aliases...) {
			d := editDistance(lname, n)
			if len(name) >= 3 && strings.HasPrefix(n, lname) {
				d = min(d, 1)
			}
			if d <= limit {
				cands = append(cands, cand{sub.Name(), d})
				break
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].d != cands[j].d {
			return cands[i].d < cands[j].d
		}
		return cands[i].name < cands[j].name
	})
	var out []string
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].name)
	}
	return out
}

// suggestFlags returns up to three flags of c (its own and inherited, not
// hidden) closest to name: those it is a prefix of or that are a prefix of
// it, and those within an edit distance of max(2, len(name)/3), closest
// first, each as "--name".
func suggestFlags(c *cobra.Command, name string) []string {
	name = strings.TrimLeft(name, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	type cand struct {
		flag string
		d    int
	}
	var cands []cand
	seen := map[string]bool{}
	limit := max(2, len(name)/3)
	visit := func(f *pflag.Flag) {
		if f.Hidden || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		d := editDistance(strings.ToLower(name), f.Name)
		if len(name) >= 3 && (strings.HasPrefix(f.Name, name) || strings.HasPrefix(name, f.Name)) {
			d = min(d, 1)
		}
		if len(name) == 1 && f.Shorthand == name {
			d = 0
		}
		if d <= limit {
			cands = append(cands, cand{"--" + f.Name, d})
		}
	}
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].d != cands[j].d {
			return cands[i].d < cands[j].d
		}
		return cands[i].flag < cands[j].flag
	})
	var out []string
	for i := 0; i < len(cands) && i < 3; i++ {
		out = append(out, cands[i].flag)
	}
	return out
}

// editDistance is the Levenshtein distance of a and b in bytes (the
// optimal string alignment variant: an adjacent transposition costs 1).
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// checkWorkers is the usage check of a --workers value (≥ 0).
func checkWorkers(n int) error {
	if n < 0 {
		return usagef("--workers %s: want 0 (one per CPU core) or more", strconv.Itoa(n))
	}
	return nil
}

// manifestPath is how a run's manifest records an input path: absolute,
// so that regrade, report and compare find it from any working directory
// (p as given when it cannot be made absolute).
func manifestPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// exists reports whether p exists (any kind of file).
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
