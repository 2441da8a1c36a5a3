package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/report"
)

// Tests of the defects issue #16's closing note of stop 20 left open,
// each written from the defect's description.

// unreadFixture is evalFixture's dataset of n instances with the row of
// acme__echo-1 (Java, Feature) made unreadable by an unparsable F2P list
// (its instance id, language and task category still readable) and a
// last line that is not JSON at all (nothing of it readable).
func unreadFixture(t *testing.T, n int) string {
	t.Helper()
	ds := evalFixture(t, n, "0")
	raw, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var row map[string]any
		json.Unmarshal([]byte(line), &row)
		if row["instance_id"] == "acme__echo-1" {
			row["F2P"] = "['unclosed"
			b, _ := json.Marshal(row)
			line = string(b)
		}
		out = append(out, line)
	}
	out = append(out, `{"instance_id": "acme__echo-99", "language": "Python"`) // truncated: not JSON
	if err := os.WriteFile(ds, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return ds
}

// chartDenominators sums the n=K of every group note of the chart id.
func chartDenominators(t *testing.T, charts []report.BarChart, id string) (sum int, notes []string) {
	t.Helper()
	re := regexp.MustCompile(`^n=(\d+)`)
	for _, c := range charts {
		if c.ID != id {
			continue
		}
		for _, n := range c.GroupNotes {
			m := re.FindStringSubmatch(n)
			if m == nil {
				t.Fatalf("chart %s: group note %q names no n", id, n)
			}
			k, _ := strconv.Atoi(m[1])
			sum += k
		}
		return sum, c.GroupNotes
	}
	t.Fatalf("no chart %s", id)
	return 0, nil
}

