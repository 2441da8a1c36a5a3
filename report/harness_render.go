package report

import (
	"fmt"
	"strings"

	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/retrieval"
)

// HarnessHeadline returns the opening lines of a harness run's report: the
// inputs, the resolved count under the dataset's native grading mode and
// under the other modes, and SWE-bench's outcome counts.
func HarnessHeadline(r *Harness) []string {
	x := &r.Polynfi
	native := x.Modes[x.NativeMode]
	var lines []string
	lines = append(lines, fmt.Sprintf("dataset %s (%s), predictions %s, run %s", x.Dataset, x.DatasetSchema, x.Predictions, x.RunID))
	if native != nil {
		lines = append(lines, fmt.Sprintf("resolved %d/%d (%s) under %s grading, the dataset's native mode",
			native.Resolved, native.Total, percent(native.Resolved, native.Total), x.NativeMode))
	}
	var others []string
	for _, m := range harness.Modes {
		if ms := x.Modes[m]; m != x.NativeMode && ms != nil {
			others = append(others, fmt.Sprintf("%s %d/%d (%s)", m, ms.Resolved, ms.Total, percent(ms.Resolved, ms.Total)))
		}
	}
	if len(others) > 0 {
		lines = append(lines, "other modes: "+strings.Join(others, ", "))
	}
	lines = append(lines, fmt.Sprintf("submitted %d, completed %d, empty patch %d, error %d, incomplete %d, infra failure %d",
		r.SubmittedInstances, r.CompletedInstances, r.EmptyPatchInstances, r.ErrorInstances, len(r.IncompleteIDs), r.InfraFailureInstances))
	return lines
}

// percent formats k/n as a percentage with one decimal, Dash when n is 0.
func percent(k, n int) string {
	if n == 0 {
		return Dash
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}

// HarnessTables returns the tables of a harness run's report: the pass rate
// by language, by task category and by complexity class of the reference
// change (resolved/total and rate under the native mode, resolved counts
// under every mode; the totals are the denominators); the mean file- and
// node-level retrieval precision, recall and F1 overall and by the same
// groups, each with its denominator (file means over every unit with
// metrics, node means over the units with node scores); the mean NFI
// improvement per aspect of the changed .py files; and the units whose
// verdict differs between modes. Means over no unit print Dash.
func HarnessTables(r *Harness) []Table {
	x := &r.Polynfi
	var tables []Table
	for _, sec := range []struct {
		title  string
		groups []*Group
	}{{"language", x.ByLanguage}, {"task category", x.ByCategory}, {"complexity class", x.ByComplexity}} {
		if len(sec.groups) == 0 {
			continue
		}
		t := Table{Title: fmt.Sprintf("Pass rate by %s (%s grading)", sec.title, x.NativeMode),
			Header: []string{sec.title, "resolved", "total", "rate", string(harness.ModePolyBench), string(harness.ModeSWEBench), string(harness.ModeStrict)}}
		for _, g := range sec.groups {
			k := g.Resolved[x.NativeMode]
			t.Rows = append(t.Rows, []string{g.Name, fmt.Sprint(k), fmt.Sprint(g.Total), percent(k, g.Total),
				fmt.Sprint(g.Resolved[harness.ModePolyBench]), fmt.Sprint(g.Resolved[harness.ModeSWEBench]), fmt.Sprint(g.Resolved[harness.ModeStrict])})
		}
		if sec.title == "complexity class" {
			t.Notes = append(t.Notes, "Units with retrieval metrics only; single_func units also count in func_only, single_class in class_only.")
		}
		tables = append(tables, t)
	}
	if s := x.Retrieval; s != nil {
		tables = append(tables, RetrievalTables(*s)...)
	}
	if n := x.NFI; n != nil {
		t := Table{Title: fmt.Sprintf("NFI improvement of the changed .py files (I_p, pp; catalog %s)", n.Catalog),
			Header: []string{"aspect", "n", "mean I_p", "n resolved", "mean I_p resolved"}}
		for i, m := range n.Mean {
			res := AspectMean{}
			if i < len(n.MeanResolved) {
				res = n.MeanResolved[i]
			}
			t.Rows = append(t.Rows, []string{m.Aspect, fmt.Sprint(m.N), pp(Cell{Value: m.Mean, N: m.N, OK: m.N > 0}),
				fmt.Sprint(res.N), pp(Cell{Value: res.Mean, N: res.N, OK: res.N > 0})})
		}
		t.Notes = append(t.Notes, fmt.Sprintf("%d units changed .py files, %d of them parse before and after the model patch.", n.Units, n.Valid))
		tables = append(tables, t)
	}
	if t := passAtKTable(x.PassAtK, x.NativeMode); t != nil {
		tables = append(tables, *t)
	}
	if len(x.Differing) > 0 {
		t := Table{Title: "Verdicts that differ between modes",
			Header: []string{"unit", string(harness.ModePolyBench), string(harness.ModeSWEBench), string(harness.ModeStrict)}}
		for _, d := range x.Differing {
			t.Rows = append(t.Rows, []string{d.ID, string(d.Statuses[harness.ModePolyBench]), string(d.Statuses[harness.ModeSWEBench]),
				string(d.Statuses[harness.ModeStrict])})
		}
		tables = append(tables, t)
	}
	return tables
}

// RetrievalTables renders a localization summary: one table per breakdown
// (language, task category, complexity class), each opening with the
// overall row "all", with the mean file- and node-level precision, recall
// and F1 and their denominators.
func RetrievalTables(s retrieval.Summary) []Table {
	var tables []Table
	for _, sec := range []struct {
		title  string
		groups []retrieval.Group
	}{{"language", s.ByLanguage}, {"task category", s.ByTaskCategory}, {"complexity class", s.ByComplexity}} {
		t := Table{Title: "Retrieval by " + sec.title,
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

// HarnessChart draws, per language, the resolved rate under the native
// mode and the mean file- and node-level retrieval F1, all in percent.
// A group without a value has no bar.
func HarnessChart(r *Harness) (Chart, error) {
	x := &r.Polynfi
	rate := Series{Name: fmt.Sprintf("resolved %% (%s)", x.NativeMode)}
	file := Series{Name: "file F1 %"}
	node := Series{Name: "node F1 %"}
	byLang := map[string]retrieval.Group{}
	if x.Retrieval != nil {
		for _, g := range x.Retrieval.ByLanguage {
			byLang[g.Name] = g
		}
	}
	var groups []string
	for _, g := range x.ByLanguage {
		groups = append(groups, g.Name)
		v, ok := g.Rate(x.NativeMode)
		rate.Values, rate.OK = append(rate.Values, 100*v), append(rate.OK, ok)
		rg := byLang[g.Name]
		file.Values, file.OK = append(file.Values, 100*rg.File.F1), append(file.OK, rg.File.N > 0)
		node.Values, node.OK = append(node.Values, 100*rg.Node.F1), append(node.OK, rg.Node.N > 0)
	}
	series := []Series{rate}
	if x.Retrieval != nil {
		series = append(series, file, node)
	}
	svg, err := GroupedBarSVG("Resolved rate and retrieval F1 by language (%)", groups, series)
	if err != nil {
		return Chart{}, err
	}
	c := Chart{SVG: svg}
	for _, s := range series {
		c.Series = append(c.Series, s.Name)
	}
	return c, nil
}
