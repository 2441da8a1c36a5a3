package jsts

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// The oracle agreement test of the JavaScript/TypeScript catalog: every
// rule marked Exact must give ESLint 10.15.0's verdict (typescript-eslint
// 8.73.0 parsing .ts/.tsx) on at least 99% of the corpus files both parse,
// and fire on enough of them that the agreement means something. The
// corpus is the JavaScript and TypeScript inside npm packages that
// .ci/eslint-oracle.sh fetches (npm pack) next to the linters; nothing of
// it is committed.

// oracleDir returns the directory .ci/eslint-oracle.sh installed; the
// test skips outside CI and fails in CI when it is missing.
func oracleDir(t testing.TB) string {
	t.Helper()
	dir := citest.Oracle(t, "POLYNFI_ESLINT_ORACLE", "eslint-"+nfi.ESLintVersion, ".ci/eslint-oracle.sh")
	for pkg, want := range map[string]string{"eslint": nfi.ESLintVersion, "typescript-eslint": nfi.TypeScriptESLintVersion, "typescript": nfi.TypeScriptVersion} {
		data, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
		var v struct{ Version string }
		if err != nil || json.Unmarshal(data, &v) != nil || v.Version != want {
			citest.Missing(t, "%s %s is not installed in %s (bash .ci/eslint-oracle.sh)", pkg, want, dir)
		}
	}
	return dir
}

// corpusFiles returns the corpus's JavaScript and TypeScript source
// files, at most perPackage of each package (in path order) and none over
// maxBytes: a spread over the packages rather than the largest one.
// Minified bundles (a line over 1,000 bytes, see minified) are not
// source and are left out.
func corpusFiles(t testing.TB, dir string, perPackage, maxBytes int) []string {
	t.Helper()
	root := filepath.Join(dir, "corpus")
	pkgs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pkgs {
		var files []string
		filepath.WalkDir(filepath.Join(root, p.Name()), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			if l, ok := syntax.LanguageForPath(path); !ok || l == syntax.Python || l == syntax.Java {
				return nil
			}
			if strings.HasSuffix(path, ".min.js") {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Size() <= int64(maxBytes) && !minified(path) {
				files = append(files, path)
			}
			return nil
		})
		sort.Strings(files)
		// every k-th file, so that a package's many small files and its
		// few large ones are both sampled
		if len(files) > perPackage {
			step := float64(len(files)) / float64(perPackage)
			var pick []string
			for i := 0; i < perPackage; i++ {
				pick = append(pick, files[int(float64(i)*step)])
			}
			files = pick
		}
		out = append(out, files...)
	}
	return out
}

// minified reports a file with a line longer than 1,000 bytes: a bundle
// (vue.global.prod.js, prettier's plugins), not source. tree-sitter parses
// such lines several times slower per byte than ordinary source.
func minified(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return true
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data)
		}
		if i > 1000 {
			return true
		}
		data = data[min(i+1, len(data)):]
	}
	return false
}

// eslintConfig writes a flat config that runs the catalog's ESLint rules,
// each as ["error", ...Oracle.ESLintOptions]: the core rules on every
// file, the typescript-eslint ones (and its parser) on .ts/.tsx files.
func eslintConfig(t testing.TB, dir string, rules []*nfi.Rule) string {
	t.Helper()
	core, ts := map[string]json.RawMessage{}, map[string]json.RawMessage{}
	for _, r := range rules {
		for _, name := range r.Oracle.ESLint {
			setting := json.RawMessage(`"error"`)
			if r.Oracle.ESLintOptions != "" {
				setting = json.RawMessage(`["error", ` + strings.TrimSuffix(strings.TrimPrefix(r.Oracle.ESLintOptions, "["), "]") + `]`)
			}
			if strings.HasPrefix(name, "@typescript-eslint/") {
				ts[name] = setting
			} else {
				core[name] = setting
			}
		}
	}
	cj, _ := json.Marshal(core)
	tj, _ := json.Marshal(ts)
	cfg := fmt.Sprintf(`import tseslint from "typescript-eslint";
const core = %s;
const ts = %s;
export default [
  { files: ["**/*.js", "**/*.mjs", "**/*.cjs", "**/*.jsx"], languageOptions: { ecmaVersion: "latest", parserOptions: { ecmaFeatures: { jsx: true } } }, linterOptions: { reportUnusedDisableDirectives: "off" }, rules: core },
  { files: ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"], languageOptions: { parser: tseslint.parser }, plugins: { "@typescript-eslint": tseslint.plugin }, linterOptions: { reportUnusedDisableDirectives: "off" }, rules: { ...core, ...ts } },
];
`, cj, tj)
	// beside node_modules, where the config's import resolves, and the
	// corpus, which ESLint lints only under the config's directory
	p := filepath.Join(dir, fmt.Sprintf("eslint.polynfi-%d.config.mjs", os.Getpid()))
	if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(p) })
	return p
}

// eslintResult is ESLint's verdicts: file → rule names reported, and the
// files ESLint could not parse.
type eslintResult struct {
	fired  map[string]map[string]bool
	broken map[string]string
}