// Left open in #16: "A dataset row that cannot be read counts in the
// headline denominator but not in its language group, the retrieval n or
// the chart (trial dataset-bad.csv: headline /8, language totals 5)."
// Here 5 rows, one with a broken F2P list (its language Java
// readable) and one line that is not JSON: the headline counts 6 units
// (4 read, 2 unreadable), so must every breakdown, the pass-rate chart,
// and the retrieval tables (n beside the unreadable units), in every
// format, each unreadable row named with why.
func TestUnreadableRowCountsInEveryGroup(t *testing.T) {
	t.Parallel()
	ds := unreadFixture(t, 5)
	out := t.TempDir()
	stdout, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out)
	if code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	rep := readHarnessReport(t, out)
	x := rep.Polynfi
	total := x.Modes[x.NativeMode].Total
	if total != 6 {
		t.Fatalf("headline denominator %d, want 6 (4 instances read, 2 rows unreadable)\n%s", total, stdout)
	}
	for name, gs := range map[string][]*report.Group{"language": x.ByLanguage, "task category": x.ByCategory} {
		sum := 0
		var got []string
		for _, g := range gs {
			sum += g.Total
			got = append(got, g.Name+"="+strconv.Itoa(g.Total))
		}
		if sum != total {
			t.Errorf("by %s: group totals add up to %d (%s), the headline's denominator is %d", name, sum, strings.Join(got, ", "), total)
		}
	}
	for _, g := range x.ByLanguage {
		if g.Name == "Java" && g.Total != 2 {
			t.Errorf("Java total %d, want 2: the unreadable row of acme__echo-1 gives its language (Java) and counts there", g.Total)
		}
	}
	sum, notes := chartDenominators(t, report.HarnessCharts(&rep, report.HarnessTables(&rep)), "chart-"+report.TablePassLanguage)
	if sum != total {
		t.Errorf("pass-rate chart: group n add up to %d (%v), the headline's denominator is %d", sum, notes, total)
	}
	// The manifest names each unreadable row: its id (when readable) and
	// its language (when readable).
	b, _ := os.ReadFile(filepath.Join(out, "polynfi-run.json"))
	for _, want := range []string{`"instance_id": "acme__echo-1"`, `"language": "Java"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("manifest does not record the unreadable row's %s:\n%s", want, b)
		}
	}
	for _, format := range []string{"text", "markdown", "html"} {
		page, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK {
			t.Fatalf("report --format %s: exit %d\n%s", format, code, stderr)
		}
		for _, want := range []string{"acme__echo-1", "field F2P", "row 6", "unreadable rows"} {
			if !strings.Contains(page, want) {
				t.Errorf("report --format %s lacks %q", format, want)
			}
		}
		if format != "text" {
			continue
		}
		// The retrieval table: its "all" row's n and unreadable units
		// add up to the headline's denominator.
		if n, ok := retrievalAll(page); !ok || n != total {
			t.Errorf("text report: retrieval 'all' row accounts for %d units (ok %v), want %d:\n%s", n, ok, total, retrievalTable(page))
		}
	}
}

// retrievalAll adds the "files n", "not evaluated" and "unreadable rows"
// cells of the "all" row of the text report's retrieval table by
// language; ok is false when the table is missing.
func retrievalAll(page string) (int, bool) {
	lines := strings.Split(retrievalTable(page), "\n")
	if len(lines) < 4 {
		return 0, false
	}
	header := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(lines[1]), -1)
	var all []string
	for _, l := range lines[3:] {
		if strings.HasPrefix(l, "all ") {
			all = regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(l), -1)
		}
	}
	if len(all) != len(header) {
		return 0, false
	}
	n := 0
	for i, h := range header {
		switch h {
		case "files n", "not evaluated", "unreadable rows":
			k, _ := strconv.Atoi(all[i])
			n += k
		}
	}
	return n, true
}

// The same under --metrics-only, on a copy of the bundled sample with one
// row's FAIL_TO_PASS list broken (as the trial's dataset-bad.csv): the
// retrieval table accounts for all 8 rows.
func TestUnreadableRowInMetricsOnlyRetrieval(t *testing.T) {
	t.Parallel()
	f, err := os.Open("../../examples/polybench/dataset.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(rows) != 9 {
		t.Fatalf("sample: %d rows, %v", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	rows[5][col["F2P"]] = "['unclosed"
	lang := rows[5][col["language"]]
	ds := filepath.Join(t.TempDir(), "dataset-bad.csv")
	fh, _ := os.Create(ds)
	csv.NewWriter(fh).WriteAll(rows)
	fh.Close()
	repos, _ := filepath.Abs("../../examples/polybench/repos")
	for _, format := range []string{"text", "json"} {
		stdout, stderr, code := runCLI(t, "eval", "--metrics-only", "--format", format, "--dataset", ds, "--predictions", "gold", "--repos-dir", repos)
		if code != ExitOK {
			t.Fatalf("eval --metrics-only: exit %d\n%s", code, stderr)
		}
		if format == "text" {
			if n, ok := retrievalAll(stdout); !ok || n != 8 {
				t.Errorf("retrieval 'all' row accounts for %d units (ok %v), want the sample's 8 rows:\n%s", n, ok, retrievalTable(stdout))
			}
			continue
		}
		var mo map[string]any
		if err := json.Unmarshal([]byte(stdout), &mo); err != nil {
			t.Fatal(err)
		}
		unread, _ := mo["unread_rows"].([]any)
		if len(unread) != 1 || unread[0].(map[string]any)["language"] != lang {
			t.Errorf("json unread_rows %v, want the broken row with its language %s", mo["unread_rows"], lang)
		}
	}
}

// Left open in #16: "a duplicate dataset row is listed under 'could not
// be read'." It has its own heading in every format, and JSON tells it
// apart from the unreadable rows.
func TestDuplicateRowHasItsOwnHeading(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 2, "0")
	raw, _ := os.ReadFile(ds)
	first, second, _ := strings.Cut(string(raw), "\n")
	// Row 3 repeats acme__echo-0; row 4 is a copy of acme__echo-1 with a
	// broken F2P list: that instance is read from row 2, so row 4 is a
	// duplicate too, not a third unit.
	var row map[string]any
	json.Unmarshal([]byte(strings.TrimSpace(second)), &row)
	row["F2P"] = "['unclosed"
	broken, _ := json.Marshal(row)
	os.WriteFile(ds, []byte(string(raw)+first+"\n"+string(broken)+"\n"), 0o644)
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	for _, format := range []string{"text", "markdown", "html"} {
		page, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK {
			t.Fatalf("report --format %s: exit %d\n%s", format, code, stderr)
		}
		if strings.Contains(page, "could not be read") || strings.Contains(page, "dataset input errors") {
			t.Errorf("report --format %s lists the duplicate row as a row that could not be read / an input error:\n%s", format, page)
		}
		if !strings.Contains(page, "duplicate dataset rows (first kept, counted once") || !strings.Contains(page, "duplicate of row 1") {
			t.Errorf("report --format %s: no heading of its own naming the duplicate row:\n%s", format, page)
		}
	}
	stdout, _, _ := runCLI(t, "report", "--format", "json", out)
	var j struct {
		Polynfi struct {
			UnreadableRows int              `json:"unreadable_rows"`
			InputErrors    []string         `json:"input_errors"`
			Duplicates     []map[string]any `json:"duplicate_rows"`
			Modes          map[string]struct {
				Total int `json:"total"`
			} `json:"modes"`
		} `json:"polynfi"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil {
		t.Fatal(err)
	}
	x := j.Polynfi
	if x.UnreadableRows != 0 || len(x.InputErrors) != 0 || len(x.Duplicates) != 2 ||
		x.Duplicates[0]["kind"] != "duplicate" || x.Duplicates[0]["instance_id"] != "acme__echo-0" || x.Duplicates[0]["row"] != 3.0 ||
		x.Duplicates[1]["kind"] != "duplicate" || x.Duplicates[1]["instance_id"] != "acme__echo-1" || x.Duplicates[1]["row"] != 4.0 {
		t.Errorf("json: unreadable_rows %d, input_errors %v, duplicate_rows %v; want 0, none, and rows 3 (acme__echo-0) and 4 (acme__echo-1) of kind duplicate",
			x.UnreadableRows, x.InputErrors, x.Duplicates)
	}
	if n := x.Modes["polybench"].Total; n != 2 {
		t.Errorf("denominator %d, want the 2 instances, each counted once", n)
	}
}

