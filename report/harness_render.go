package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// HarnessHeadline returns the opening lines of a harness run's report: the
// inputs, the resolved count under the dataset's native grading mode with
// its 95% Wilson interval, the other modes, SWE-bench's outcome counts,
// and the input rows and record files that could not be read (InputLines).
// In a model's section of a run holding several models (Extras.Model
// set) the first line names the model and the run-wide lines are left to
// the page's own headline.
func HarnessHeadline(r *Harness) []string {
	x := &r.Polynfi
	native := x.Modes[x.NativeMode]
	var lines []string
	if x.Model != "" {
		lines = append(lines, fmt.Sprintf("model %s: %d units (instances × runs), %d submitted", x.Model, x.Units, r.SubmittedInstances))
	} else {
		lines = append(lines, fmt.Sprintf("dataset %s (%s), predictions %s, run %s", x.Dataset, x.DatasetSchema, x.Predictions, x.RunID))
		for _, g := range x.Regrades {
			lines = append(lines, g.String())
		}
	}
	if native != nil {
		var unread []string
		if x.UnreadableRows > 0 {
			unread = append(unread, fmt.Sprintf("%d dataset rows could not be read", x.UnreadableRows))
		}
		if x.NotRunnable > 0 {
			unread = append(unread, fmt.Sprintf("%d rows cannot run", x.NotRunnable))
		}
		tail := ""
		if len(unread) > 0 {
			tail = ": " + strings.Join(unread, ", ") + " (counted as unresolved)"
		}
		lines = append(lines, fmt.Sprintf("resolved %s (%s, 95%% CI %s) under %s grading, the dataset's native mode%s",
			resolvedOf(native, x.Interrupted), percent(native.Resolved, native.Total), ciPercent(native.CI), x.NativeMode, tail))
		if c := native.ClusterCI; c != nil && c.Reason != "" {
			lines = append(lines, fmt.Sprintf("  several units per instance (runs or models) are not independent: that Wilson CI treats them as if they were; no clustered interval: %s, and a cluster bootstrap needs at least %d",
				c.Reason, MinClusters))
		} else if c != nil {
			lines = append(lines, fmt.Sprintf("  several units per instance (runs or models) are not independent: that Wilson CI treats them as if they were; clustered by instance (cluster bootstrap, %d resamples, seed %d) 95%% CI %s",
				BootstrapResamples, BootstrapSeed, ciPercent(*c)))
		}
	}
	var others []string
	for _, m := range grading.ModesFor(x.NativeMode) {
		if ms := x.Modes[m]; m != x.NativeMode && ms != nil {
			others = append(others, fmt.Sprintf("%s %d/%d (%s)", m, ms.Resolved, ms.Total, percent(ms.Resolved, ms.Total)))
		}
	}
	if len(others) > 0 {
		lines = append(lines, "other modes: "+strings.Join(others, ", "))
	}
	outcomes := fmt.Sprintf("of the %s of the evaluated set (instances × runs): submitted %d, completed %d, empty patch %d, error %d, incomplete %d (no prediction %d, not evaluated %d), infra failure %d",
		plural(r.TotalInstances, "unit"), r.SubmittedInstances, r.CompletedInstances, r.EmptyPatchInstances, r.ErrorInstances, len(r.IncompleteIDs),
		len(r.IncompleteIDs)-x.NotEvaluated, x.NotEvaluated, r.InfraFailureInstances)
	if n := unreadUnits(x); n > 0 {
		outcomes += fmt.Sprintf("; the %s of dataset rows that could not be read or cannot run are in none of these", plural(n, "unit"))
	}
	lines = append(lines, outcomes)
	if len(x.Tampered) > 0 {
		lines = append(lines, fmt.Sprintf("tampered (the harness's canaries or the clean-room re-run caught a moved verdict; unresolved in every mode): %d: %s", len(x.Tampered), strings.Join(x.Tampered, "; ")))
	}
	lines = append(lines, auditLines(x.Audit)...)
	if len(x.RunnerInternals) > 0 {
		lines = append(lines, fmt.Sprintf("model patches reaching into the test runner (unresolved in strict mode): %d: %s", len(x.RunnerInternals), strings.Join(x.RunnerInternals, "; ")))
	}
	if x.Model == "" {
		lines = append(lines, harnessInputLines(x)...)
	}
	return lines
}

