package report

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/retrieval"
	"github.com/polynfi/polynfi/runrecord"
)

// repeatedRun is a run of one model over four instances, each run `runs`
// times: Java j0 resolved in every run, j1 in none; Python p0 in every
// run, p1 in runs 0 and 1 only. resolved[instance][run] says so.
func repeatedRun(t *testing.T, runs int) *Harness {
	t.Helper()
	patch := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
	resolved := map[string][]bool{
		"o__j0": {true, true, true}, "o__j1": {false, false, false},
		"o__p0": {true, true, true}, "o__p1": {true, true, false},
	}
	m := &runrecord.Manifest{Kind: runrecord.KindHarness, NativeMode: grading.ModePolyBench, Complete: true}
	var recs []*runrecord.Record
	for _, id := range []string{"o__j0", "o__j1", "o__p0", "o__p1"} {
		lang := map[byte]string{'j': "Java", 'p': "Python"}[id[3]]
		in := dataset.Instance{InstanceID: id, Repo: "o/r", Language: lang, TaskCategory: "Bug Fix", Patch: patch}
		m.Instances = append(m.Instances, runrecord.ManifestInstance{InstanceID: id, Language: lang, TaskCategory: in.TaskCategory})
		for run := 0; run < runs; run++ {
			k := harness.Job{Instance: in, Prediction: dataset.Prediction{InstanceID: id, ModelNameOrPath: "agent", ModelPatch: patch, Run: run}}.Key()
			m.Units = append(m.Units, runrecord.ManifestUnit{Key: k})
			st := grading.StatusUnresolved
			if resolved[id][run] {
				st = grading.StatusResolved
			}
			v := grading.AllModes(st, "")
			v.PolyBench.Resolved, v.SWEBench.Resolved, v.Strict.Resolved = resolved[id][run], resolved[id][run], resolved[id][run]
			// File retrieval F1 1 when resolved, else 0.
			mt := &retrieval.InstanceMetrics{InstanceID: id, Language: lang, TaskCategory: in.TaskCategory, File: retrieval.Scores{F1: b01(resolved[id][run])}}
			recs = append(recs, &runrecord.Record{Key: k, Generation: true, PatchApplied: true, Test: &runrecord.TestRun{Isolation: "none"}, Verdicts: v, Retrieval: mt})
		}
	}
	return BuildHarness(HarnessInput{Manifest: m, Records: recs})
}

