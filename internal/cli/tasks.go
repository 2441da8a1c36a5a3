package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/mine"
	"github.com/polynfi/polynfi/review"
)

func newTasksCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tasks",
		Short: "Build NFI tasks from reviewed candidates",
	}
	cmd.AddCommand(newTasksBuildCmd(e))
	return cmd
}

func newTasksBuildCmd(e *env) *cobra.Command {
	var (
		candidates, out, format, testCommand string
		labels                               []string
	)
	cmd := &cobra.Command{
		Use:   "build --candidates FILE --labels FILE [--labels FILE] --out FILE",
		Short: "Turn accepted candidates into draft NFI tasks (spec §1.2)",
		Long: `Turn the candidates accepted in the labelled review sheets into NFI tasks.

A candidate is accepted when every sheet accepts it and the aspects the
reviewers gave agree. Accepted pairs of one merged change and aspect form one
task (single-file or multi-file); the aspect is the reviewers' or else the
most improved one. Every task is a draft: its description reads
"TODO(reviewer): describe the requested change" (description_status "draft"),
and its test_command is --test-command, for a person to check.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if candidates == "" || out == "" || len(labels) == 0 {
				return usagef("--candidates, --labels and --out are required")
			}
			if !strings.EqualFold(filepath.Ext(out), ".jsonl") {
				return usagef("--out %s: tasks are written as JSONL (one task a line, files and candidates as JSON lists); give a .jsonl file", out)
			}
			cands, err := mine.ReadCandidates(candidates)
			if err != nil {
				return err
			}
			var sheets [][]review.Label
			for _, p := range labels {
				ls, err := review.ReadLabels(p)
				if err != nil {
					return err
				}
				sheets = append(sheets, ls)
			}
			dec, drep, err := review.Decide(sheets, labels)
			if err != nil {
				return err
			}
			tasks, rep, err := mine.BuildTasks(cands, dec, mine.BuildOptions{TestCommand: testCommand})
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := dataset.WriteNFITasks(&buf, tasks); err != nil {
				return err
			}
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
				return err
			}
			if format == "json" {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Review review.DecideReport `json:"review"`
					Build  mine.BuildReport    `json:"build"`
					Out    string              `json:"out"`
				}{drep, rep, out})
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "candidates\t%d\n", rep.Candidates)
			fmt.Fprintf(tw, "labelled\t%d\t(%d sheets)\n", drep.Items, len(sheets))
			fmt.Fprintf(tw, "accepted\t%d\n", rep.Accepted)
			fmt.Fprintf(tw, "reviewers disagree\t%d\n", drep.Disagreements)
			fmt.Fprintf(tw, "aspect conflicts\t%d\n", drep.AspectConflicts)
			fmt.Fprintf(tw, "tasks\t%d\t(%d single-file, %d multi-file) written to %s\n", rep.Tasks, rep.Single, rep.Multi, out)
			for _, a := range dataset.NFIAspectCodes() {
				fmt.Fprintf(tw, "  %s\t%d\n", a, rep.PerAspect[a])
			}
			fmt.Fprintf(tw, "descriptions\tdraft: write each task's description and check its test command\n")
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&candidates, "candidates", "", "candidates JSONL written by polynfi mine")
	cmd.Flags().StringArrayVar(&labels, "labels", nil, "labelled review sheet, CSV or JSONL (repeatable: one per reviewer)")
	outFlag(cmd.Flags(), &out, "tasks JSONL file to write")
	cmd.Flags().StringVar(&testCommand, "test-command", "python3 -m pytest -rA -p no:cacheprovider", "test_command written into every task (it must print per-test results, e.g. pytest -rA or --junitxml, for strict grading)")
	cmd.Flags().StringVar(&format, "format", "text", "summary format: text, json")
	return cmd
}