// harnessInputLines are InputLines and the unreadable record files of a
// harness run.
func harnessInputLines(x *Extras) []string {
	lines := InputLines(x.UnreadableRows, x.NotRunnable, x.InputErrors, x.RejectedRows, x.IgnoredPredictions)
	lines = append(lines, DuplicateLines(x.DuplicateRows)...)
	if n := len(x.UnreadableRecords); n > 0 {
		lines = append(lines, fmt.Sprintf("%d record files could not be read (their units count as not evaluated; re-run eval to evaluate them again):", n))
		for _, u := range x.UnreadableRecords {
			lines = append(lines, fmt.Sprintf("  unreadable record %s: %s", u.Path, u.Error))
		}
	}
	return lines
}

// MaxNamed is how many input problems of one kind a headline names; the
// JSON report lists them all.
const MaxNamed = 50

// InputLines are the headline's account of what a run could not use: the
// dataset rows that could not be read or cannot run (each counts as
// unresolved, in every denominator), the prediction rows that were
// rejected (not evaluated: an instance left without a prediction counts
// as missing, unresolved) and the predictions for instance ids the
// dataset does not have (ignored, in no denominator), each named (file,
// row and line, instance id, field, reason; at most MaxNamed of a kind).
// Lines naming an item start with two spaces. Nil when there is none.
func InputLines(unreadable, notRunnable int, inputErrors []string, rejected, ignored []runrecord.PredictionRow) []string {
	var lines []string
	named := func(items []string) {
		for i, it := range items {
			if i == MaxNamed {
				lines = append(lines, fmt.Sprintf("  ... and %d more (the JSON report lists them all)", len(items)-MaxNamed))
				break
			}
			lines = append(lines, "  "+it)
		}
	}
	switch {
	case unreadable+notRunnable > 0:
		lines = append(lines, fmt.Sprintf("%d dataset rows could not be read and %d cannot run (each counts as unresolved in every pass rate and in its "+
			"language and task category total; in no retrieval mean, counted beside it as %s):", unreadable, notRunnable, UnreadColumn))
		named(inputErrors)
	case len(inputErrors) > 0:
		lines = append(lines, "dataset input errors:")
		named(inputErrors)
	}
	rows := func(rs []runrecord.PredictionRow) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = r.String()
		}
		return out
	}
	if n := runrecord.CountRows(rejected); n > 0 {
		lines = append(lines, fmt.Sprintf("%d prediction rows rejected (not evaluated; an instance of the dataset left without a prediction counts as missing: unresolved, retrieval 0):", n))
		named(rows(rejected))
	}
	if len(ignored) > 0 {
		lines = append(lines, fmt.Sprintf("%d predictions name instances not in the dataset (ignored, in no denominator):", len(ignored)))
		named(rows(ignored))
	}
	return lines
}

// DuplicateLines are the headline's account of the dataset rows whose
// instance_id an earlier row has, under their own heading: the first row
// is evaluated and the duplicate counts nowhere (it is no unread row).
// Each is named (at most MaxNamed); nil when there is none.
func DuplicateLines(rows []runrecord.DatasetRow) []string {
	if len(rows) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("%d duplicate dataset rows (first kept, counted once; the duplicates are in no denominator):", len(rows))}
	for i, r := range rows {
		if i == MaxNamed {
			lines = append(lines, fmt.Sprintf("  ... and %d more (the JSON report lists them all)", len(rows)-MaxNamed))
			break
		}
		lines = append(lines, "  "+r.String())
	}
	return lines
}

// resolvedOf is the headline's "k/n": with units not evaluated (an
// interrupted run, or records that could not be read) the rate is over
// the evaluated units and the rest is counted next to it ("1/2
// evaluated; 6 not evaluated: interrupted", no parenthesis, since the
// headline's rate follows in one): a unit never run is no failure. Missing predictions stay in n (unresolved, as the spec says).
func resolvedOf(ms *ModeSummary, interrupted bool) string {
	if ms.NotEvaluated == 0 {
		return fmt.Sprintf("%d/%d", ms.Resolved, ms.Total)
	}
	why := "no readable record"
	if interrupted {
		why = "interrupted"
	}
	return fmt.Sprintf("%d/%d evaluated; %d not evaluated: %s", ms.Resolved, ms.Total, ms.NotEvaluated, why)
}