// "polynfi report's pass-rate-by-language chart (HTML) still draws Wilson
// bars when runs repeat (several runs of the same instances, e.g. an agent
// study with repeats / pass@k); the text tells readers to use the
// clustered interval when runs repeat, and compare already draws that."
//
// Worked by hand, three runs of each instance: Java 3/6 resolved from
// instance rates 1 and 0: the cluster bootstrap draws two instances, mean
// 0 with probability 1/4, 1/2 with 1/2, 1 with 1/4, so its 95% interval is
// 0–100% (Wilson(3, 6), which counts the six runs as independent, is
// 18.8–81.2%). Python 5/6 from instance rates 1 and 2/3: means 2/3, 5/6,
// 1 with probabilities 1/4, 1/2, 1/4: 66.7–100.0% (Wilson 43.6–97.0%).
// The pass-rate tables give that clustered interval in a column of its own,
// the chart draws it (each error bar names that cell) and its footnote says
// so. One run per instance: Wilson, in table and chart.
//
// But two instances per language are fewer than MinClusters: such a
// bootstrap has 3 distinct resamples and (with one instance) collapses to
// zero width, so the cell reads "too few instances (2)", the chart draws
// no error bar for the group (it does not fall back to Wilson, which is
// too narrow) and the footnote says why. The worked intervals above are
// checked on clusterBootstrapMean without the floor.
func TestPassRateChartClusteredWhenRunsRepeat(t *testing.T) {
	t.Parallel()
	r := repeatedRun(t, 3)
	tables := HarnessTables(r)
	var pass *Table
	for i := range tables {
		if tables[i].ID == TablePassLanguage {
			pass = &tables[i]
		}
	}
	if pass == nil {
		t.Fatal("no pass-rate-by-language table")
	}
	col := -1
	for i, h := range pass.Header {
		if h == "95% CI clustered" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("pass-rate table has no clustered interval with repeated runs: header %v", pass.Header)
	}
	want := map[string][2]string{"Java": {"18.8–81.2%", "too few instances (2)"}, "Python": {"43.6–97.0%", "too few instances (2)"}}
	for _, w := range []struct {
		xs     []float64
		lo, hi float64
	}{{[]float64{1, 1, 1, 0, 0, 0}, 0, 1}, {[]float64{1, 1, 1, 1, 1, 0}, 2.0 / 3, 1}} {
		if c := clusterBootstrapMean(w.xs, []string{"a", "a", "a", "b", "b", "b"}, 1); math.Abs(c.Lo-w.lo) > 1e-9 || math.Abs(c.Hi-w.hi) > 1e-9 {
			t.Errorf("worked interval %+v, want [%g, %g]", c, w.lo, w.hi)
		}
	}
	for _, row := range pass.Rows {
		if w := want[row[0]]; row[4] != w[0] || row[col] != w[1] {
			t.Errorf("%s: Wilson %s, clustered %s; want %s, %s", row[0], row[4], row[col], w[0], w[1])
		}
	}
	for _, tid := range []string{"pass-category", "pass-complexity"} {
		for _, tb := range tables {
			if tb.ID == tid && !strings.Contains(strings.Join(tb.Header, "|"), "95% CI clustered") {
				t.Errorf("%s: no clustered interval column with repeated runs: %v", tid, tb.Header)
			}
		}
	}
	charts := HarnessCharts(r, tables)
	var c *BarChart
	for i := range charts {
		if charts[i].ID == "chart-"+TablePassLanguage {
			c = &charts[i]
		}
	}
	if c == nil {
		t.Fatal("no pass-rate chart")
	}
	if !strings.Contains(c.Note, "cluster bootstrap") || !strings.Contains(c.Note, `"95% CI clustered"`) || strings.Contains(c.Note, "Error bars: 95% Wilson") {
		t.Errorf("chart footnote %q: want it to say the error bars are the clustered intervals", c.Note)
	}
	if !strings.Contains(c.Note, ClusterMinNote) {
		t.Errorf("chart footnote %q: want it to say why groups of fewer than %d instances have no error bar", c.Note, MinClusters)
	}
	for i, b := range c.Series[0].Bars {
		g := c.Groups[i]
		if b.CI.OK {
			t.Errorf("%s: error bar %.2f–%.2f from 2 instances, want none", g, b.CI.Lo, b.CI.Hi)
		}
		if b.CIRef != (CellRef{pass.ID, i, col}) || b.CIText != want[g][1] {
			t.Errorf("%s: error bar names cell %+v %q, want %s:%d:%d %q", g, b.CIRef, b.CIText, pass.ID, i, col, want[g][1])
		}
	}
	if !strings.Contains(strings.Join(pass.Notes, " "), ClusterMinNote) {
		t.Errorf("pass-rate table notes %q: want the minimum number of instances", pass.Notes)
	}
	// The SVG draws no error bar (the browser test reads them).
	if svg := string(c.SVG()); strings.Contains(svg, `class="errorbar"`) {
		t.Errorf("SVG draws an error bar from 2 instances:\n%s", svg)
	}
	// The headline: no clustered interval from 4 instances, and why.
	if h := strings.Join(HarnessHeadline(r), "\n"); !strings.Contains(h, "no clustered interval: too few instances (4)") || strings.Contains(h, "clustered by instance (cluster bootstrap") {
		t.Errorf("headline:\n%s\nwant no clustered interval: too few instances (4)", h)
	}

	// The retrieval chart: Java's mean file F1 is 0.50 from instance means
	// 1 and 0, so its clustered interval is [0.00, 1.00] (as above); the
	// table gives that interval, the chart draws it and says so.
	var rc *BarChart
	for i := range charts {
		if charts[i].ID == "chart-"+TableRetrievalLanguage {
			rc = &charts[i]
		}
	}
	if rc == nil {
		t.Fatal("no retrieval chart")
	}
	if !strings.Contains(rc.Note, "cluster bootstrap") {
		t.Errorf("retrieval chart footnote %q: want the cluster bootstrap named", rc.Note)
	}
	checkErrorBars(t, tables, charts)
	if b := rc.Series[0].Bars[0]; rc.Groups[0] != "Java" || b.CIText != "too few instances (2)" || b.CI.OK {
		t.Errorf("retrieval chart, %s file F1: error bar %q %+v, want none: too few instances (2)", rc.Groups[0], b.CIText, b.CI)
	}
	if !strings.Contains(rc.Note, ClusterMinNote) {
		t.Errorf("retrieval chart footnote %q: want the minimum number of instances", rc.Note)
	}

	// One run per instance: Wilson in the table and the chart.
	one := repeatedRun(t, 1)
	ot := HarnessTables(one)
	oc := HarnessCharts(one, ot)[0]
	if strings.Contains(strings.Join(ot[0].Header, "|"), "clustered") || !strings.Contains(oc.Note, "Wilson") {
		t.Errorf("single runs: header %v, note %q: want Wilson only", ot[0].Header, oc.Note)
	}
	for i, b := range oc.Series[0].Bars {
		if w := ot[0].Rows[i][4]; b.CIText != w || b.CIRef != (CellRef{ot[0].ID, i, 4}) {
			t.Errorf("single runs, %s: error bar %q %+v, want the Wilson cell %q", oc.Groups[i], b.CIText, b.CIRef, w)
		}
	}
}

