package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/polynfi/polynfi/internal/citest"
)

// chromiumPath finds Debian's chromium; under CI=true its absence fails
// the test (.ci/chromium.sh installs it), elsewhere it skips.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	citest.Missing(t, "chromium is not installed (.ci/chromium.sh installs it)")
	return ""
}

// chartCheck is what the page script reports for one page.
type chartCheck struct {
	Bars      int `json:"bars"`
	ErrorBars int `json:"errorbars"`
	// CIColumns maps a chart's id to the headers of the table columns its
	// error bars are drawn from; Captions a chart's id to its footnote.
	CIColumns  map[string][]string `json:"ci_columns"`
	Captions   map[string]string   `json:"captions"`
	Absent     int                 `json:"absent"`
	Charts     int                 `json:"charts"`
	Texts      int                 `json:"texts"`
	Cells      int                 `json:"cells"`
	Mismatches []string            `json:"mismatches"`
	Clipped    []string            `json:"clipped"`
	Small      []string            `json:"small"`
	MinFontPx  float64             `json:"min_font_px"`
	Viewport   int                 `json:"viewport"`
}

// pageScript checks, in the browser, every bar and every "–" drawn in a
// chart against the table cell it names (data-ref "table:row:col"): the
// bar's label is the cell's text, its number is the cell's number to the
// cell's precision, and its height is the number times the chart's scale;
// an absent value is "–" in its cell. Every error bar names the table
// cell of its interval (data-ci-ref): its label (data-ci) is the cell's
// text, its ends (data-ci-lo, data-ci-hi) are the cell's two numbers to
// the cell's precision, and its line is drawn at those values (the
// chart's zero line and scale). Every chart text must render at 11
// px or more (its font size times the SVG's on-screen scale). It then
// looks for clipped text:
// every <text> of a chart must lie inside its <svg>'s viewBox and the
// chart inside the window's width, no table cell, caption or paragraph
// may hide content (scrollWidth > clientWidth), and nothing may need
// horizontal scrolling at 1280 px: the page is no wider than the window
// and every table (the per-instance drill-downs included) ends inside it.
const pageScript = `(() => {
  const out = {bars: 0, errorbars: 0, ci_columns: {}, captions: {}, absent: 0, charts: 0, texts: 0, cells: 0, mismatches: [], clipped: [], small: [], min_font_px: 1e9, viewport: window.innerWidth};
  const cell = (ref) => {
    const [id, row, col] = ref.split(':');
    const t = document.getElementById(id);
    if (!t) return null;
    const tr = t.tBodies[0].rows[+row];
    if (!tr) return null;
    const td = tr.cells[+col];
    return td ? td.textContent.trim() : null;
  };
  const numberOf = (s) => {
    const m = s.replace('\u2212', '-').match(/^[+-]?\d+(\.\d+)?/);
    return m ? {v: parseFloat(m[0]), dec: m[1] ? m[1].length - 1 : 0} : null;
  };
  for (const svg of document.querySelectorAll('svg.chart')) {
    out.charts++;
    const scale = parseFloat(svg.dataset.scale);
    const vb = svg.viewBox.baseVal;
    for (const r of svg.querySelectorAll('rect.bar')) {
      out.bars++;
      const c = cell(r.dataset.ref);
      const where = svg.id + ' ' + r.dataset.series + '/' + r.dataset.group;
      if (c === null) { out.mismatches.push(where + ': no cell ' + r.dataset.ref); continue; }
      if (c !== r.dataset.value) out.mismatches.push(where + ': bar says ' + r.dataset.value + ', table ' + c);
      const n = numberOf(c);
      const drawn = parseFloat(r.dataset.number);
      if (!n) { out.mismatches.push(where + ': cell ' + c + ' has no number'); continue; }
      if (Math.abs(n.v - drawn) > 0.5 * Math.pow(10, -n.dec) + 1e-9) out.mismatches.push(where + ': drawn ' + drawn + ', table ' + c);
      const h = r.height.baseVal.value;
      if (Math.abs(h - Math.abs(drawn) * scale) > 0.05) out.mismatches.push(where + ': height ' + h + ' for ' + drawn);
    }
    const fig = svg.closest('figure');
    const cap = fig && fig.querySelector('figcaption');
    out.captions[svg.id] = cap ? cap.textContent.trim() : '';
    const zero = parseFloat(svg.dataset.zero);
    for (const g of svg.querySelectorAll('g.errorbar')) {
      out.errorbars++;
      const ref = g.dataset.ciRef || '';
      const where = svg.id + ' error bar ' + ref;
      const c = ref ? cell(ref) : null;
      if (c === null) { out.mismatches.push(svg.id + ': an error bar names no table cell (' + ref + ')'); continue; }
      const [id, , col] = ref.split(':');
      const th = document.getElementById(id).tHead.rows[0].cells[+col];
      (out.ci_columns[svg.id] = out.ci_columns[svg.id] || []).push(th ? th.textContent.trim() : '?');
      if (c !== g.dataset.ci) out.mismatches.push(where + ': error bar says ' + g.dataset.ci + ', table ' + c);
      const ms = c.replace(/\u2212/g, '-').match(/[+-]?\d+(\.\d+)?/g) || [];
      if (ms.length !== 2) { out.mismatches.push(where + ': cell ' + c + ' is not an interval'); continue; }
      const line = g.querySelector('line');
      const drawn = [parseFloat(g.dataset.ciLo), parseFloat(g.dataset.ciHi)];
      const ys = [line.y1.baseVal.value, line.y2.baseVal.value];
      for (let i = 0; i < 2; i++) {
        const dec = ms[i].includes('.') ? ms[i].split('.')[1].length : 0;
        if (Math.abs(parseFloat(ms[i]) - drawn[i]) > 0.5 * Math.pow(10, -dec) + 1e-9) out.mismatches.push(where + ': end ' + drawn[i] + ', table ' + c);
        if (Math.abs((zero - ys[i]) / scale - drawn[i]) * scale > 0.05) out.mismatches.push(where + ': end drawn at ' + ys[i] + ' px for ' + drawn[i]);
      }
    }
    for (const a of svg.querySelectorAll('text.absent')) {
      out.absent++;
      const c = cell(a.dataset.ref);
      if (c !== '\u2013') out.mismatches.push(svg.id + ' ' + a.dataset.series + '/' + a.dataset.group + ': drawn absent, table ' + c);
    }
    // Rendered size: the text's font size in SVG units times the SVG's
    // on-screen scale (its rendered width over its viewBox width).
    const onScreen = svg.getBoundingClientRect().width / vb.width;
    for (const t of svg.querySelectorAll('text')) {
      out.texts++;
      const px = parseFloat(getComputedStyle(t).fontSize) * onScreen;
      out.min_font_px = Math.min(out.min_font_px, px);
      if (px < 11) out.small.push(svg.id + ' text "' + t.textContent + '" renders at ' + px.toFixed(1) + ' px');
      const b = t.getBBox();
      if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
        out.clipped.push(svg.id + ' text "' + t.textContent + '" at ' + [b.x, b.y, b.width, b.height].map(Math.round) + ' outside ' + [vb.width, vb.height]);
    }
    const sb = svg.getBoundingClientRect();
    if (sb.right > window.innerWidth + 0.5) out.clipped.push(svg.id + ' is ' + Math.round(sb.width) + ' px wide, wider than the window');
  }
  // No horizontal scrolling at the window's width: the page, and every
  // table (the per-instance tables with their links) fits.
  const docEl = document.documentElement;
  if (docEl.scrollWidth > docEl.clientWidth)
    out.clipped.push('the page is ' + docEl.scrollWidth + ' px wide, wider than the window (' + docEl.clientWidth + ' px): horizontal scroll');
  for (const t of document.querySelectorAll('table')) {
    const b = t.getBoundingClientRect();
    if (b.right > docEl.clientWidth + 0.5) out.clipped.push('table ' + (t.id || t.caption.textContent.slice(0, 40)) + ' ends at ' + Math.round(b.right) + ' px, past the window (' + docEl.clientWidth + ' px)');
  }
  for (const el of document.querySelectorAll('td, th, caption, p, li, h1')) {
    out.cells++;
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflow !== 'visible')
      out.clipped.push(el.tagName + ' "' + el.textContent.slice(0, 40) + '" hides content');
  }
  return out;
})()`