// percent formats k/n as a percentage with one decimal, Dash when n is 0.
func percent(k, n int) string {
	if n == 0 {
		return Dash
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}

// ciPercent formats a rate interval in percent ("43.9–100.0%"), Dash when undefined.
func ciPercent(c Interval) string {
	if !c.OK {
		if c.Reason != "" {
			return c.Reason
		}
		return Dash
	}
	return fmt.Sprintf("%.1f–%.1f%%", 100*c.Lo, 100*c.Hi)
}

// ciNum formats an interval of a mean with prec decimals ("[0.25, 0.75]").
func ciNum(c Interval, prec int) string {
	if !c.OK {
		if c.Reason != "" {
			return c.Reason
		}
		return Dash
	}
	return fmt.Sprintf("[%.*f, %.*f]", prec, c.Lo, prec, c.Hi)
}

// ciPP formats an interval of an improvement fraction in signed pp.
func ciPP(c Interval) string {
	if !c.OK {
		if c.Reason != "" {
			return c.Reason
		}
		return Dash
	}
	return fmt.Sprintf("[%+.1f, %+.1f]", 100*c.Lo, 100*c.Hi)
}

// Table IDs of a harness report (charts refer to their cells).
const (
	TablePassLanguage      = "pass-language"
	TableRetrievalLanguage = "retrieval-language"
	TableInstances         = "instances"
)

// HarnessTables returns the tables of a harness run's report: the pass rate
// by language, by task category and by complexity class of the reference
// change (resolved/total, rate and its 95% Wilson interval under the
// native mode, resolved counts under every mode; the totals are the
// denominators); the mean file- and node-level retrieval precision, recall
// and F1 overall and by the same groups, each with its denominator (and,
// by language, the bootstrap intervals of the F1 means); the mean NFI
// improvement per aspect of the changed source files with bootstrap
// intervals; and the units whose verdict differs between modes. Means over
// no unit print Dash.
func HarnessTables(r *Harness) []Table {
	x := &r.Polynfi
	var tables []Table
	for _, sec := range []struct {
		id, title string
		groups    []*Group
	}{{TablePassLanguage, "language", x.ByLanguage}, {"pass-category", "task category", x.ByCategory}, {"pass-complexity", "complexity class", x.ByComplexity}} {
		if len(sec.groups) == 0 {
			continue
		}
		t := Table{ID: sec.id, Title: fmt.Sprintf("Pass rate by %s (%s grading)", sec.title, x.NativeMode),
			Header: []string{sec.title, "resolved", "total", "rate", "95% CI", string(grading.ModePolyBench), string(grading.ModeSWEBench), string(grading.ModeStrict)}}
		notEval := x.NotEvaluated > 0
		unread := sec.title != "complexity class" && unreadUnits(x) > 0
		if unread {
			t.Header = append(t.Header, UnreadColumn)
		}
		if notEval {
			t.Header = append(t.Header, "not evaluated")
		}
		clustered := groupsClustered(sec.groups)
		if clustered {
			t.Header = append(t.Header, ColClusterCI)
		}
		for _, g := range sec.groups {
			k := g.Resolved[x.NativeMode]
			row := []string{g.Name, fmt.Sprint(k), fmt.Sprint(g.Total), percent(k, g.Total), ciPercent(g.CI),
				fmt.Sprint(g.Resolved[grading.ModePolyBench]), fmt.Sprint(g.Resolved[grading.ModeSWEBench]), fmt.Sprint(g.Resolved[grading.ModeStrict])}
			if unread {
				row = append(row, fmt.Sprint(g.Unreadable))
			}
			if notEval {
				row = append(row, fmt.Sprint(g.NotEvaluated))
			}
			if clustered {
				row = append(row, ciPercent(*g.ClusterCI))
			}
			t.Rows = append(t.Rows, row)
		}
		t.Notes = append(t.Notes, "95% CI: Wilson score interval of the rate (Wilson 1927). Totals count every evaluated unit of the evaluated set "+
			"and every unit without a prediction (missing: not resolved); a unit the run did not evaluate (interrupted) is in no total "+
			"and no rate, it is counted apart (not evaluated), and a group with nothing evaluated shows "+Dash+" and no bar.")
		if unread {
			t.Notes = append(t.Notes, fmt.Sprintf("Totals also count the %d units of dataset rows that could not be read or cannot run (%s: not resolved, each row once per model and run), "+
				"in the group of the row's %s, or %s when that field could not be read: the totals add up to the headline's %d.",
				unreadUnits(x), UnreadColumn, sec.title, GroupUnknown, x.Modes[x.NativeMode].Total))
		}
		if clustered {
			t.Notes = append(t.Notes, fmt.Sprintf("Repeated runs: an instance has several units, which are not independent, so the Wilson interval (which counts every unit as independent) is too narrow; "+
				"read %q: the cluster bootstrap of the rate resampling instances with all their units (%d resamples, seed %d; Davison and Hinkley 1997, §3.8). The chart draws it.",
				ColClusterCI, BootstrapResamples, BootstrapSeed), ClusterMinNote)
		}
		if sec.title == "complexity class" {
			t.Notes = append(t.Notes, "Units with retrieval metrics only; single_func units also count in func_only, single_class in class_only.")
			if n := unreadUnits(x); n > 0 {
				t.Notes = append(t.Notes, fmt.Sprintf("The %d units of dataset rows that could not be read or cannot run have no reference complexity class: in no row of this table.", n))
			}
			if sec.groups[len(sec.groups)-1].Name == ClassNotRecorded {
				t.Notes = append(t.Notes, ClassNotRecorded+": not-evaluated units of a run written before polynfi recorded each instance's reference complexity class in the run's manifest.")
			}
		}
		tables = append(tables, t)
	}
	if s := x.Retrieval; s != nil {
		rt := RetrievalTablesCI(*s, x.RetrievalCI)
		withUnreadColumn(rt, unreadUnits(x), groupUnread(x.ByLanguage), groupUnread(x.ByCategory))
		if x.NotEvaluated > 0 {
			// The units the run did not evaluate are in no mean: counted
			// beside each group, as in the pass-rate tables.
			for i, gs := range [][]*Group{x.ByLanguage, x.ByCategory, x.ByComplexity} {
				if i >= len(rt) {
					break
				}
				ne := map[string]int{"all": x.NotEvaluated}
				for _, g := range gs {
					ne[g.Name] = g.NotEvaluated
				}
				t := &rt[i]
				t.Header = append(t.Header, "not evaluated")
				for j := range t.Rows {
					t.Rows[j] = append(t.Rows[j], fmt.Sprint(ne[t.Rows[j][0]]))
				}
				t.Notes = append(t.Notes, "not evaluated: units the run did not evaluate (interrupted); they are in no mean.")
			}
		}
		tables = append(tables, rt...)
	}
	if n := x.NFI; n != nil {
		t := Table{ID: "nfi", Title: fmt.Sprintf("NFI improvement of the changed source files (I_p, pp; catalog %s)", n.Catalog),
			Header: []string{"aspect", "n", "mean I_p", "95% CI", "n resolved", "mean I_p resolved", "95% CI resolved"}}
		for i, m := range n.Mean {
			res := AspectMean{}
			if i < len(n.MeanResolved) {
				res = n.MeanResolved[i]
			}
			t.Rows = append(t.Rows, []string{m.Aspect, fmt.Sprint(m.N), pp(Cell{Value: m.Mean, N: m.N, OK: m.N > 0}), ciPP(m.CI),
				fmt.Sprint(res.N), pp(Cell{Value: res.Mean, N: res.N, OK: res.N > 0}), ciPP(res.CI)})
		}
		t.Notes = append(t.Notes, fmt.Sprintf("%d units changed source files (.py, .java, .js, .ts, ...), %d of them parse before and after the model patch.", n.Units, n.Valid))
		tables = append(tables, t)
		if len(n.ByLanguage) > 0 {
			tables = append(tables, nfiLanguageTable(n))
		}
	}
	if len(x.AgentCost) > 0 {
		t := Table{ID: "agent-cost", Title: "Agent cost per model: wall time (s), tokens (in + out), cost (USD)",
			Header: []string{"model", "units", "resolved", "mean s", "median s", "total s", "mean tokens", "median tokens", "total tokens",
				"mean USD", "total USD", "USD per resolved", "not reported"}}
		for _, c := range x.AgentCost {
			t.Rows = append(t.Rows, []string{c.Model, fmt.Sprint(c.Units), fmt.Sprint(c.Resolved), num(c.MeanSeconds, 1), num(c.MedianSeconds, 1),
				num(c.TotalSeconds, 1), num(c.MeanTokens, 0), num(c.MedianTokens, 0), num(c.TotalTokens, 0), num(c.MeanCostUSD, 4),
				num(c.TotalCostUSD, 4), num(c.CostPerResolvedUSD, 4), fmt.Sprint(c.Unreported)})
		}
		t.Notes = append(t.Notes, "From the figures each prediction carried (duration_s, tokens_in + tokens_out, cost_usd: polynfi run writes them). "+
			"A unit that did not report a figure is left out of its mean, median and total (never counted as 0); not reported: units reporting none. "+
			"USD per resolved: total cost over the units resolved in the native mode.")
		tables = append(tables, t)
	}
	if t := passAtKTable(x.PassAtK, x.NativeMode); t != nil {
		tables = append(tables, *t)
	}
	if len(x.Differing) > 0 {
		t := Table{ID: "differing", Title: "Verdicts that differ between modes",
			Header: []string{"unit", string(grading.ModePolyBench), string(grading.ModeSWEBench), string(grading.ModeStrict)}}
		for _, d := range x.Differing {
			t.Rows = append(t.Rows, []string{d.ID, string(d.Statuses[grading.ModePolyBench]), string(d.Statuses[grading.ModeSWEBench]),
				string(d.Statuses[grading.ModeStrict])})
		}
		tables = append(tables, t)
	}
	return tables
}

// nfiLanguageTable is the NFI columns per instance language: for each
// aspect the mean S_p before and after the model patch (one cell,
// "before→after", so that 5 aspects fit a 1280 px page) and the mean I_p,
// over the valid units scoring it; n/a where no unit scores the aspect,
// and for every aspect of a language whose files the catalog has no rule
// for (never 0).
func nfiLanguageTable(n *NFISummary) Table {
	t := Table{ID: "nfi-language", Title: fmt.Sprintf("NFI by language: S_p before and after the model patch, I_p (catalog %s)", n.Catalog),
		Header: []string{"language", "units", "valid"}}
	for _, a := range nfi.Aspects {
		t.Header = append(t.Header, a.Code()+" S_p", a.Code()+" I_p (pp)")
	}
	noRules := false
	for _, l := range n.ByLanguage {
		row := []string{l.Language, fmt.Sprint(l.Units), fmt.Sprint(l.Valid)}
		for _, m := range l.Aspects {
			if m.N == 0 {
				row = append(row, NA, NA)
				continue
			}
			row = append(row, fmt.Sprintf("%.3f→%.3f", m.Before, m.After), fmt.Sprintf("%+.1f", 100*m.Improvement))
		}
		noRules = noRules || l.NoRules
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, "S_p cells read before→after the model patch. S_p (SWE-NFI Eq. 1): the share of the aspect's rules a version passes, mean over the changed files of the language's units; "+
		"I_p (Eq. 2) = after − before, in percentage points. Means over the units whose changed files parse on both sides; "+NA+": no unit has a score in the aspect.")
	if noRules {
		t.Notes = append(t.Notes, fmt.Sprintf("A language whose every aspect is %s has no rule in catalog %s: its files are checked for validity only, not scored.", NA, n.Catalog))
	}
	return t
}

// unreadUnits counts the units of dataset rows that could not be read or
// cannot run: the units of x.UnreadRows, once per (model, run) pair.
func unreadUnits(x *Extras) int {
	n := 0
	for _, g := range x.ByLanguage {
		n += g.Unreadable
	}
	return n
}

// groupUnread maps each group's name to its Unreadable count.
func groupUnread(gs []*Group) map[string]int {
	out := map[string]int{}
	for _, g := range gs {
		out[g.Name] = g.Unreadable
	}
	return out
}

func groupNames(gs []retrieval.Group) []string {
	var out []string
	for _, g := range gs {
		out = append(out, g.Name)
	}
	return out
}

// InstancesTable is the per-instance drill-down: each unit's outcome,
// status and reason under the native mode, the modes whose status differs
// (mode=status), file and node F1, the NFI improvement of aspects that
// changed, and links (relative to the run directory) to its test log,
// model patch and test command.
func InstancesTable(r *Harness) Table {
	t := Table{ID: TableInstances, Title: "Instances",
		Header: []string{"unit", "outcome", "status", "reason", "modes disagree", "file F1", "node F1", "I_p (pp)", "log", "patch", "cmd"}}
	for _, u := range r.Polynfi.UnitResults {
		var modes []string
		for _, m := range grading.ModesFor(r.Polynfi.NativeMode) {
			if st, ok := u.Differing[m]; ok {
				modes = append(modes, fmt.Sprintf("%s=%s", m, st))
			}
		}
		// Non-zero I_p per aspect; a unit scored with I_p 0 in every
		// aspect shows 0, not the dash of a unit that was not scored.
		var ip []string
		for _, a := range u.NFI {
			if !math0(100 * a.Mean) {
				ip = append(ip, fmt.Sprintf("%s %+.1f", a.Aspect, 100*a.Mean))
			}
		}
		if len(ip) == 0 && len(u.NFI) > 0 {
			ip = []string{"0 (every aspect)"}
		}
		for _, l := range u.NFINoRules {
			ip = append(ip, "n/a for "+l+" (no rules)")
		}
		f1 := func(v *float64) string {
			if v == nil {
				return Dash
			}
			return fmt.Sprintf("%.2f", *v)
		}
		reason := strings.ReplaceAll(u.Reason, "\n", " ")
		if len([]rune(reason)) > 120 {
			reason = string([]rune(reason)[:117]) + "..."
		}
		row := []string{u.ID, u.Outcome, string(u.Status), orDash(reason), orDash(strings.Join(modes, ", ")), f1(u.FileF1), f1(u.NodeF1), orDash(strings.Join(ip, ", "))}
		links := make([]string, len(row)+3)
		// Short labels (the link holds the file name): the table fits a
		// 1280 px window. Only artefacts that hold something are linked
		// (an empty patch has no log, patch or command).
		for _, f := range []struct{ label, file string }{{"log", runrecord.LogFile}, {"patch", runrecord.PatchFile}, {"cmd", runrecord.CommandFile}} {
			if u.Dir == "" || !slices.Contains(u.Files, f.file) {
				row = append(row, Dash)
				continue
			}
			row = append(row, f.label)
			links[len(row)-1] = u.Dir + "/" + f.file
		}
		t.Rows = append(t.Rows, row)
		t.Links = append(t.Links, links)
	}
	t.Notes = append(t.Notes, "outcome: resolved / unresolved (tests ran), empty_patch, error (the harness could not evaluate it), "+
		"incomplete (not evaluated: the run was interrupted), missing (no prediction, or its row was rejected; counts as an empty one). "+
		"reason: the native mode's, else that of each mode that disagrees. log, patch and cmd link to the unit's "+
		runrecord.LogFile+", "+runrecord.PatchFile+" and "+runrecord.CommandFile+", relative to the run directory (the text format prints the paths); – when the unit has none (tests not run, empty patch).")
	return t
}

func orDash(s string) string {
	if s == "" {
		return Dash
	}
	return s
}

// ColClusterCI is the header of a table's clustered interval column: the
// interval to read when runs repeat, and the one its chart draws.
const ColClusterCI = "95% CI clustered"

// groupsClustered reports whether the groups carry clustered intervals
// (the run has repeated units of an instance).
func groupsClustered(gs []*Group) bool {
	for _, g := range gs {
		if g.ClusterCI != nil {
			return true
		}
	}
	return false
}

// colIndex is the index of header h in t, -1 when absent.
func colIndex(t Table, h string) int {
	for i, x := range t.Header {
		if x == h {
			return i
		}
	}
	return -1
}

// HarnessCharts draws the resolved rate by language from the pass-rate
// table, with error bars that are the interval the report tells readers
// to use: the Wilson interval ("95% CI"), or when runs repeat the cluster
// bootstrap interval (ColClusterCI); and the mean file and node F1 by
// language (with bootstrap error bars) from the retrieval table. Every bar
// refers to the cell it shows and every error bar to the cell of its
// interval; the footnote says which interval is drawn. A group without a
// value has no bar.
func HarnessCharts(r *Harness, tables []Table) []BarChart {
	x := &r.Polynfi
	var charts []BarChart
	byID := map[string]Table{}
	for _, t := range tables {
		byID[t.ID] = t
	}
	if t, ok := byID[TablePassLanguage]; ok {
		c := BarChart{ID: "chart-" + TablePassLanguage, Title: fmt.Sprintf("Resolved rate by language (%s grading)", x.NativeMode), Unit: "%",
			Note: "Error bars: 95% Wilson score intervals (the table's \"95% CI\" column)."}
		ciCol := 4
		clustered := groupsClustered(x.ByLanguage)
		if clustered {
			ciCol = colIndex(t, ColClusterCI)
			c.Note = fmt.Sprintf("Error bars: 95%% cluster bootstrap intervals resampling instances with all their runs (the table's %q column; %d resamples, seed %d), "+
				"not the Wilson intervals, which treat repeated runs of an instance as independent. ", ColClusterCI, BootstrapResamples, BootstrapSeed) + ClusterMinNote
		}
		s := BarSeries{Name: "resolved %"}
		for i, g := range x.ByLanguage {
			v, ok := g.Rate(x.NativeMode)
			ci := g.CI
			if clustered {
				ci = *g.ClusterCI
			}
			ci.Lo, ci.Hi = 100*ci.Lo, 100*ci.Hi
			c.Groups = append(c.Groups, g.Name)
			note := fmt.Sprintf("n=%d", g.Total)
			if g.Unreadable > 0 {
				note += fmt.Sprintf(", %d unreadable", g.Unreadable)
			}
			if g.NotEvaluated > 0 {
				note += fmt.Sprintf(", %d not evaluated", g.NotEvaluated)
			}
			c.GroupNotes = append(c.GroupNotes, note)
			s.Bars = append(s.Bars, Bar{Value: 100 * v, OK: ok, CI: ci, Text: t.Rows[i][3], Ref: CellRef{t.ID, i, 3}, CIText: t.Rows[i][ciCol], CIRef: CellRef{t.ID, i, ciCol}})
		}
		c.Series = []BarSeries{s}
		charts = append(charts, c)
	}
	if t, ok := byID[TableRetrievalLanguage]; ok && x.Retrieval != nil {
		charts = append(charts, retrievalChart(*x.Retrieval, x.RetrievalCI, t))
	}
	return charts
}

// retrievalChart draws the mean file and node F1 by language (with
// bootstrap error bars) from the retrieval table t.
func retrievalChart(s retrieval.Summary, cis map[string]F1Intervals, t Table) BarChart {
	c := BarChart{ID: "chart-" + TableRetrievalLanguage, Title: "Mean retrieval F1 by language", Unit: "0–1"}
	fc, nc := colIndex(t, "file F1 95% CI"), colIndex(t, "node F1 95% CI")
	switch {
	case fc < 0 || nc < 0:
		c.Note = "No error bars: the table has no intervals."
	case cis["all"].Clustered:
		c.Note = fmt.Sprintf("Error bars: 95%% cluster bootstrap intervals of the mean resampling instances with all their units (the table's \"file F1 95%% CI\" and \"node F1 95%% CI\" columns; %d resamples, seed %d): repeated runs of an instance are not independent. "+ClusterMinNote,
			BootstrapResamples, BootstrapSeed)
	default:
		c.Note = fmt.Sprintf("Error bars: 95%% percentile bootstrap intervals of the mean (the table's \"file F1 95%% CI\" and \"node F1 95%% CI\" columns; %d resamples, seed %d).", BootstrapResamples, BootstrapSeed)
	}
	file, node := BarSeries{Name: "file F1"}, BarSeries{Name: "node F1"}
	for i, g := range s.ByLanguage {
		row := i + 1 // row 0 is "all"
		ci := cis[g.Name]
		c.Groups = append(c.Groups, g.Name)
		c.GroupNotes = append(c.GroupNotes, fmt.Sprintf("files n=%d, nodes n=%d", g.File.N, g.Node.N))
		fb := Bar{Value: g.File.F1, OK: g.File.N > 0, CI: ci.File, Text: t.Rows[row][4], Ref: CellRef{t.ID, row, 4}}
		nb := Bar{Value: g.Node.F1, OK: g.Node.N > 0, CI: ci.Node, Text: t.Rows[row][8], Ref: CellRef{t.ID, row, 8}}
		if fc >= 0 && nc >= 0 {
			fb.CIText, fb.CIRef = t.Rows[row][fc], CellRef{t.ID, row, fc}
			nb.CIText, nb.CIRef = t.Rows[row][nc], CellRef{t.ID, row, nc}
		} else {
			fb.CI, nb.CI = Interval{}, Interval{}
		}
		file.Bars = append(file.Bars, fb)
		node.Bars = append(node.Bars, nb)
	}
	c.Series = []BarSeries{file, node}
	return c
}

// HarnessPage is the whole report of a harness run: notice, headline,
// charts, tables and (when instances is true, or always in Markdown and
// HTML as the callers choose) the per-instance drill-down. A run holding
// the predictions of several models (Extras.Models) gets the run-wide
// lines and one section per model, each with its own headline, tables
// and denominators.
func HarnessPage(r *Harness, instances bool) Page {
	x := &r.Polynfi
	title := fmt.Sprintf("polynfi eval: %s (%s)", x.RunID, x.DatasetSchema)
	footer := Provenance(x.Version, x.EvaluatedWith)
	if len(x.Models) > 1 {
		var names []string
		var secs []Page
		for _, m := range x.Models {
			names = append(names, m.Model)
			p := HarnessPage(m.Report, instances)
			p.Title, p.Footer = "model "+m.Model, ""
			secs = append(secs, p)
		}
		lines := []string{fmt.Sprintf("dataset %s (%s), run %s; last predictions evaluated: %s", x.Dataset, x.DatasetSchema, x.RunID, x.Predictions),
			fmt.Sprintf("this run directory holds the predictions of %d models (%s): one section per model, each over its own units and denominators "+
				"(polynfi compare RUN RUN --model-a A --model-b B compares two of them)", len(names), strings.Join(names, ", "))}
		lines = append(lines, harnessInputLines(x)...)
		p := Sections(title, lines, secs...)
		p.Notice, p.Footer = x.Notice, footer
		return p
	}
	tables := HarnessTables(r)
	if instances {
		tables = append(tables, InstancesTable(r))
	}
	return Page{Title: title, Notice: x.Notice, Lines: HarnessHeadline(r), Charts: HarnessCharts(r, tables), Tables: tables, Footer: footer}
}

// RetrievalTablesCI is RetrievalTables with, in the table by language, the
// bootstrap intervals of the mean file and node F1 of each row (cis from
// SummarizeRetrieval; none when cis is nil). Full and --metrics-only runs
// both render their localization numbers with it.
func RetrievalTablesCI(s retrieval.Summary, cis map[string]F1Intervals) []Table {
	rt := RetrievalTables(s)
	if len(rt) > 0 && cis != nil {
		lt := &rt[0]
		lt.Header = append(lt.Header, "file F1 95% CI", "node F1 95% CI")
		names := append([]string{"all"}, groupNames(s.ByLanguage)...)
		for i := range lt.Rows {
			ci := cis[names[i]]
			lt.Rows[i] = append(lt.Rows[i], ciNum(ci.File, 2), ciNum(ci.Node, 2))
		}
		if cis["all"].Clustered {
			lt.Notes = append(lt.Notes, fmt.Sprintf("95%% CI: cluster bootstrap of the mean resampling instances with all their units (%d resamples, seed %d; Davison and Hinkley 1997, §3.8): "+
				"an instance has several units (repeated runs), which are not independent.", BootstrapResamples, BootstrapSeed), ClusterMinNote)
		} else {
			lt.Notes = append(lt.Notes, fmt.Sprintf("95%% CI: percentile bootstrap of the mean (%d resamples, seed %d).", BootstrapResamples, BootstrapSeed))
		}
	}
	return rt
}

// RetrievalTables renders a localization summary: one table per breakdown
// (language, task category, complexity class), each opening with the
// overall row "all", with the mean file- and node-level precision, recall
// and F1 and their denominators.
func RetrievalTables(s retrieval.Summary) []Table {
	var tables []Table
	for _, sec := range []struct {
		id, title string
		groups    []retrieval.Group
	}{{TableRetrievalLanguage, "language", s.ByLanguage}, {"retrieval-category", "task category", s.ByTaskCategory}, {"retrieval-complexity", "complexity class", s.ByComplexity}} {
		t := Table{ID: sec.id, Title: "Retrieval by " + sec.title,
			Header: []string{sec.title, "files n", "file P", "file R", "file F1", "nodes n", "node P", "node R", "node F1"}}
		t.Rows = append(t.Rows, retrievalRow("all", s.Overall))
		for _, g := range sec.groups {
			t.Rows = append(t.Rows, retrievalRow(g.Name, g))
		}
		tables = append(tables, t)
	}
	tables[0].Notes = append(tables[0].Notes, "Macro means; n is the denominator. Empty, failed or missing predictions count 0; "+
		"units without reference nodes or whose reference patch failed are left out of node means (SWE-PolyBench's None and -1).")
	return tables
}

func retrievalRow(name string, g retrieval.Group) []string {
	f := func(v float64, n int) string {
		if n == 0 {
			return Dash
		}
		return fmt.Sprintf("%.2f", v)
	}
	return []string{name,
		fmt.Sprint(g.File.N), f(g.File.Precision, g.File.N), f(g.File.Recall, g.File.N), f(g.File.F1, g.File.N),
		fmt.Sprint(g.Node.N), f(g.Node.Precision, g.Node.N), f(g.Node.Recall, g.Node.N), f(g.Node.F1, g.Node.N)}
}
