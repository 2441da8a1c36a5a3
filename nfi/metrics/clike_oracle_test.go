package metrics_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/metrics"
	"github.com/polynfi/polynfi/syntax"
)

// eslintOracle returns the directory .ci/eslint-oracle.sh installed
// (ESLint, typescript-eslint and the npm corpus): $POLYNFI_ESLINT_ORACLE,
// else ~/.cache/polynfi/eslint-<version>; Missing without it.
func eslintOracle(t *testing.T) string {
	t.Helper()
	dir := citest.Oracle(t, "POLYNFI_ESLINT_ORACLE", "eslint-"+nfi.ESLintVersion, ".ci/eslint-oracle.sh")
	return dir
}

// sampleCorpus returns up to perPackage JavaScript or TypeScript files of
// each corpus package (every k-th in path order), leaving out minified
// bundles (a line over 1,000 bytes) and files over maxBytes.
func sampleCorpus(t *testing.T, root string, perPackage, maxBytes int, want func(string) bool) []string {
	t.Helper()
	pkgs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pkgs {
		var files []string
		filepath.WalkDir(filepath.Join(root, p.Name()), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() || !want(path) || strings.HasSuffix(path, ".min.js") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil || len(data) > maxBytes {
				return nil
			}
			for _, line := range bytes.Split(data, []byte("\n")) {
				if len(line) > 1000 {
					return nil
				}
			}
			files = append(files, path)
			return nil
		})
		sort.Strings(files)
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

var reComplexity = regexp.MustCompile(`has a complexity of (\d+)`)

// TestESLintComplexityAgreement: on a sample of the npm corpus of
// .ci/eslint-oracle.sh, the multiset of per-code-path complexities
// ECMAScriptComplexity gives each file equals the one ESLint 10.15.0's
// complexity rule reports with maximum 0 (every function, initializer and
// static block reported with its complexity), on at least 99% of the files
// both parse, with enough files and complex functions to mean something.
// Then the same comparison with `??` left uncounted must drop below 99%:
// the comparison catches a counting rule gone missing.
func TestESLintComplexityAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ESLint over the corpus")
	}
	dir := eslintOracle(t)
	files := sampleCorpus(t, filepath.Join(dir, "corpus"), 12, 150_000, func(p string) bool {
		l, ok := syntax.LanguageForPath(p)
		return ok && l != syntax.Python && l != syntax.Java
	})
	if len(files) < 150 {
		t.Fatalf("only %d corpus files", len(files))
	}
	cfg := filepath.Join(dir, fmt.Sprintf("eslint.polynfi-metrics-%d.config.mjs", os.Getpid()))
	if err := os.WriteFile(cfg, []byte(`import tseslint from "typescript-eslint";
const rules = { complexity: ["error", 0] };
export default [
  { files: ["**/*.js", "**/*.mjs", "**/*.cjs", "**/*.jsx"], languageOptions: { ecmaVersion: "latest", parserOptions: { ecmaFeatures: { jsx: true } } }, linterOptions: { reportUnusedDisableDirectives: "off" }, rules },
  { files: ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"], languageOptions: { parser: tseslint.parser }, linterOptions: { reportUnusedDisableDirectives: "off" }, rules },
];
`), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(cfg)
	cmd := exec.Command("node", append([]string{filepath.Join(dir, "node_modules", "eslint", "bin", "eslint.js"),
		"--no-config-lookup", "-c", cfg, "--no-inline-config", "--no-warn-ignored", "--format", "json"}, files...)...)
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
			Fatal   bool    `json:"fatal"`
			Message string  `json:"message"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("eslint output: %v\n%s", err, stderr.String())
	}
	theirs := map[string][]int{}
	for _, f := range report {
		var cs []int
		broken := false
		for _, m := range f.Messages {
			if m.Fatal || m.RuleID == nil {
				broken = true
				break
			}
			if mm := reComplexity.FindStringSubmatch(m.Message); *m.RuleID == "complexity" && mm != nil {
				n, _ := strconv.Atoi(mm[1])
				cs = append(cs, n)
			}
		}
		if !broken {
			sort.Ints(cs)
			theirs[f.FilePath] = cs
		}
	}
	parser := syntax.NewParser()
	defer parser.Close()
	ours := map[string][]int{}
	noNullish := map[string][]int{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		l, _ := syntax.LanguageForPath(f)
		tree, err := parser.Parse(l, src)
		if err != nil || tree.HasError() {
			continue
		}
		c := metrics.ECMAScriptComplexity(tree)
		ours[f] = metrics.SortedComplexities(c)
		// the same less one per `??`: what a counter missing it gives
		var less []int
		for _, b := range c.Functions {
			n := b.Complexity
			end := tree.Nodes[b.Node].End
			for i := b.Node; i < end; i++ {
				if tree.Kind(i) == "binary_expression" && strings.Contains(tree.TextString(i), "??") {
					if op := tree.ChildByField(i, "operator"); op != syntax.NoNode && tree.TextString(op) == "??" {
						if owner := innermostPath(tree, c, i); owner == b.Node {
							n--
						}
					}
				}
			}
			less = append(less, n)
		}
		sort.Ints(less)
		noNullish[f] = less
		tree.Release()
	}
	agree := func(ours map[string][]int) (n, ok, paths, complex int, diffs []string) {
		for _, f := range files {
			o, ok1 := ours[f]
			th, ok2 := theirs[f]
			if !ok1 || !ok2 {
				continue
			}
			n++
			paths += len(th)
			for _, c := range th {
				if c > 10 {
					complex++
				}
			}
			if slices.Equal(o, th) {
				ok++
			} else if len(diffs) < 10 {
				diffs = append(diffs, fmt.Sprintf("%s: ours %v, ESLint %v", f, o, th))
			}
		}
		return
	}
	n, ok, paths, complex, diffs := agree(ours)
	t.Logf("ESLint complexity: %d of %d files agree (%.2f%%), %d code paths, %d over 10; %d files sampled, %d invalid for tree-sitter or ESLint",
		ok, n, 100*float64(ok)/float64(max(n, 1)), paths, complex, len(files), len(files)-n)
	if n < 150 || paths < 2000 || complex < 30 {
		t.Errorf("too little evidence: %d files, %d code paths, %d over 10", n, paths, complex)
	}
	if float64(ok) < 0.99*float64(n) {
		t.Errorf("agreement %d/%d below 99%%:\n%s", ok, n, strings.Join(diffs, "\n"))
	}
	if n2, ok2, _, _, _ := agree(noNullish); float64(ok2) >= 0.99*float64(n2) {
		t.Errorf("with ?? uncounted the agreement is still %d/%d: the comparison would not catch a missing branch kind", ok2, n2)
	}
}

// innermostPath returns the code path (a Block's Node) holding node n.
func innermostPath(t *syntax.Tree, c metrics.Complexity, n syntax.NodeID) syntax.NodeID {
	best := syntax.NoNode
	for _, b := range c.Functions {
		if b.Node <= n && n < t.Nodes[b.Node].End && (best == syntax.NoNode || b.Node > best) {
			best = b.Node
		}
	}
	return best
}

var rePMDCyclo = regexp.MustCompile(`^The (?:method|constructor) '.*' has a cyclomatic complexity of (\d+)\.$`)

// TestPMDCyclomaticAgreement: on a sample of the Maven Central sources
// corpus of .ci/pmd-oracle.sh (branch i27-java), the multiset of
// per-method complexities JavaComplexity gives each file equals the one
// PMD 7.27.0's CyclomaticComplexity rule reports with methodReportLevel 1
// (every method and constructor), on at least 99% of the files both parse,
// with enough methods to mean something; with `||` left uncounted the
// agreement drops below 99%.
func TestPMDCyclomaticAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PMD over the corpus")
	}
	dir := citest.Oracle(t, "POLYNFI_PMD_ORACLE", "pmd-"+nfi.PMDVersion, ".ci/pmd-oracle.sh")
	files := sampleCorpus(t, filepath.Join(dir, "corpus"), 20, 150_000, func(p string) bool {
		return strings.HasSuffix(p, ".java") && !strings.HasSuffix(p, "module-info.java") && !strings.HasSuffix(p, "package-info.java")
	})
	if len(files) < 100 {
		t.Fatalf("only %d corpus files", len(files))
	}
	work := t.TempDir()
	ruleset := filepath.Join(work, "cyclo.xml")
	if err := os.WriteFile(ruleset, []byte(`<?xml version="1.0"?>
<ruleset name="cyclo" xmlns="http://pmd.sourceforge.net/ruleset/2.0.0">
  <description>every method's cyclomatic complexity</description>
  <rule ref="category/java/design.xml/CyclomaticComplexity">
    <properties>
      <property name="methodReportLevel" value="1"/>
      <property name="classReportLevel" value="999999"/>
    </properties>
  </rule>
</ruleset>
`), 0o644); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(work, "files.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("java", "-cp", filepath.Join(dir, "lib", "*"), "net.sourceforge.pmd.cli.PmdCli", "check", "--no-cache",
		"--file-list", list, "-R", ruleset, "-f", "json", "--no-progress")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 4 {
			t.Fatalf("pmd: %v\n%s", err, stderr.String())
		}
	}
	var report struct {
		Files []struct {
			Filename   string `json:"filename"`
			Violations []struct {
				Description string `json:"description"`
			} `json:"violations"`
		} `json:"files"`
		ProcessingErrors []struct {
			Filename string `json:"filename"`
		} `json:"processingErrors"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("pmd output: %v\n%s", err, stderr.String())
	}
	broken := map[string]bool{}
	for _, e := range report.ProcessingErrors {
		broken[e.Filename] = true
	}
	theirs := map[string][]int{}
	for _, f := range files {
		if !broken[f] {
			theirs[f] = []int{} // a file without methods has no violation
		}
	}
	for _, f := range report.Files {
		if broken[f.Filename] {
			continue
		}
		var cs []int
		for _, v := range f.Violations {
			if m := rePMDCyclo.FindStringSubmatch(v.Description); m != nil {
				n, _ := strconv.Atoi(m[1])
				cs = append(cs, n)
			}
		}
		sort.Ints(cs)
		theirs[f.Filename] = cs
	}
	parser := syntax.NewParser()
	defer parser.Close()
	ours, noOr := map[string][]int{}, map[string][]int{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := parser.Parse(syntax.Java, src)
		if err != nil || tree.HasError() {
			continue
		}
		c := metrics.JavaComplexity(tree)
		// PMD drops a violation on a line marked NOPMD (its documented
		// suppression comment): leave those methods out of ours too
		lines := strings.Split(string(src), "\n")
		kept := c.Functions[:0]
		for _, b := range c.Functions {
			if name := tree.ChildByField(b.Node, "name"); name == syntax.NoNode || !strings.Contains(lines[tree.Line(name)-1], "NOPMD") {
				kept = append(kept, b)
			}
		}
		c.Functions = kept
		ours[f] = metrics.SortedComplexities(c)
		var less []int
		for _, b := range c.Functions {
			n := b.Complexity
			for i := b.Node; i < tree.Nodes[b.Node].End; i++ {
				if tree.Kind(i) == "binary_expression" && innermostPath(tree, c, i) == b.Node {
					if op := tree.ChildByField(i, "operator"); op != syntax.NoNode && tree.TextString(op) == "||" {
						n--
					}
				}
			}
			less = append(less, n)
		}
		sort.Ints(less)
		noOr[f] = less
		tree.Release()
	}
	agree := func(ours map[string][]int) (n, ok, methods int, diffs []string) {
		for _, f := range files {
			o, ok1 := ours[f]
			th, ok2 := theirs[f]
			if !ok1 || !ok2 {
				continue
			}
			n++
			methods += len(th)
			if slices.Equal(o, th) {
				ok++
			} else if len(diffs) < 10 {
				diffs = append(diffs, fmt.Sprintf("%s: ours %v, PMD %v", f, o, th))
			}
		}
		return
	}
	n, ok, methods, diffs := agree(ours)
	t.Logf("PMD CyclomaticComplexity: %d of %d files agree (%.2f%%), %d methods; %d files sampled, %d invalid for tree-sitter or PMD",
		ok, n, 100*float64(ok)/float64(max(n, 1)), methods, len(files), len(files)-n)
	if n < 100 || methods < 1000 {
		t.Errorf("too little evidence: %d files, %d methods", n, methods)
	}
	if float64(ok) < 0.99*float64(n) {
		t.Errorf("agreement %d/%d below 99%%:\n%s", ok, n, strings.Join(diffs, "\n"))
	}
	if n2, ok2, _, _ := agree(noOr); float64(ok2) >= 0.99*float64(n2) {
		t.Errorf("with || uncounted the agreement is still %d/%d: the comparison would not catch a missing decision kind", ok2, n2)
	}
}