// TestHTMLReportsInBrowser opens the HTML reports of the bundled runs in
// headless Chromium: the SWE-PolyBench sample (gold), the SWE-NFI sample
// (two agents), an interrupted run, a SWE-bench-schema run (no language
// column), a comparison, a run directory holding two models (a section
// each) and a report over two run directories (one page). Every number drawn in a chart must equal the
// number in its table, no text may be clipped, and a screenshot of each
// page is written (to $POLYNFI_SCREENSHOTS when set).
func TestHTMLReportsInBrowser(t *testing.T) {
	t.Parallel()
	chrome := chromiumPath(t)
	if testing.Short() {
		t.Skip("evaluates the bundled samples (-short)")
	}
	pages := map[string]string{}
	render := func(name string, args ...string) {
		stdout, stderr, code := runCLI(t, args...)
		if code != ExitOK {
			t.Fatalf("%s: %v: exit %d\n%s", name, args, code, stderr)
		}
		p := filepath.Join(t.TempDir(), name+".html")
		if err := os.WriteFile(p, []byte(stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		pages[name] = p
	}
	// SWE-PolyBench sample, gold.
	poly := sampleEval(t, "polybench-gold", "--dataset", "../../examples/polybench/dataset.csv", "--predictions", "gold", "--workers", "2")
	render("polybench", "report", "--format", "html", poly)
	// SWE-NFI sample and the comparison of its two agents.
	nfiRun := nfiSampleRun(t)
	render("nfi", "report", "--format", "html", nfiRun)
	render("compare", "compare", "--format", "html", nfiRun, nfiRun, "--model-a", "agent-alpha", "--model-b", "agent-beta")
	// An interrupted run.
	bin := buildPolynfi(t)
	ds := evalFixture(t, 6, "0.6")
	intr := filepath.Join(t.TempDir(), "interrupted")
	if code, stderr := startUntil(t, bin, intr, []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", intr}, 1, syscall.SIGINT); code != ExitInterrupted {
		t.Fatalf("interrupt: exit %d\n%s", code, stderr)
	}
	render("interrupted", "report", "--format", "html", intr)
	// A SWE-bench-schema run: FAIL_TO_PASS/PASS_TO_PASS, no language column.
	swe := sweBenchSchemaRun(t)
	render("swebench", "report", "--format", "html", swe)
	// A run directory holding two models (a section each) and a report
	// over two run directories (one page, a section each): their table
	// ids are made unique per section, and every bar must still find its
	// cell.
	two := filepath.Join(t.TempDir(), "two-models")
	tds := evalFixture(t, 4, "0")
	for _, preds := range []string{"gold", wrongEchoPredictions(t, 4)} {
		if _, stderr, code := runCLI(t, "eval", "--dataset", tds, "--predictions", preds, "--out", two); code != ExitOK {
			t.Fatalf("two models: eval %s: exit %d\n%s", preds, code, stderr)
		}
	}
	render("twomodels", "report", "--format", "html", two)
	render("tworuns", "report", "--format", "html", poly, swe)
	// Repeated runs (an agent study with repeats): three runs of each of
	// four instances; the charts must draw the clustered intervals their
	// tables give.
	rep := filepath.Join(t.TempDir(), "repeated")
	rds := evalFixture(t, 4, "0")
	if _, stderr, code := runCLI(t, "eval", "--dataset", rds, "--predictions", repeatedRunsPredictions(t), "--out", rep); code != ExitOK {
		t.Fatalf("repeated runs: eval: exit %d\n%s", code, stderr)
	}
	render("repeated", "report", "--format", "html", rep)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx)
	defer cancelB()
	ctx, cancel := context.WithTimeout(bctx, 3*time.Minute)
	defer cancel()
	shots := os.Getenv("POLYNFI_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	wantCharts := map[string]int{"polybench": 2, "nfi": 1, "compare": 2, "interrupted": 1, "swebench": 1, "twomodels": 4, "tworuns": 3, "repeated": 2}
	checks := map[string]chartCheck{}
	for _, name := range []string{"polybench", "nfi", "compare", "interrupted", "swebench", "twomodels", "tworuns", "repeated"} {
		if _, err := chromedp.Run(ctx, chromedp.Navigate("file://"+pages[name])); err != nil {
			t.Fatalf("%s: navigate: %v", name, err)
		}
		if _, err := chromedp.Run(ctx, chromedp.WaitReady("body")); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(`+pageScript+`)`))
		if err != nil {
			t.Fatalf("%s: page script: %v", name, err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("%s: screenshot: %v", name, err)
		}
		var c chartCheck
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
			t.Fatalf("%s: %v: %s", name, err, raw)
		}
		checks[name] = c
		t.Logf("%s: %d charts, %d bars, %d error bars, %d absent, %d chart texts, %d cells checked", name, c.Charts, c.Bars, c.ErrorBars, c.Absent, c.Texts, c.Cells)
		if c.Charts < wantCharts[name] || c.Bars == 0 {
			t.Errorf("%s: %d charts with %d bars, want at least %d charts", name, c.Charts, c.Bars, wantCharts[name])
		}
		for _, m := range c.Mismatches {
			t.Errorf("%s: chart and table disagree: %s", name, m)
		}
		for _, m := range c.Clipped {
			t.Errorf("%s: clipped: %s", name, m)
		}
		// Chart text must be readable at the size the browser shows it.
		t.Logf("%s: smallest chart text %.1f px", name, c.MinFontPx)
		for _, m := range c.Small {
			t.Errorf("%s: chart text below 11 px: %s", name, m)
		}
		out := filepath.Join(shots, name+".png")
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Repeated runs (the NFI sample's three runs per task, the repeated
	// harness run): the resolved-rate charts draw the clustered interval
	// column, and say so; with one run per instance, the Wilson column.
	// The repeated harness run has four instances (two per language), fewer
	// than report.MinClusters: no clustered interval, so no error bar (not
	// a zero-width one, nor Wilson's), and the footnote says why.
	for _, tc := range []struct {
		page, chart, column, caption string
		none                         bool
	}{
		{"repeated", "chart-pass-language", "95% CI clustered", "needs at least 5 instances", true},
		{"repeated", "chart-retrieval-language", "file F1 95% CI", "needs at least 5 instances", true},
		{"compare", "chart-compare-rates", "95% CI clustered", "cluster bootstrap", false},
		{"compare", "chart-compare-aspects", "95% CI clustered", "cluster bootstrap", false},
		{"nfi", "chart-nfi-table3", "", "Table 3 intervals", false},
		{"polybench", "chart-pass-language", "95% CI", "Wilson", false},
	} {
		c := checks[tc.page]
		cols := c.CIColumns[tc.chart]
		if tc.none && len(cols) > 0 {
			t.Errorf("%s %s: error bars drawn from %v, want none (too few instances)", tc.page, tc.chart, cols)
		}
		if len(cols) == 0 && !tc.none {
			t.Errorf("%s %s: no error bar drawn", tc.page, tc.chart)
		}
		for _, h := range cols {
			if tc.column != "" && h != tc.column && !(tc.chart == "chart-retrieval-language" && h == "node F1 95% CI") {
				t.Errorf("%s %s: an error bar is drawn from column %q, want %q", tc.page, tc.chart, h, tc.column)
			}
		}
		if !strings.Contains(c.Captions[tc.chart], tc.caption) {
			t.Errorf("%s %s: footnote %q does not say %q", tc.page, tc.chart, c.Captions[tc.chart], tc.caption)
		}
	}
	// The interrupted page says so.
	b, _ := os.ReadFile(pages["interrupted"])
	if !strings.Contains(string(b), "not evaluated, re-run to resume") {
		t.Error("the interrupted run's page has no notice")
	}
}

// sweBenchSchemaRun evaluates a two-instance dataset in SWE-bench's field
// names without a language column; one prediction resolves, one is wrong.
func sweBenchSchemaRun(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repos", "acme__echo")
	os.MkdirAll(repo, 0o755)
	sh(t, repo, "git", "init", "--quiet", "--initial-branch=main")
	os.WriteFile(filepath.Join(repo, "a.py"), []byte("def f():\n    return 1\n"), 0o644)
	sh(t, repo, "git", "add", "a.py")
	sh(t, repo, "git", "commit", "--quiet", "-m", "base")
	base := sh(t, repo, "git", "rev-parse", "HEAD")
	gold := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n"
	var rows []string
	for i := 0; i < 2; i++ {
		row := map[string]any{"instance_id": fmt.Sprintf("acme__echo-%d", i), "repo": "acme/echo", "base_commit": base, "patch": gold, "test_patch": "",
			"test_command": `if grep -q "return 2" a.py; then s=PASSED; else s=FAILED; fi; echo "==== test session starts ===="; echo "t.py::test_f $s"`,
			"FAIL_TO_PASS": `["t.py::test_f"]`, "PASS_TO_PASS": `[]`}
		line, _ := json.Marshal(row)
		rows = append(rows, string(line))
	}
	ds := filepath.Join(dir, "dataset.jsonl")
	os.WriteFile(ds, []byte(strings.Join(rows, "\n")+"\n"), 0o644)
	wrong := "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 3\n"
	p1, _ := json.Marshal(map[string]string{"instance_id": "acme__echo-0", "model_name_or_path": "m", "model_patch": gold})
	p2, _ := json.Marshal(map[string]string{"instance_id": "acme__echo-1", "model_name_or_path": "m", "model_patch": wrong})
	preds := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(preds, []byte(string(p1)+"\n"+string(p2)+"\n"), 0o644)
	out := filepath.Join(dir, "out")
	if _, stderr, code := runCLI(t, "eval", "--dataset", ds, "--predictions", preds, "--out", out); code != ExitOK {
		t.Fatalf("swebench-schema eval: exit %d\n%s", code, stderr)
	}
	return out
}

// repeatedRunsPredictions writes predictions of one agent for the four
// instances of evalFixture(t, 4, ...), three runs each: acme__echo-0
// (Python) and -2 (Python) resolved in every run, -1 (Java) in none, -3
// (Java) in runs 0 and 1 (a wrong patch otherwise).
func repeatedRunsPredictions(t *testing.T) string {
	t.Helper()
	good := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"
	wrong := "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+three\n"
	resolved := [][]bool{{true, true, true}, {false, false, false}, {true, true, true}, {true, true, false}}
	var b strings.Builder
	for i, runs := range resolved {
		for run, ok := range runs {
			patch := wrong
			if ok {
				patch = good
			}
			line, _ := json.Marshal(map[string]any{"instance_id": fmt.Sprintf("acme__echo-%d", i), "model_name_or_path": "agent", "run": run, "model_patch": patch})
			b.Write(append(line, '\n'))
		}
	}
	p := filepath.Join(t.TempDir(), "repeated.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
