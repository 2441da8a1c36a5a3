package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/agent/audit"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/report"
	"github.com/polynfi/polynfi/runrecord"
)

func newAuditCmd(e *env) *cobra.Command {
	var datasets []string
	var evalDir, format, out string
	c := &cobra.Command{
		Use:   "audit RUN [--dataset FILE] [--eval DIR]",
		Short: "Audit agent runs for reaching beyond the task: future history, the upstream repository, the dataset, the reference, the network",
		Long: `audit reads every agent run of RUN (the --out directory of 'polynfi run'):
its trajectory (Claude Code stream-json or Codex JSON events on stdout,
mini-SWE-agent's trajectory file) and the workspace's .git as the agent left
it (local runs). It flags each step that reaches beyond the task: the
repository's history past the base commit (git log --all, the reflog, remote
refs, tags, packs), the upstream repository (fetch, clone, a code host's URL),
the benchmark's dataset (--dataset names its file), the reference solution or
the held-back tests, a path polynfi hid from the agent, the network. Each
finding cites the step: its index, the tool call or command, and the line it
was read from. A run with no readable trajectory (Claude Code's plain json
envelope: run it with --output-format stream-json --verbose; Aider) is not
audited, and never counted clean.

It writes RUN/audit.json (--out FILE: that file instead). With --eval DIR (the output of 'polynfi eval' on
RUN/predictions.jsonl) it prints each model's resolved rate beside its
"resolved, clean" rate: resolved by a run whose audit found nothing.

Exit status: 0 when no run has a finding, 1 when some do, 2 for bad flags,
3 for unreadable inputs.`,
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
			return runAudit(e, args[0], datasets, evalDir, format, out)
		},
	}
	f := c.Flags()
	f.StringArrayVar(&datasets, "dataset", nil, "dataset file the runs were made from (repeatable): a step naming it reads the dataset")
	f.StringVar(&evalDir, "eval", "", "eval output directory of RUN's predictions: print resolved and resolved-clean rates")
	f.StringVar(&format, "format", "text", "output format: text or json (the audit report)")
	f.StringVarP(&out, "out", "o", "", "write the audit report (JSON) to FILE atomically (default RUN/"+audit.File+")")
	return c
}

func runAudit(e *env, dir string, datasets []string, evalDir, format, out string) error {
	rep, err := audit.AuditDir(dir, datasets, out)
	if err != nil {
		return err
	}
	var rates []report.CleanRate
	if evalDir != "" {
		recs, err := runrecord.LoadRecords(evalDir)
		if err != nil {
			return err
		}
		byKey := rep.ByKey()
		rates = report.CleanRates(recs, func(model, id string, run int) report.AuditVerdict {
			r, ok := byKey[audit.Key{Agent: model, InstanceID: id, Run: run}]
			switch {
			case !ok || !r.Audited:
				return report.AuditUnaudited
			case r.Clean:
				return report.AuditClean
			}
			return report.AuditFlagged
		})
	}
	if format == "json" {
		out := struct {
			*audit.Report
			Rates []report.CleanRate `json:"rates,omitempty"`
		}{rep, rates}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s\n", b)
	} else {
		for _, r := range rep.Runs {
			if len(r.Findings) == 0 {
				continue
			}
			fmt.Fprintf(e.stdout, "%s %s run %d: %d finding(s)\n", textesc.Terminal(r.Agent), textesc.Terminal(r.InstanceID), r.Run, len(r.Findings))
			for _, f := range r.Findings {
				at := "workspace"
				if f.Step != nil {
					at = fmt.Sprintf("step %d (%s)", *f.Step, textesc.Terminal(f.Tool))
				}
				fmt.Fprintf(e.stdout, "  %s %s at %s: %s\n", f.Kind, at, textesc.Terminal(f.Source), textesc.Terminal(f.Why))
				if f.Input != "" {
					fmt.Fprintf(e.stdout, "    %s\n", textesc.Terminal(f.Input))
				}
			}
		}
		for _, s := range rep.Agents {
			fmt.Fprintf(e.stdout, "%s: %s, %d audited, %d clean, %d with findings\n", textesc.Terminal(s.Agent), plural(s.Runs, "run"), s.Audited, s.Clean, s.Flagged)
		}
		if rates != nil {
			report.RenderCleanRates(e.stdout, rates)
		}
		if out == "" {
			out = filepath.Join(dir, audit.File)
		}
		fmt.Fprintf(e.stdout, "report: %s\n", out)
	}
	if rep.Findings() > 0 {
		return exitError{1}
	}
	return nil
}
