package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/report"
)

func newRegradeCmd(e *env) *cobra.Command {
	var dsPath, format, out string
	var apply, allowDifferent bool
	cmd := &cobra.Command{
		Use:   "regrade RUN_DIR",
		Short: "Re-grade a run's stored test logs with the current parsers and grading modes",
		Long: `Re-parse the test log stored with every record of RUN_DIR and grade it again in
the polybench, swebench and strict modes against the dataset's FAIL_TO_PASS and
PASS_TO_PASS lists, without running any test (after a parser or grading fix).
The old verdicts are shown beside the new ones for every unit whose verdict
changed, and all of them are written to RUN_DIR/regrade.json or --out FILE (the last
regrade) and RUN_DIR/regrades/<UTC time>[-applied].json (every regrade, with
its time and polynfi version). With --apply the records' verdicts are replaced
by the new ones, so that polynfi report shows the re-graded run; each record
keeps the verdicts it replaced in its regrade_history (time, polynfi version,
parser), and later regrades list them beside the current ones.

Records that cannot be re-graded from their log are kept as they are and
listed: no test ran (empty or unapplied patch, harness error) or the log does
not read through run marks carrying the record's secret (written by an earlier
polynfi, or altered since). A log is read only through those marks: its streams,
exit status and the JUnit XML reports the run wrote are the harness's sections,
never text the tests printed.

The dataset is the one the run names in polynfi-run.json unless --dataset is given.
A dataset whose content (SHA-256) differs from the one the run was evaluated
with is refused (exit 2): its FAIL_TO_PASS/PASS_TO_PASS lists may not be the
run's; --allow-different-dataset re-grades against it anyway, with a warning,
and --apply then records both datasets.

With --apply, RUN_DIR/report.json and report.html are written again from the
re-graded records, and every report of the run names each applied regrade
("re-graded <time> by polynfi <version> (N verdicts changed)"). Units the run
did not evaluate (an interrupted run) have no log to re-grade: they are named,
and running the same eval again evaluates them.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if out != "" {
				if err := checkOutputFile("--out", out); err != nil {
					return err
				}
			}
			dir := args[0]
			r, err := harness.RegradeRunDir(dir, harness.RegradeOptions{Dataset: dsPath, Apply: apply, AllowDifferent: allowDifferent, Out: out,
				Version: polynfiVersion(), Log: e.stderr,
				NotEvaluated: func() []string {
					if rep, err := report.LoadHarnessRun(dir, false, polynfiVersion()); err == nil {
						return rep.Polynfi.NotRecordedIDs
					}
					return nil
				},
				Rewrite: func(legacy bool) error {
					rep, err := report.LoadHarnessRun(dir, legacy, polynfiVersion())
					if err != nil {
						return err
					}
					return report.WriteHarnessFiles(dir, rep)
				}})
			if err != nil {
				return err
			}
			units, changed, notEvaluated := r.Units, r.Changed, r.NotEvaluated
			if format == "json" {
				_, err := e.stdout.Write(r.Doc)
				return err
			}
			t := report.Table{Title: "Verdicts that change on re-grading (old → new)",
				Header: []string{"unit", "parser", string(grading.ModePolyBench), string(grading.ModeSWEBench), string(grading.ModeStrict)}}
			kept := 0
			for _, u := range units {
				if u.NotRegrade != "" {
					kept++
				}
				if !u.Changed {
					continue
				}
				arrow := func(m grading.Mode) string {
					o, n := u.Old.Get(m), u.New.Get(m)
					if o.Status == n.Status {
						return string(n.Status)
					}
					return string(o.Status) + " → " + string(n.Status)
				}
				t.Rows = append(t.Rows, []string{u.Unit, u.OldParser + " → " + u.NewParser, arrow(grading.ModePolyBench), arrow(grading.ModeSWEBench), arrow(grading.ModeStrict)})
			}
			fmt.Fprintf(e.stdout, "re-graded %d records of %s: %d changed, %d kept as they are (see %s)%s\n",
				len(units)-kept, dir, changed, kept, map[bool]string{true: out, false: "regrade.json"}[out != ""], map[bool]string{true: "; records updated, report.json and report.html written again", false: "; records unchanged (--apply to update them)"}[apply])
			if n := len(notEvaluated); n > 0 {
				fmt.Fprintf(e.stdout, "%d units were not evaluated (the run was interrupted): no log to re-grade; run the same eval again to evaluate them: %s\n", n, textesc.Terminal(strings.Join(notEvaluated, ", ")))
			}
			fmt.Fprintln(e.stdout)
			// Records an earlier --apply re-graded: their first verdicts
			// beside the current ones.
			h := report.Table{Title: "Verdicts replaced by an earlier regrade --apply (first → current)",
				Header: []string{"unit", "re-graded at", "by", string(grading.ModePolyBench), string(grading.ModeSWEBench), string(grading.ModeStrict)}}
			for _, u := range units {
				if len(u.Earlier) == 0 {
					continue
				}
				first, last := u.Earlier[0], u.Earlier[len(u.Earlier)-1]
				arrow := func(m grading.Mode) string {
					o, n := first.Verdicts.Get(m), u.Old.Get(m)
					if o.Status == n.Status {
						return string(n.Status)
					}
					return string(o.Status) + " → " + string(n.Status)
				}
				h.Rows = append(h.Rows, []string{u.Unit, last.At.Format(time.RFC3339), "polynfi " + last.Version, arrow(grading.ModePolyBench), arrow(grading.ModeSWEBench), arrow(grading.ModeStrict)})
			}
			if len(t.Rows) == 0 {
				fmt.Fprintln(e.stdout, "no verdict changes")
			} else if err := report.WriteText(e.stdout, t); err != nil {
				return err
			}
			if len(h.Rows) > 0 {
				fmt.Fprintln(e.stdout)
				return report.WriteText(e.stdout, h)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dsPath, "dataset", "", "dataset file (default: the one the run names)")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().StringVarP(&out, "out", "o", "", "write the regrade document (JSON) to FILE atomically (default RUN_DIR/regrade.json)")
	cmd.Flags().BoolVar(&apply, "apply", false, "replace the records' verdicts with the new ones (and write the run's reports again)")
	cmd.Flags().BoolVar(&allowDifferent, "allow-different-dataset", false, "re-grade against a dataset whose content differs from the one the run was evaluated with")
	return cmd
}