// runESLint lints files with config and reads its JSON report.
func runESLint(t testing.TB, dir, config string, files []string) eslintResult {
	t.Helper()
	args := append([]string{filepath.Join(dir, "node_modules", "eslint", "bin", "eslint.js"),
		"--no-config-lookup", "-c", config, "--no-inline-config", "--no-warn-ignored", "--format", "json"}, files...)
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("eslint: %v\n%s", err, stderr.String())
	}
	var report []struct {
		FilePath string `json:"filePath"`
		Messages []struct {
			RuleID  *string `json:"ruleId"`
			Fatal   bool    `json:"fatal"`
			Message string  `json:"message"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("eslint output: %v\n%s", err, stderr.String())
	}
	res := eslintResult{fired: map[string]map[string]bool{}, broken: map[string]string{}}
	for _, f := range report {
		res.fired[f.FilePath] = map[string]bool{}
		for _, m := range f.Messages {
			if m.Fatal || m.RuleID == nil {
				res.broken[f.FilePath] = m.Message
				continue
			}
			res.fired[f.FilePath][*m.RuleID] = true
		}
	}
	return res
}

// scoreAll scores files with the rules and returns file → rule ID →
// failed, plus the files polynfi reports invalid (with why).
func scoreAll(t testing.TB, rules []*nfi.Rule, files []string) (map[string]map[string]bool, map[string]string) {
	t.Helper()
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "oracle", Rules: rules}, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	failed, invalid := map[string]map[string]bool{}, map[string]string{}
	p := syntax.NewParser()
	defer p.Close()
	for _, f := range files {
		fs := e.ScoreFile(p, f)
		if !fs.Valid {
			invalid[f] = fs.Status + ": " + fs.Error.Error()
			continue
		}
		m := map[string]bool{}
		for _, rr := range fs.Rules {
			m[rr.ID] = !rr.Passed
		}
		failed[f] = m
	}
	return failed, invalid
}

// agreement compares one rule's verdicts with ESLint's on the files both
// parse: the number of files compared, agreeing, and failing per ESLint,
// and a few disagreeing files.
func agreement(r *nfi.Rule, ours map[string]map[string]bool, theirs eslintResult) (n, agree, firing int, diffs []string) {
	for f, verdicts := range ours {
		fired, ok := theirs.fired[f]
		if !ok || theirs.broken[f] != "" {
			continue
		}
		want := false
		for _, name := range r.Oracle.ESLint {
			want = want || fired[name]
		}
		if !r.Judges(nfi.SourceLanguage(f)) {
			continue
		}
		n++
		if want {
			firing++
		}
		if verdicts[r.ID] == want {
			agree++
		} else if len(diffs) < 5 {
			diffs = append(diffs, fmt.Sprintf("%s (eslint fails: %v)", f, want))
		}
	}
	return n, agree, firing, diffs
}

// minFiring is how many corpus files an exact rule must fail (per ESLint)
// for its agreement to count; rareInCorpus lists the exact rules the
// corpus exercises less (each with the count seen), for which
// TestESLintFixtures's line-by-line agreement on the hand-written fixture
// is the evidence: the test fails when one of them reaches minFiring, so
// that the list is kept honest.
const minFiring = 5

var rareInCorpus = map[string]string{
	"JS-ERR-P01": "1 file", "JS-ERR-P02": "1 file", "JS-ERR-P03": "0 files", "JS-LIB-P01": "0 files",
	"JS-LIB-P02": "4 files", "JS-LIB-P04": "4 files", "JS-LIB-P05": "0 files", "JS-LIB-P06": "0 files",
	"JS-LIB-P08": "4 files", "JS-LIB-P09": "0 files", "JS-LIB-P11": "0 files", "JS-STY-P06": "2 files",
	"JS-STY-P10": "0 files", "JS-LOG-P02": "0 files", "JS-LOG-P05": "1 file", "JS-LOG-P06": "0 files",
	"JS-LOG-P07": "0 files", "JS-LOG-P08": "0 files", "JS-LOG-P09": "0 files",
}

// TestESLintAgreement is the agreement test; its cost is one ESLint run
// over the corpus sample (about a minute of CPU on 2 cores) and scoring it.
func TestESLintAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ESLint over the corpus")
	}
	dir := oracleDir(t)
	files := corpusFiles(t, dir, 40, 200_000)
	if len(files) < 300 {
		t.Fatalf("only %d corpus files", len(files))
	}
	cfg := eslintConfig(t, dir, All)
	theirs := runESLint(t, dir, cfg, files)
	ours, invalid := scoreAll(t, All, files)
	// Validity: every file is scored or reported invalid; compare the
	// invalid ones with ESLint's parser.
	agreeValid := 0
	for _, f := range files {
		_, scored := ours[f]
		_, bad := invalid[f]
		if scored == bad {
			t.Errorf("%s: neither scored nor reported invalid", f)
		}
		if _, eslintBad := theirs.broken[f]; eslintBad == bad {
			agreeValid++
		} else {
			t.Logf("validity differs: %s: polynfi %q, eslint %q", f, invalid[f], theirs.broken[f])
		}
	}
	t.Logf("%d files, %d invalid for polynfi (tree-sitter), %d for ESLint's parsers; validity agrees on %d", len(files), len(invalid), len(theirs.broken), agreeValid)
	for _, r := range All {
		if !r.Oracle.Exact {
			continue
		}
		n, agree, firing, diffs := agreement(r, ours, theirs)
		rate := float64(agree) / float64(max(n, 1))
		t.Logf("%-11s %-45s files %4d firing %4d agreement %.4f", r.ID, strings.Join(r.Oracle.ESLint, ","), n, firing, rate)
		if rate < 0.99 {
			t.Errorf("%s: agreement %.4f < 0.99 with %v on %d files: %v", r.ID, rate, r.Oracle.ESLint, n, diffs)
		}
		if _, rare := rareInCorpus[r.ID]; rare == (firing >= minFiring) {
			t.Errorf("%s: fails %d corpus files per ESLint (minimum %d); rareInCorpus says %q", r.ID, firing, minFiring, rareInCorpus[r.ID])
		}
	}
	// A rule made silent must be caught: its agreement drops below 99%.
	silent := *Eqeqeq
	silent.Visit = func(*nfi.Pass, syntax.NodeID) {}
	mute, _ := scoreAll(t, []*nfi.Rule{&silent}, slices.Collect(func(yield func(string) bool) {
		for f := range ours {
			if !yield(f) {
				return
			}
		}
	}))
	n, agree, _, _ := agreement(&silent, mute, theirs)
	if float64(agree)/float64(max(n, 1)) >= 0.99 {
		t.Errorf("a silenced %s still agrees with ESLint on %d of %d files: the test cannot catch a broken rule", silent.ID, agree, n)
	}
}

// TestESLintFixtures is the seeded half of the agreement test, for the
// rules the corpus rarely trips: on each exact rule's fixture
// (testdata/ID.js or .ts, hand-written cases), ESLint must report the
// rule on exactly the lines where polynfi does.
func TestESLintFixtures(t *testing.T) {
	dir := oracleDir(t)
	work := filepath.Join(dir, fmt.Sprintf("fixtures-%d", os.Getpid()))
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	var files []string
	byFile := map[string]*nfi.Rule{}
	for _, r := range All {
		if !r.Oracle.Exact {
			continue
		}
		src := fixture(r.ID)
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(work, filepath.Base(src))
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, dst)
		byFile[dst] = r
	}
	cfg := eslintConfig(t, dir, All)
	lines := runESLintLines(t, dir, cfg, files)
	p := syntax.NewParser()
	defer p.Close()
	for _, f := range files {
		r := byFile[f]
		e, err := nfi.NewEngine(&nfi.Catalog{Version: "fixture", Rules: []*nfi.Rule{r}}, nfi.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		fs := e.ScoreFile(p, f)
		if !fs.Valid {
			t.Errorf("%s: %v", f, fs.Error)
			continue
		}
		ours := map[int]bool{}
		for _, d := range fs.Rules[0].Diagnostics {
			ours[d.Line] = true
		}
		theirs := map[int]bool{}
		for _, name := range r.Oracle.ESLint {
			for l := range lines[f][name] {
				theirs[l] = true
			}
		}
		if !mapsEqual(ours, theirs) {
			t.Errorf("%s (%s): polynfi reports lines %v, ESLint %v", r.ID, filepath.Base(f), sortedKeys(ours), sortedKeys(theirs))
		}
	}
}

// runESLintLines lints files and returns file → rule → lines reported.
func runESLintLines(t testing.TB, dir, config string, files []string) map[string]map[string]map[int]bool {
	t.Helper()
	args := append([]string{filepath.Join(dir, "node_modules", "eslint", "bin", "eslint.js"),
		"--no-config-lookup", "-c", config, "--no-inline-config", "--no-warn-ignored", "--format", "json"}, files...)
	cmd := exec.Command("node", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("eslint: %v\n%s", err, stderr.String())
		}
	}
	var report []struct {
		FilePath string `json:"filePath"`
		Messages []struct {
			RuleID  *string `json:"ruleId"`
			Line    int     `json:"line"`
			Message string  `json:"message"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("eslint output: %v", err)
	}
	out := map[string]map[string]map[int]bool{}
	for _, f := range report {
		out[f.FilePath] = map[string]map[int]bool{}
		for _, m := range f.Messages {
			if m.RuleID == nil {
				t.Errorf("%s: eslint cannot parse it: %s", f.FilePath, m.Message)
				continue
			}
			if out[f.FilePath][*m.RuleID] == nil {
				out[f.FilePath][*m.RuleID] = map[int]bool{}
			}
			out[f.FilePath][*m.RuleID][m.Line] = true
		}
	}
	return out
}

func mapsEqual(a, b map[int]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func sortedKeys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
