package metrics

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/polynfi/polynfi/internal/citest"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax"
)

// The radon agreement tests run the real radon (the oracle named by the
// catalog for LOG-T01 and LOG-T06) over an even spread of the standard
// library and compare it with this package.

const radonSampleSize = 320

// radonBlock is one block of `radon cc -j` output.
type radonBlock struct {
	Type       string       `json:"type"`
	Name       string       `json:"name"`
	Classname  string       `json:"classname"`
	Lineno     int          `json:"lineno"`
	Endline    int          `json:"endline"`
	ColOffset  int          `json:"col_offset"`
	Complexity int          `json:"complexity"`
	Rank       string       `json:"rank"`
	Closures   []radonBlock `json:"closures"`
	Methods    []radonBlock `json:"methods"`
}

func requireRadon(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("radon"); err != nil {
		citest.Missing(t, "radon is not installed (pip install radon==6.0.1); the radon agreement test needs it")
	}
}

// runRadon runs `radon <sub> -j files...` and decodes its JSON object into
// one raw message per path.
func runRadon(sub string, files []string) (map[string]json.RawMessage, error) {
	args := append([]string{sub, "-j"}, files...)
	cmd := exec.Command("radon", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("radon %s: %w\n%s", sub, err, stderr.String())
	}
	res := map[string]json.RawMessage{}
	if err := json.Unmarshal(out, &res); err != nil {
		return nil, fmt.Errorf("radon %s output: %w", sub, err)
	}
	return res, nil
}

// radonRun is the oracle's output over the sample, computed once per test
// binary: radon's raw analysis is slow, so the four commands run in parallel.
type radonRun struct {
	files []string
	trees map[string]*syntax.Tree
	out   map[string]map[string]json.RawMessage // by subcommand, then path
	err   error
}

var (
	radonOnce sync.Once
	radonRes  radonRun
)

func radonOracle(t *testing.T) *radonRun {
	t.Helper()
	if testing.Short() {
		t.Skip("runs radon on a sample of the installed Python library (minutes on 2 cores)")
	}
	requireRadon(t)
	radonOnce.Do(func() {
		radonRes.files, radonRes.trees = parsedSample(t, radonSampleSize)
		radonRes.out = map[string]map[string]json.RawMessage{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for _, sub := range []string{"cc", "raw", "mi", "hal"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m, err := runRadon(sub, radonRes.files)
				mu.Lock()
				defer mu.Unlock()
				radonRes.out[sub] = m
				radonRes.err = errors.Join(radonRes.err, err)
			}()
		}
		wg.Wait()
	})
	if radonRes.err != nil {
		t.Fatal(radonRes.err)
	}
	return &radonRes
}

func isRadonError(m json.RawMessage) bool {
	var e struct {
		Error string `json:"error"`
	}
	return json.Unmarshal(m, &e) == nil && e.Error != ""
}

// parsedSample parses the stdlib sample; files tree-sitter cannot parse
// cleanly are dropped (radon cannot parse most of them either).
func parsedSample(t testing.TB, n int) (files []string, trees map[string]*syntax.Tree) {
	t.Helper()
	trees = map[string]*syntax.Tree{}
	p := syntax.NewParser()
	defer p.Close()
	for _, f := range corpus.StdlibSample(t, n) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := p.Parse(syntax.Python, src)
		if err != nil || tr.HasError() {
			continue
		}
		files = append(files, f)
		trees[f] = tr
	}
	return files, trees
}

func flattenRadon(bs []radonBlock, prefix string, out map[string]radonBlock) {
	for _, b := range bs {
		key := fmt.Sprintf("%s%s.%s:%d", prefix, b.Classname, b.Name, b.Lineno)
		out[key] = b
		flattenRadon(b.Methods, "", out)
		flattenRadon(b.Closures, key+">", out)
	}
}

func flattenOurs(bs []Block, prefix string, out map[string]Block) {
	for _, b := range bs {
		key := fmt.Sprintf("%s%s.%s:%d", prefix, b.Classname, b.Name, b.Lineno)
		out[key] = b
		flattenOurs(b.Methods, "", out)
		flattenOurs(b.Closures, key+">", out)
	}
}

