package java

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// The oracle agreement test of the Java catalog: every rule marked Exact
// must give the verdict of PMD 7.27.0 or Checkstyle 12.3.1 (the rule's
// Oracle, default properties) on at least 99% of the corpus files both
// parse, and fire on enough of them that the agreement means something.
// The corpus is the Java inside the -sources.jar artifacts that
// .ci/pmd-oracle.sh fetches from Maven Central next to the linters;
// nothing of it is committed.

// oracleDir returns the directory .ci/pmd-oracle.sh installed; the test
// skips outside CI and fails in CI when it is missing.
func oracleDir(t testing.TB) string {
	t.Helper()
	dir := citest.Oracle(t, "POLYNFI_PMD_ORACLE", "pmd-"+nfi.PMDVersion, ".ci/pmd-oracle.sh")
	for _, jar := range []string{"pmd-java-" + nfi.PMDVersion + ".jar", "pmd-cli-" + nfi.PMDVersion + ".jar", "checkstyle-" + nfi.CheckstyleVersion + ".jar"} {
		if _, err := os.Stat(filepath.Join(dir, "lib", jar)); err != nil {
			citest.Missing(t, "%s is not installed in %s (bash .ci/pmd-oracle.sh)", jar, dir)
		}
	}
	if _, err := exec.LookPath("java"); err != nil {
		citest.Missing(t, "java is not installed")
	}
	return dir
}

// corpusFiles returns the corpus's Java files, at most perPackage of each
// library (every k-th in path order, so that a library's many small files
// and its few large ones are both sampled), none over maxBytes.
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
			if err != nil || d.IsDir() || !d.Type().IsRegular() || !strings.HasSuffix(path, ".java") {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Size() <= int64(maxBytes) {
				files = append(files, path)
			}
			return nil
		})
		sort.Strings(files)
		if perPackage > 0 && len(files) > perPackage {
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

// verdicts is a linter's findings: file → oracle rule name → lines, and
// the files it could not parse.
type verdicts struct {
	lines  map[string]map[string]map[int]bool
	broken map[string]string
}

func (v *verdicts) add(file, rule string, line int) {
	if v.lines[file] == nil {
		v.lines[file] = map[string]map[int]bool{}
	}
	if v.lines[file][rule] == nil {
		v.lines[file][rule] = map[int]bool{}
	}
	v.lines[file][rule][line] = true
}

// pmdRefs returns the PMD rule references of rules.
func pmdRefs(rules []*nfi.Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Oracle.PMD...)
	}
	return out
}

// checkstyleModules returns the Checkstyle modules of rules.
func checkstyleModules(rules []*nfi.Rule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.Oracle.Checkstyle...)
	}
	return out
}

// pmdCommand returns the PMD command line that checks the files listed in
// list with refs, one thread (--threads 0: PMD's main thread) when single.
// NOPMD comments are not honoured (the marker is set to a string no file
// holds), as polynfi scores without suppressions.
func pmdCommand(dir string, refs []string, list string, single bool) *exec.Cmd {
	args := []string{"-cp", filepath.Join(dir, "lib", "*"), "net.sourceforge.pmd.cli.PmdCli", "check",
		"--no-cache", "--no-progress", "--format", "json", "--suppress-marker", "POLYNFI-NEVER-SUPPRESS",
		"--rulesets", strings.Join(refs, ","), "--file-list", list}
	if single {
		args = append(args, "--threads", "0")
	}
	return exec.Command("java", args...)
}