// Left open in #16 (the exit-3 message): "counts predictions excluded by
// --instance-ids as predictions for instances not in the dataset (0 ...
// not in the dataset wrongly)". With --instance-ids acme__echo-0 and
// predictions for acme__echo-1 and -2 only (and one for an id the dataset
// does not have), the message names the 2 filtered-out predictions apart,
// the unknown one as not in the dataset, identically in a full run and
// under --metrics-only; no prediction of the dataset is called "not in
// the dataset" on stderr.
func TestEvalExit3NamesPredictionsOutsideInstanceIDs(t *testing.T) {
	t.Parallel()
	ds := evalFixture(t, 3, "0")
	patch := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
	preds := jsonLines(t, "p.jsonl",
		map[string]any{"instance_id": "acme__echo-1", "model_name_or_path": "m", "model_patch": patch},
		map[string]any{"instance_id": "acme__echo-2", "model_name_or_path": "m", "model_patch": patch},
		map[string]any{"instance_id": "nope__nope-1", "model_name_or_path": "m", "model_patch": patch})
	var msgs []string
	for _, extra := range [][]string{{"--out", t.TempDir()}, {"--metrics-only"}} {
		args := append([]string{"eval", "--dataset", ds, "--predictions", preds, "--instance-ids", "acme__echo-0"}, extra...)
		msg, stderr := exit3Message(t, args...)
		if !strings.Contains(msg, "2 predictions for instances outside --instance-ids") || !strings.Contains(msg, "1 predictions for instances not in the dataset") {
			t.Errorf("%v: want 2 predictions outside --instance-ids and 1 not in the dataset named apart: %s", extra, msg)
		}
		for _, id := range []string{"acme__echo-1", "acme__echo-2"} {
			if strings.Contains(stderr, id+`" is not in the dataset`) {
				t.Errorf("%v: stderr calls %s, an instance of the dataset, not in the dataset:\n%s", extra, id, stderr)
			}
		}
		msgs = append(msgs, msg)
	}
	if msgs[0] != msgs[1] {
		t.Errorf("the exit-3 message differs by mode:\nfull:         %s\nmetrics-only: %s", msgs[0], msgs[1])
	}
}

// The same for the SWE-NFI suite: predictions for tasks outside
// --instance-ids are named apart from those for tasks the dataset does
// not have.
func TestNFIEvalExit3NamesPredictionsOutsideInstanceIDs(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../examples/nfi/tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(b), "\n", 3)
	var ids []string
	for _, l := range lines[:2] {
		var row struct {
			InstanceID string `json:"instance_id"`
		}
		json.Unmarshal([]byte(l), &row)
		ids = append(ids, row.InstanceID)
	}
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks.jsonl")
	os.WriteFile(tasks, []byte(lines[0]+"\n"+lines[1]+"\n"), 0o644)
	preds := jsonLines(t, "p.jsonl",
		map[string]any{"instance_id": ids[1], "model_name_or_path": "m", "files": map[string]any{}},
		map[string]any{"instance_id": "nope", "model_name_or_path": "m", "files": map[string]any{}})
	_, stderr, code := runCLI(t, "eval", "--dataset", tasks, "--predictions", preds, "--instance-ids", ids[0], "--out", filepath.Join(dir, "out"))
	if code != ExitError || !strings.Contains(stderr, "nothing could be evaluated") {
		t.Fatalf("exit %d, want 3\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "1 predictions for tasks outside --instance-ids") || !strings.Contains(stderr, "1 predictions for tasks not in the dataset") {
		t.Errorf("want 1 prediction outside --instance-ids and 1 not in the dataset named apart:\n%s", stderr)
	}
}