func TestRadonCyclomaticComplexity(t *testing.T) {
	o := radonOracle(t)
	files, trees, res := o.files, o.trees, o.out["cc"]
	var total, equal, endEqual, missing, extra int
	var diffs []string
	compared := 0
	for _, f := range files {
		raw, ok := res[f]
		if !ok {
			// radon omits files without blocks
			raw = json.RawMessage("[]")
		}
		if isRadonError(raw) {
			continue
		}
		compared++
		var rb []radonBlock
		if err := json.Unmarshal(raw, &rb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want := map[string]radonBlock{}
		flattenRadon(rb, "", want)
		cc := CyclomaticComplexity(trees[f])
		got := map[string]Block{}
		flattenOurs(cc.Blocks(), "", got)
		for k, w := range want {
			total++
			g, ok := got[k]
			if !ok {
				missing++
				diffs = append(diffs, fmt.Sprintf("%s: %s missing (radon %d)", f, k, w.Complexity))
				continue
			}
			if g.Complexity == w.Complexity && g.Type == w.Type && g.ColOffset == w.ColOffset && g.Rank() == w.Rank {
				equal++
			} else {
				diffs = append(diffs, fmt.Sprintf("%s: %s complexity %d, radon %d", f, k, g.Complexity, w.Complexity))
			}
			if g.Endline == w.Endline {
				endEqual++
			} else {
				diffs = append(diffs, fmt.Sprintf("%s: %s endline %d, radon %d", f, k, g.Endline, w.Endline))
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				extra++
				diffs = append(diffs, fmt.Sprintf("%s: %s not reported by radon", f, k))
			}
		}
	}
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Log(d)
	}
	if total == 0 {
		t.Fatal("radon reported no blocks")
	}
	agree := float64(equal) / float64(total)
	t.Logf("%d files, %d radon blocks: complexity equal for %d (%.2f%%), endline equal for %d (%.2f%%); %d missing, %d extra",
		compared, total, equal, 100*agree, endEqual, 100*float64(endEqual)/float64(total), missing, extra)
	if compared < 300 {
		t.Errorf("compared %d files, want at least 300", compared)
	}
	if agree < 0.99 {
		t.Errorf("complexity agrees with radon for %.2f%% of blocks, want ≥ 99%%", 100*agree)
	}
	if e := float64(endEqual) / float64(total); e < 0.99 {
		t.Errorf("endline agrees with radon for %.2f%% of blocks, want ≥ 99%%", 100*e)
	}
}

func TestRadonRaw(t *testing.T) {
	o := radonOracle(t)
	files, trees, res := o.files, o.trees, o.out["raw"]
	var compared, sloc, lloc, all int
	for _, f := range files {
		m, ok := res[f]
		if !ok || isRadonError(m) {
			continue
		}
		var want Raw
		if err := json.Unmarshal(m, &want); err != nil {
			t.Fatal(err)
		}
		compared++
		got, err := RawMetrics(trees[f].Source)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if got.SLOC == want.SLOC {
			sloc++
		}
		if got.LLOC == want.LLOC {
			lloc++
		}
		if got == want {
			all++
		} else {
			t.Logf("%s: got %+v, radon %+v", f, got, want)
		}
	}
	t.Logf("%d files: SLOC equal %d, LLOC equal %d, all seven counts equal %d", compared, sloc, lloc, all)
	if compared < 300 {
		t.Errorf("compared %d files, want at least 300", compared)
	}
	// The bar is 99% rather than 100% only because radon's tokenization
	// follows the Python running it: from 3.12 tokenize splits f-strings into
	// several tokens, which moves radon's LLOC for lines with `:` in an
	// f-string. On Python ≤ 3.11 every file agrees.
	if pct(all, compared) < 99 {
		t.Errorf("raw metrics equal to radon for %.2f%% of files, want ≥ 99%%", pct(all, compared))
	}
}