// checkErrorBars checks every error bar of the charts against the table
// cell it names: the cell's text is the bar's CIText, and the drawn ends
// are the cell's two numbers to the cell's precision (a "%" cell is in
// percent, as the bars; a "[a, b]" cell in the bars' unit).
func checkErrorBars(t *testing.T, tables []Table, charts []BarChart) {
	t.Helper()
	byID := map[string]Table{}
	for _, tb := range tables {
		byID[tb.ID] = tb
	}
	num := regexp.MustCompile(`[+-]?\d+(\.\d+)?`)
	for _, c := range charts {
		for _, s := range c.Series {
			for gi, b := range s.Bars {
				if !b.OK || !b.CI.OK {
					continue
				}
				tb, ok := byID[b.CIRef.Table]
				if !ok || b.CIRef.Row >= len(tb.Rows) || b.CIRef.Col >= len(tb.Rows[b.CIRef.Row]) {
					t.Errorf("%s %s/%s: error bar names no cell (%+v)", c.ID, s.Name, c.Groups[gi], b.CIRef)
					continue
				}
				cell := tb.Rows[b.CIRef.Row][b.CIRef.Col]
				ms := num.FindAllString(cell, -1)
				if cell != b.CIText || len(ms) != 2 {
					t.Errorf("%s %s/%s: error bar says %q, its cell %q", c.ID, s.Name, c.Groups[gi], b.CIText, cell)
					continue
				}
				for i, v := range []float64{b.CI.Lo, b.CI.Hi} {
					var x float64
					fmt.Sscan(ms[i], &x)
					dec := 0
					if j := strings.Index(ms[i], "."); j >= 0 {
						dec = len(ms[i]) - j - 1
					}
					if math.Abs(x-v) > 0.5*math.Pow(10, -float64(dec))+1e-9 {
						t.Errorf("%s %s/%s: error bar end %g, its cell %q", c.ID, s.Name, c.Groups[gi], v, cell)
					}
				}
			}
		}
	}
}

// Every chart of an SWE-NFI report and of a comparison draws each error
// bar from the table cell it names, with one run per task and with
// repeated runs (where the intervals are clustered and the footnotes say
// so): Table 3's chart from the "Table 3 intervals" table, compare's from
// its "95% CI" or ColClusterCI column.
func TestNFIAndCompareErrorBarsAreTheirTableCells(t *testing.T) {
	t.Parallel()
	h := im(0, 0)
	for _, runs := range []int{1, 3} {
		var rs []nfirecord.Record
		for run := 0; run < runs; run++ {
			rs = append(rs, rec("C", "t1", "single", run, true, true, 0.30, 0, h),
				rec("C", "t2", "single", run, true, true, 0.10, 0.05, h),
				rec("C", "t3", "single", run, true, run == 0, 0.20, 0, h),
				rec("D", "t1", "single", run, true, run != 1, 0.10, 0, h),
				rec("D", "t2", "single", run, true, true, 0, 0.10, h),
				rec("D", "t3", "single", run, false, false, 0, 0, h))
		}
		rep := BuildNFI(rs)
		tables := rep.Tables()
		charts := rep.Charts(tables)
		if len(charts) != 1 || !strings.Contains(charts[0].Note, "Table 3 intervals") {
			t.Fatalf("runs %d: NFI charts %+v", runs, charts)
		}
		checkErrorBars(t, tables, charts)
		bars := 0
		for _, s := range charts[0].Series {
			for _, b := range s.Bars {
				if b.CI.OK && b.CIText != "" {
					bars++
				}
			}
		}
		if bars == 0 {
			t.Errorf("runs %d: no NFI error bar names its cell", runs)
		}
		c := Compare("C", NFICompareUnits(rs, nil, "C"), "D", NFICompareUnits(rs, nil, "D"))
		if c.RepeatedRuns != (runs > 1) {
			t.Fatalf("runs %d: repeated %v", runs, c.RepeatedRuns)
		}
		p := c.Page("compare")
		checkErrorBars(t, p.Tables, p.Charts)
		want := "Wilson"
		if runs > 1 {
			want = "cluster bootstrap"
		}
		if !strings.Contains(p.Charts[0].Note, want) || p.Charts[0].Series[0].Bars[0].CIText == "" {
			t.Errorf("runs %d: compare rate chart note %q, bar %+v: want %s intervals named by cell", runs, p.Charts[0].Note, p.Charts[0].Series[0].Bars[0], want)
		}
	}
}