// The same for an SWE-NFI task file: a task row repeated is a duplicate
// under its own heading, not a task row that could not be read.
func TestNFIDuplicateTaskRowHasItsOwnHeading(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../examples/nfi/tasks.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	tasks := filepath.Join(t.TempDir(), "tasks.jsonl")
	os.WriteFile(tasks, []byte(first+"\n"+first+"\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := runCLI(t, "eval", "--dataset", tasks, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	for _, format := range []string{"text", "markdown", "html"} {
		page, stderr, code := runCLI(t, "report", "--format", format, out)
		if code != ExitOK {
			t.Fatalf("report --format %s: exit %d\n%s", format, code, stderr)
		}
		if strings.Contains(page, "could not be read") || !strings.Contains(page, "duplicate dataset rows (first kept, counted once") ||
			!strings.Contains(page, "duplicate of row 1") {
			t.Errorf("report --format %s: the duplicate task row is not under a heading of its own:\n%s", format, page)
		}
	}
	stdout, _, _ := runCLI(t, "report", "--format", "json", out)
	var j struct {
		UnreadableRows int              `json:"unreadable_rows"`
		Duplicates     []map[string]any `json:"duplicate_rows"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil || j.UnreadableRows != 0 || len(j.Duplicates) != 1 || j.Duplicates[0]["kind"] != "duplicate" {
		t.Errorf("json: %v, unreadable_rows %d, duplicate_rows %v; want 0 and one row of kind duplicate", err, j.UnreadableRows, j.Duplicates)
	}
}

// Trial of #16: a bundle of a run with unreadable dataset rows wrote
// pass_rate 2/10 in metadata.yaml but total_instances 8 in
// polynfi/result.json and polynfi/metadata.json. One denominator
// throughout (the report's: unreadable rows count unresolved), the
// unread rows named in result.json.
func TestBundleOneDenominatorWithUnreadableRows(t *testing.T) {
	t.Parallel()
	ds := unreadFixture(t, 3)
	out := t.TempDir()
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", "gold", "--out", out); code != ExitOK {
		t.Fatalf("eval: exit %d\n%s", code, stderr)
	}
	bundle := filepath.Join(t.TempDir(), "b")
	if _, stderr, code := runCLI(t, "report", "--bundle", bundle, out); code != ExitOK {
		t.Fatalf("report --bundle: exit %d\n%s", code, stderr)
	}
	y, _ := os.ReadFile(filepath.Join(bundle, "metadata.yaml"))
	m := regexp.MustCompile(`pass_rate: .*\((\d+)/(\d+)\)`).FindStringSubmatch(string(y))
	if m == nil {
		t.Fatalf("metadata.yaml has no pass_rate (R/N):\n%s", y)
	}
	want, _ := strconv.Atoi(m[2])
	if want != 4 {
		t.Fatalf("pass_rate denominator %d, want 4 (2 read, 2 unreadable rows)", want)
	}
	var res struct {
		TotalInstances  int              `json:"total_instances"`
		TotalResolved   int              `json:"total_resolved"`
		TotalUnresolved int              `json:"total_unresolved"`
		Unread          []map[string]any `json:"polynfi_unread_rows"`
	}
	b, _ := os.ReadFile(filepath.Join(bundle, "polynfi", "result.json"))
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.TotalInstances != want || res.TotalResolved+res.TotalUnresolved != want || len(res.Unread) != 2 {
		t.Errorf("result.json: total_instances %d, resolved %d + unresolved %d, %d unread rows named; metadata.yaml's pass_rate is over %d with 2 unread rows:\n%s",
			res.TotalInstances, res.TotalResolved, res.TotalUnresolved, len(res.Unread), want, b)
	}
	var meta map[string]any
	b, _ = os.ReadFile(filepath.Join(bundle, "polynfi", "metadata.json"))
	json.Unmarshal(b, &meta)
	if meta["total_instances"] != float64(want) || meta["total_polybench"] != float64(want) {
		t.Errorf("metadata.json: total_instances %v, total_polybench %v, want both %d:\n%s", meta["total_instances"], meta["total_polybench"], want, b)
	}
}