// runPMD checks files with refs and reads its JSON report.
func runPMD(t testing.TB, dir string, refs []string, files []string) verdicts {
	t.Helper()
	list := filepath.Join(t.TempDir(), "files.txt")
	if err := os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := pmdCommand(dir, refs, list, false)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// 4: violations found; 5: recoverable errors (unparsable files); 1: an
	// error of PMD's own on some file (its type resolution fails on some
	// generic code), the report of the others complete: the JSON decides.
	runErr := cmd.Run()
	if ee, ok := runErr.(*exec.ExitError); runErr != nil && (!ok || ee.ExitCode() == 2) {
		t.Fatalf("pmd: %v\n%s", runErr, stderr.String())
	}
	var report struct {
		Files []struct {
			Filename   string `json:"filename"`
			Violations []struct {
				BeginLine int    `json:"beginline"`
				Rule      string `json:"rule"`
			} `json:"violations"`
		} `json:"files"`
		ProcessingErrors []struct {
			Filename string `json:"filename"`
			Message  string `json:"message"`
		} `json:"processingErrors"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("pmd output: %v (%v)\n%s", err, runErr, stderr.String())
	}
	// a file PMD failed on is named in its log, not its report
	for _, line := range strings.Split(stderr.String(), "\n") {
		if i := strings.Index(line, "ERROR net.sourceforge.pmd.cli - at "); i >= 0 {
			rest := line[i+len("ERROR net.sourceforge.pmd.cli - at "):]
			if j := strings.Index(rest, ".java:"); j >= 0 {
				report.ProcessingErrors = append(report.ProcessingErrors, struct {
					Filename string `json:"filename"`
					Message  string `json:"message"`
				}{rest[:j+5], rest})
			}
		}
	}
	v := verdicts{lines: map[string]map[string]map[int]bool{}, broken: map[string]string{}}
	for _, f := range report.Files {
		for _, x := range f.Violations {
			v.add(f.Filename, x.Rule, x.BeginLine)
		}
	}
	for _, e := range report.ProcessingErrors {
		v.broken[e.Filename] = e.Message
	}
	return v
}

// checkstyleConfig writes a configuration running modules with their
// default properties.
func checkstyleConfig(t testing.TB, modules []string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?>
<!DOCTYPE module PUBLIC "-//Checkstyle//DTD Checkstyle Configuration 1.3//EN" "https://checkstyle.org/dtds/configuration_1_3.dtd">
<module name="Checker">
  <property name="charset" value="UTF-8"/>
  <property name="haltOnException" value="false"/>
  <module name="TreeWalker">
`)
	for _, m := range modules {
		fmt.Fprintf(&b, "    <module name=%q/>\n", m)
	}
	b.WriteString("  </module>\n</module>\n")
	p := filepath.Join(t.TempDir(), "checkstyle.xml")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkstyleCommand returns the Checkstyle command line over files.
func checkstyleCommand(dir, config string, files []string) *exec.Cmd {
	args := append([]string{"-cp", filepath.Join(dir, "lib", "*"), "com.puppycrawl.tools.checkstyle.Main",
		"-c", config, "-f", "xml"}, files...)
	return exec.Command("java", args...)
}

// runCheckstyle checks files with modules and reads its XML report.
func runCheckstyle(t testing.TB, dir string, modules []string, files []string) verdicts {
	t.Helper()
	cmd := checkstyleCommand(dir, checkstyleConfig(t, modules), files)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run() // the exit status is the number of errors
	var report struct {
		Files []struct {
			Name   string `xml:"name,attr"`
			Errors []struct {
				Line   int    `xml:"line,attr"`
				Source string `xml:"source,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	out := stdout.Bytes()
	if i := bytes.Index(out, []byte("<checkstyle")); i >= 0 {
		out = out[i:]
		if j := bytes.LastIndex(out, []byte("</checkstyle>")); j >= 0 {
			out = out[:j+len("</checkstyle>")]
		}
	}
	if err := xml.Unmarshal(out, &report); err != nil {
		t.Fatalf("checkstyle output: %v\n%s\n%s", err, stderr.String(), stdout.String())
	}
	v := verdicts{lines: map[string]map[string]map[int]bool{}, broken: map[string]string{}}
	for _, f := range report.Files {
		for _, e := range f.Errors {
			src := e.Source[strings.LastIndexByte(e.Source, '.')+1:]
			if src == "Checker" || src == "TreeWalker" {
				v.broken[f.Name] = "checkstyle cannot parse it"
				continue
			}
			v.add(f.Name, strings.TrimSuffix(src, "Check"), e.Line)
		}
	}
	// files Checkstyle could not parse are reported in stderr
	for _, line := range strings.Split(stderr.String(), "\n") {
		for _, f := range files {
			if strings.Contains(line, f) {
				v.broken[f] = line
			}
		}
	}
	return v
}

// oracleNames returns the oracle's rule names of r (PMD's rule name, the
// last element of its reference; Checkstyle's module) and which report
// holds them.
func oracleNames(r *nfi.Rule) (names []string, pmd bool) {
	for _, ref := range r.Oracle.PMD {
		names = append(names, ref[strings.LastIndexByte(ref, '/')+1:])
	}
	if len(names) > 0 {
		return names, true
	}
	return r.Oracle.Checkstyle, false
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

// agreement compares one rule's verdicts with its oracle's on the files
// both parse: files compared, agreeing, failing per the oracle, and a few
// disagreeing files.
func agreement(r *nfi.Rule, ours map[string]map[string]bool, pmd, cs verdicts) (n, agree, firing int, diffs []string) {
	names, isPMD := oracleNames(r)
	theirs := cs
	if isPMD {
		theirs = pmd
	}
	files := make([]string, 0, len(ours))
	for f := range ours {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if theirs.broken[f] != "" {
			continue
		}
		want := false
		for _, name := range names {
			want = want || len(theirs.lines[f][name]) > 0
		}
		n++
		if want {
			firing++
		}
		if ours[f][r.ID] == want {
			agree++
		} else if len(diffs) < 4 {
			diffs = append(diffs, fmt.Sprintf("%s (oracle fails: %v, lines %v)", f, want, sortedKeys(theirs.lines[f][names[0]])))
		}
	}
	return n, agree, firing, diffs
}

// minFiring is how many corpus files an exact rule must fail (per its
// oracle) for its agreement to count; rareInCorpus lists the exact rules
// the corpus exercises less (each with the count seen), for which
// TestPMDFixtures's line-by-line agreement on the hand-written fixture is
// the evidence: the test fails when one of them reaches minFiring, so
// that the list is kept honest.
const minFiring = 5

var rareInCorpus = map[string]string{
	"JAVA-ERR-P07": "0 files", "JAVA-ERR-P08": "0 files", "JAVA-LIB-P01": "2 files", "JAVA-LIB-P02": "1 file",
	"JAVA-LIB-P03": "0 files", "JAVA-LIB-P04": "1 file", "JAVA-LIB-P05": "0 files", "JAVA-LIB-P08": "0 files",
	"JAVA-LIB-P09": "2 files", "JAVA-STY-P02": "2 files", "JAVA-STY-P03": "2 files", "JAVA-STY-P04": "0 files",
	"JAVA-STY-P07": "3 files", "JAVA-STY-P08": "0 files", "JAVA-STY-P09": "2 files", "JAVA-STY-T01": "3 files",
	"JAVA-STY-T02": "1 file", "JAVA-LOG-P02": "1 file", "JAVA-LOG-P03": "0 files", "JAVA-LOG-P05": "0 files",
	"JAVA-LOG-P06": "0 files", "JAVA-LOG-P09": "0 files", "JAVA-LOG-P10": "0 files", "JAVA-LOG-P11": "0 files",
	"JAVA-LOG-P12": "0 files",
}

// oracleRun is one run of both linters and polynfi over the corpus
// sample, shared by the agreement tests.
func oracleRun(t *testing.T) (files []string, ours map[string]map[string]bool, invalid map[string]string, pmd, cs verdicts) {
	dir := oracleDir(t)
	files = corpusFiles(t, dir, 60, 300_000)
	if len(files) < 300 {
		t.Fatalf("only %d corpus files", len(files))
	}
	pmd = runPMD(t, dir, pmdRefs(All), files)
	cs = runCheckstyle(t, dir, checkstyleModules(All), files)
	ours, invalid = scoreAll(t, All, files)
	return
}

// TestPMDAgreement is the agreement test: one PMD run and one Checkstyle
// run over the corpus sample (about a minute of CPU) and scoring it.
func TestPMDAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("runs PMD and Checkstyle over the corpus")
	}
	files, ours, invalid, pmd, cs := oracleRun(t)
	agreeValid := 0
	for _, f := range files {
		_, scored := ours[f]
		_, bad := invalid[f]
		if scored == bad {
			t.Errorf("%s: neither scored nor reported invalid", f)
		}
		if _, pmdBad := pmd.broken[f]; pmdBad == bad {
			agreeValid++
		} else {
			t.Logf("validity differs: %s: polynfi %q, pmd %q", f, invalid[f], pmd.broken[f])
		}
	}
	t.Logf("%d files, %d invalid for polynfi (tree-sitter), %d for PMD, %d for Checkstyle; validity agrees with PMD on %d",
		len(files), len(invalid), len(pmd.broken), len(cs.broken), agreeValid)
	for _, r := range All {
		names, _ := oracleNames(r)
		if len(names) == 0 {
			continue
		}
		n, agree, firing, diffs := agreement(r, ours, pmd, cs)
		rate := float64(agree) / float64(max(n, 1))
		t.Logf("%-13s %-40s exact %-5v files %4d firing %4d agreement %.4f", r.ID, strings.Join(names, ","), r.Oracle.Exact, n, firing, rate)
		if !r.Oracle.Exact {
			if rate < 0.99 {
				t.Logf("    differs: %v", diffs)
			}
			continue
		}
		if rate < 0.99 {
			t.Errorf("%s: agreement %.4f < 0.99 with %v on %d files: %v", r.ID, rate, names, n, diffs)
		}
		if _, rare := rareInCorpus[r.ID]; rare == (firing >= minFiring) {
			t.Errorf("%s: fails %d corpus files per its oracle (minimum %d); rareInCorpus says %q", r.ID, firing, minFiring, rareInCorpus[r.ID])
		}
	}
	// A rule made silent must be caught: its agreement drops below 99%.
	silent := *EmptyCatchBlock
	silent.Visit = func(*nfi.Pass, syntax.NodeID) {}
	var scored []string
	for f := range ours {
		scored = append(scored, f)
	}
	mute, _ := scoreAll(t, []*nfi.Rule{&silent}, scored)
	n, agree, _, _ := agreement(&silent, mute, pmd, cs)
	if float64(agree)/float64(max(n, 1)) >= 0.99 {
		t.Errorf("a silenced %s still agrees with PMD on %d of %d files: the test cannot catch a broken rule", silent.ID, agree, n)
	}
}

// TestPMDFixtures is the seeded half of the agreement test, for the rules
// the corpus rarely trips: on each exact rule's fixture (testdata/ID.java),
// the oracle must report the rule on exactly the lines where polynfi does.
func TestPMDFixtures(t *testing.T) {
	dir := oracleDir(t)
	var files []string
	var exact []*nfi.Rule
	byFile := map[string]*nfi.Rule{}
	for _, r := range All {
		if !r.Oracle.Exact {
			continue
		}
		f, err := filepath.Abs(fixture(r.ID))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		exact = append(exact, r)
		byFile[f] = r
	}
	pmd := runPMD(t, dir, pmdRefs(exact), files)
	cs := runCheckstyle(t, dir, checkstyleModules(exact), files)
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
		names, isPMD := oracleNames(r)
		v := cs
		if isPMD {
			v = pmd
		}
		theirs := map[int]bool{}
		for _, name := range names {
			for l := range v.lines[f][name] {
				theirs[l] = true
			}
		}
		if !mapsEqual(ours, theirs) {
			t.Errorf("%s (%s): polynfi reports lines %v, %v %v", r.ID, filepath.Base(f), sortedKeys(ours), names, sortedKeys(theirs))
		}
	}
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

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