func TestRadonMaintainabilityIndex(t *testing.T) {
	o := radonOracle(t)
	var compared, exact, close, rank int
	worst := 0.0
	for _, f := range o.files {
		m, ok := o.out["mi"][f]
		if !ok || isRadonError(m) {
			continue
		}
		var want struct {
			MI   float64 `json:"mi"`
			Rank string  `json:"rank"`
		}
		if err := json.Unmarshal(m, &want); err != nil {
			t.Fatal(err)
		}
		compared++
		got, err := Analyze(o.trees[f])
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		d := math.Abs(got.MI - want.MI)
		worst = max(worst, d)
		switch {
		case d <= 1e-9:
			exact++
			close++
		case d <= 0.01:
			close++
			t.Logf("%s: mi %.6f, radon %.6f", f, got.MI, want.MI)
		default:
			t.Logf("%s: mi %.6f, radon %.6f (volume %.3f, cc %d, lloc %d)", f, got.MI, want.MI, got.Halstead.Total.Volume, got.Complexity.Total(), got.Raw.LLOC)
		}
		if got.MIRank() == want.Rank {
			rank++
		}
	}
	t.Logf("%d files: MI equal (|Δ| ≤ 1e-9) for %d (%.2f%%), within 0.01 for %d (%.2f%%), rank equal for %d; largest |Δ| %.4g",
		compared, exact, pct(exact, compared), close, pct(close, compared), rank, worst)
	if compared < 300 {
		t.Errorf("compared %d files, want at least 300", compared)
	}
	// MI is a closed formula of four exact inputs, so equality up to
	// floating-point rounding is the bar (see the raw-metrics bar for why not 100%).
	if pct(exact, compared) < 99 || pct(rank, compared) < 99 {
		t.Errorf("MI equal to radon's for %.2f%% of files, rank for %.2f%% (want ≥ 99%% each)", pct(exact, compared), pct(rank, compared))
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func TestRadonHalstead(t *testing.T) {
	o := radonOracle(t)
	var compared, equal int
	for _, f := range o.files {
		m, ok := o.out["hal"][f]
		if !ok || isRadonError(m) {
			continue
		}
		var want struct {
			Total HalsteadReport `json:"total"`
		}
		if err := json.Unmarshal(m, &want); err != nil {
			t.Fatal(err)
		}
		compared++
		got := HalsteadMetrics(o.trees[f]).Total
		if got.H1 == want.Total.H1 && got.H2 == want.Total.H2 && got.N1 == want.Total.N1 && got.N2 == want.Total.N2 {
			equal++
		} else {
			t.Logf("%s: h1 h2 N1 N2 = %d %d %d %d, radon %d %d %d %d", f, got.H1, got.H2, got.N1, got.N2,
				want.Total.H1, want.Total.H2, want.Total.N1, want.Total.N2)
		}
	}
	t.Logf("%d files: Halstead counts equal for %d (%.2f%%)", compared, equal, pct(equal, compared))
	if pct(equal, compared) < 99 {
		t.Errorf("Halstead counts equal for %.2f%% of files, want ≥ 99%%", pct(equal, compared))
	}
}

// identifierSources are files whose names use every kind of character
// CPython accepts in identifiers: combining marks (Mn, Mc), connector
// punctuation (Pc), Other_ID_Start/Other_ID_Continue (℘, ℮, ·), names NFKC
// changes (fullwidth letters, ligatures, ℌ, mathematical letters), and
// non-Latin scripts. Issue #18: `polynfi metrics` failed on the first one
// while radon cc reads it.
var identifierSources = map[string]string{
	"marks.py": "def cafe\u0301(x\u0301, n\u0303=1):\n    if x\u0301 and n\u0303:\n        return n\u0303\n" +
		"    return [y\u20d7 for y\u20d7 in range(3) if y\u20d7]\n\n\nclass Na\u0308ive:\n" +
		"    def m\u0327(self, a):\n        return a if a else -a\n\n    def \u0915\u094d\u0937\u093f(self):\n" +
		"        for i in range(2):\n            if i:\n                break\n        else:\n            pass\n",
	"other_id.py": "\u2118 = 1\n\u212e = 2\na\u00b7b = 3\nx\u0387 = None if False else 1\n\n\n" +
		"def f\u203fg(p\u00b7q):\n    while p\u00b7q:\n        p\u00b7q -= 1\n    return \u2118 + \u212e\n",
	"nfkc.py": "def \uff46\uff4f\uff4f(\ufb01le):\n    try:\n        return \ufb01le.read()\n    except OSError:\n" +
		"        return None\n\n\nclass \u210cilbert:\n    def \U0001d518(self, x\u0663):\n" +
		"        return x\u0663 and self or x\u0663\n\n\ndef \ud55c\uae00(\u4e2d\u6587, \u0627\u0644\u0639\u0631\u0628\u064a\u0629):\n" +
		"    assert \u4e2d\u6587\n    return lambda \u03bb: \u03bb if \u0627\u0644\u0639\u0631\u0628\u064a\u0629 else \u4e2d\u6587\n",
}

// TestRadonIdentifiers runs the real radon on identifierSources (after
// checking that the machine's CPython parses each): every cc block (names
// NFKC-normalized as CPython's are), complexity, rank, lines and column,
// and the Halstead counts equal radon's, and the raw metrics are computed
// without error (and equal radon's where radon's tokenizer reads the file:
// Python ≤ 3.11's tokenize module rejects combining marks, so radon raw and
// mi fail on marks.py and other_id.py there).
func TestRadonIdentifiers(t *testing.T) {
	requireRadon(t)
	dir := t.TempDir()
	var files []string
	for name, src := range identifierSources {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	sort.Strings(files)
	check := exec.Command("python3", append([]string{"-c", "import ast, sys\nfor p in sys.argv[1:]: ast.parse(open(p, encoding='utf-8').read(), p)"}, files...)...)
	if out, err := check.CombinedOutput(); err != nil {
		t.Fatalf("CPython rejects a fixture: %v\n%s", err, out)
	}
	cc, err := runRadon("cc", files)
	if err != nil {
		t.Fatal(err)
	}
	hal, err := runRadon("hal", files)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := runRadon("raw", files)
	if err != nil {
		t.Fatal(err)
	}
	p := syntax.NewParser()
	defer p.Close()
	for _, f := range files {
		src, _ := os.ReadFile(f)
		tr, err := p.Parse(syntax.Python, src)
		if err != nil || tr.HasError() {
			t.Fatalf("%s: does not parse: %v", f, err)
		}
		if isRadonError(cc[f]) {
			t.Fatalf("%s: radon cc fails: %s", f, cc[f])
		}
		var rb []radonBlock
		if err := json.Unmarshal(cc[f], &rb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, got := map[string]radonBlock{}, map[string]Block{}
		flattenRadon(rb, "", want)
		ccRes := CyclomaticComplexity(tr)
		flattenOurs(ccRes.Blocks(), "", got)
		if len(want) == 0 {
			t.Fatalf("%s: radon reports no block", f)
		}
		for k, w := range want {
			g, ok := got[k]
			switch {
			case !ok:
				t.Errorf("%s: block %q missing (radon %d)", filepath.Base(f), k, w.Complexity)
			case g.Complexity != w.Complexity || g.Type != w.Type || g.ColOffset != w.ColOffset || g.Endline != w.Endline || g.Rank() != w.Rank:
				t.Errorf("%s: %q complexity %d %s col %d end %d, radon %d %s col %d end %d", filepath.Base(f), k,
					g.Complexity, g.Type, g.ColOffset, g.Endline, w.Complexity, w.Type, w.ColOffset, w.Endline)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: block %q not reported by radon", filepath.Base(f), k)
			}
		}
		t.Logf("%s: %d cc blocks equal radon's", filepath.Base(f), len(want))

		var wantHal struct {
			Total     HalsteadReport            `json:"total"`
			Functions map[string]HalsteadReport `json:"functions"`
		}
		if err := json.Unmarshal(hal[f], &wantHal); err != nil {
			t.Fatalf("%s: radon hal: %v (%s)", f, err, hal[f])
		}
		h := HalsteadMetrics(tr)
		if g, w := h.Total, wantHal.Total; g.H1 != w.H1 || g.H2 != w.H2 || g.N1 != w.N1 || g.N2 != w.N2 {
			t.Errorf("%s: Halstead h1 h2 N1 N2 = %d %d %d %d, radon %d %d %d %d", filepath.Base(f), g.H1, g.H2, g.N1, g.N2, w.H1, w.H2, w.N1, w.N2)
		}
		for _, fn := range h.Functions {
			if _, ok := wantHal.Functions[fn.Name]; !ok {
				t.Errorf("%s: Halstead function %q not in radon's %v", filepath.Base(f), fn.Name, wantHal.Functions)
			}
		}

		gotRaw, err := RawMetrics(src)
		if err != nil {
			t.Errorf("%s: raw metrics: %v", filepath.Base(f), err)
			continue
		}
		if _, err := Analyze(tr); err != nil {
			t.Errorf("%s: Analyze: %v", filepath.Base(f), err)
		}
		if isRadonError(raw[f]) {
			t.Logf("%s: radon raw fails (%s): its tokenizer is the running Python's; polynfi gives %+v", filepath.Base(f), raw[f], gotRaw)
			continue
		}
		var wantRaw Raw
		if err := json.Unmarshal(raw[f], &wantRaw); err != nil {
			t.Fatal(err)
		}
		if gotRaw != wantRaw {
			t.Errorf("%s: raw %+v, radon %+v", filepath.Base(f), gotRaw, wantRaw)
		}
	}
}
