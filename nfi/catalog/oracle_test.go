package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// The Ruff oracle tests compare every rule the catalog marks Oracle.Exact
// with the pinned Ruff (nfi.RuffVersion), run exactly as the rule's
// invocation says (Rule.Invocations, also printed by `polynfi rules
// --format json`), on two samples:
//
//   - an even spread of oracleSampleSize standard-library files;
//   - the seeded sample testdata/oracle/<RULE-ID>.py: hand-written cases,
//     separated by `# ---` lines, each scored as a file of its own, for the
//     rules the standard library rarely trips and for the documented
//     differences of issue #18 (a comment ending in `# noqa: E501`,
//     `Optional[Mapping[...]] = {}`, a nested if under `if TYPE_CHECKING:`,
//     a method of a class made in a loop, `@overload` stubs).
//
// Per rule, a file agrees when polynfi fails it exactly when Ruff reports
// one of the rule's codes in it. The verdict is judged three ways (judge):
// on all files, on the files where either tool fires (so that a rule that
// never fires cannot hide behind the many files where nothing happens), and
// case by case on the rule's own seeded cases.

// oracleSampleSize is how many standard-library files the oracle tests read.
const oracleSampleSize = 600

const (
	// minAgreement is the per-rule share of all files that must agree.
	minAgreement = 0.99
	// minFiringAgreement is the per-rule share of the files where either
	// tool fires on which both fire.
	minFiringAgreement = 0.90
	// minFiring is how many files (standard library plus seeds) each exact
	// rule's oracle must fire on, so that the firing bar means something.
	minFiring = 12
)

type ruffDiag struct {
	Code     *string `json:"code"`
	Filename string  `json:"filename"`
	Location struct {
		Row    int `json:"row"`
		Column int `json:"column"`
	} `json:"location"`
	Message string `json:"message"`
}

// requireTool returns the tool's path; when it is missing the test skips
// outside CI and fails in CI (where .ci/run installs it via make deps).
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		citest.Missing(t, "%s is not installed (pip install -r requirements-dev.txt)", name)
	}
	return p
}

// requireRuff returns the path of ruff after checking that it is the
// pinned version: a comparison with another version proves nothing.
func requireRuff(t *testing.T) string {
	t.Helper()
	ruff := requireTool(t, "ruff")
	out, err := exec.Command(ruff, "--version").Output()
	if err != nil {
		t.Fatalf("ruff --version: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "ruff "+nfi.RuffVersion {
		citest.Missing(t, "%s is installed; the oracle tests need ruff %s (pip install -r requirements-dev.txt)", got, nfi.RuffVersion)
	}
	return ruff
}

// runRuff runs ruff with argv (a rule invocation without its leading
// "ruff") on files and returns file → code → first row reported. Files ruff
// cannot parse are in broken.
func runRuff(t *testing.T, ruff string, argv, files []string) (found map[string]map[string]int, broken map[string]bool) {
	t.Helper()
	args := append(slices.Clone(argv), files...)
	cmd := exec.Command(ruff, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ruff %v: %v\n%s", argv, err, stderr.String())
	}
	var diags []ruffDiag
	if err := json.Unmarshal(out, &diags); err != nil {
		t.Fatalf("ruff json: %v", err)
	}
	found, broken = map[string]map[string]int{}, map[string]bool{}
	for _, d := range diags {
		f, _ := filepath.Abs(d.Filename)
		// invalid-syntax (Ruff ≥ 0.12) and E999 mark files Ruff cannot parse
		if d.Code == nil || *d.Code == "E999" || *d.Code == "invalid-syntax" {
			broken[f] = true
			continue
		}
		if found[f] == nil {
			found[f] = map[string]int{}
		}
		if _, ok := found[f][*d.Code]; !ok {
			found[f][*d.Code] = d.Location.Row
		}
	}
	return found, broken
}

// seedCase is one case of the seeded sample: a file of its own.
type seedCase struct {
	Rule    string // the rule the seed file is written for
	Path    string // absolute path of the case file
	Title   string // the text after `# ---` (may be empty)
	Line    int    // the separator's line in the seed file
	Differs bool   // `# --- differs: ...`: a documented difference
}

var seedSep = regexp.MustCompile(`^# ---(?:\s+(differs:)?\s*(.*))?$`)

// seedCases splits every testdata/oracle/*.py into one file per case under
// dir. A case starts after a `# ---` line (the first one also at the top of
// the file); `# --- differs: why` marks a case where the rule's Oracle
// documentation names a difference from Ruff: the case must then differ.
func seedCases(t *testing.T, dir string) []seedCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "oracle", "*.py"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no seeded oracle sample under testdata/oracle: %v", err)
	}
	var out []seedCase
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rule := strings.TrimSuffix(filepath.Base(p), ".py")
		cur := seedCase{Rule: rule, Line: 1}
		var body []string
		flush := func() {
			if strings.TrimSpace(strings.Join(body, "")) == "" {
				return
			}
			cur.Path = filepath.Join(dir, fmt.Sprintf("%s_%03d.py", strings.ToLower(strings.ReplaceAll(rule, "-", "_")), len(out)))
			if err := os.WriteFile(cur.Path, []byte(strings.Join(body, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			out = append(out, cur)
		}
		for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			if m := seedSep.FindStringSubmatch(line); m != nil {
				flush()
				cur, body = seedCase{Rule: rule, Line: i + 1, Title: m[2], Differs: m[1] != ""}, nil
				continue
			}
			body = append(body, line)
		}
		flush()
	}
	return out
}

// oracleRun is the data every oracle test reads, computed once per test
// binary: the files, the seeded cases, polynfi's scores with the exact
// rules, and Ruff's findings per distinct invocation.
type oracleRun struct {
	ruff   string
	files  []string // standard library sample, then seed cases
	seeds  []seedCase
	byPath map[string]*seedCase
	rules  []*nfi.Rule // the rules with a Ruff oracle
	scores map[string]nfi.FileScore
	found  map[string]map[string]map[string]int // settingsKey → file → code → row
	broken map[string]bool
}

var (
	seedDir    string // the seed cases' directory, once made
	oracleOnce sync.Once
	oracleData *oracleRun
	oracleErr  string
)

func ruffRules() []*nfi.Rule {
	var rs []*nfi.Rule
	for _, r := range Polynfi92().Rules {
		if len(r.Oracle.Ruff) > 0 {
			rs = append(rs, r)
		}
	}
	return rs
}

// settingsKey is a rule's Ruff arguments after --select CODES (preview and
// settings): rules with the same key share one Ruff run that selects all
// their codes. Ruff's checks do not depend on which other codes are
// selected, so each rule's findings are those of its own invocation;
// TestRuffInvocationLiteral checks that on the seeded sample.
func settingsKey(r *nfi.Rule) string {
	return strings.Join(r.RuffArgs()[2:], "\x00")
}

// mergedArgv is the Ruff command line (without "ruff") selecting every
// code of rules, which share one settingsKey.
func mergedArgv(rules []*nfi.Rule) []string {
	var codes []string
	for _, r := range rules {
		codes = append(codes, r.Oracle.Ruff...)
	}
	args := append(slices.Clone(nfi.RuffBaseArgs), "--select", strings.Join(codes, ","))
	return append(args, rules[0].RuffArgs()[2:]...)
}

// loadOracle runs Ruff and polynfi over both samples once.
func loadOracle(t *testing.T) *oracleRun {
	t.Helper()
	if testing.Short() {
		t.Skip("oracle comparison skipped in -short mode")
	}
	ruff := requireRuff(t)
	oracleOnce.Do(func() {
		o := &oracleRun{ruff: ruff, byPath: map[string]*seedCase{}, found: map[string]map[string]map[string]int{}, broken: map[string]bool{}}
		for _, f := range corpus.StdlibSample(t, oracleSampleSize) {
			abs, _ := filepath.Abs(f)
			o.files = append(o.files, abs)
		}
		dir, err := os.MkdirTemp("", "polynfi-oracle-seeds-")
		if err != nil {
			oracleErr = err.Error()
			return
		}
		seedDir = dir // removed by TestMain
		o.seeds = seedCases(t, dir)
		for i := range o.seeds {
			o.files = append(o.files, o.seeds[i].Path)
			o.byPath[o.seeds[i].Path] = &o.seeds[i]
		}
		o.rules = ruffRules()
		o.scores = scoreAll(t, o.rules, o.files)
		groups := map[string][]*nfi.Rule{}
		for _, r := range o.rules {
			groups[settingsKey(r)] = append(groups[settingsKey(r)], r)
		}
		for k, rules := range groups {
			found, broken := runRuff(t, ruff, mergedArgv(rules), o.files)
			o.found[k] = found
			for f := range broken {
				o.broken[f] = true
			}
		}
		oracleData = o
	})
	if oracleData == nil {
		t.Fatalf("oracle data: %s", oracleErr)
	}
	return oracleData
}

// scoreAll scores files with rules (one engine, one parse per file).
func scoreAll(t *testing.T, rules []*nfi.Rule, files []string) map[string]nfi.FileScore {
	t.Helper()
	eng, err := nfi.NewEngine(&nfi.Catalog{Version: "oracle", Rules: rules}, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	parser := syntax.NewParser()
	defer parser.Close()
	scores := map[string]nfi.FileScore{}
	for _, f := range files {
		scores[f] = eng.ScoreFile(parser, f)
	}
	return scores
}

// verdict is one rule's comparison with Ruff.
type verdict struct {
	Total, Agree         int // files both tools scored; of them, same verdict
	Firing, FiringAgree  int // files where either tool fires; of them, both fire
	RuffFires, OursFires int
	Seeds, SeedsAgree    int // the rule's own seeded cases (not "differs")
	Differs, DiffersSeen int // its "differs" cases; of them, really different
	Mismatches           []string
}

// judge compares rule r's verdicts in scores with Ruff's findings.
func (o *oracleRun) judge(r *nfi.Rule, scores map[string]nfi.FileScore) verdict {
	var v verdict
	found := o.found[settingsKey(r)]
	for _, f := range o.files {
		fs := scores[f]
		if !fs.Valid || o.broken[f] {
			continue // neither tool scores a file it cannot parse
		}
		v.Total++
		ruffFails, line := false, 0
		for _, c := range r.Oracle.Ruff {
			if l, ok := found[f][c]; ok {
				ruffFails, line = true, l
			}
		}
		res, _ := fs.Rule(r.ID)
		oursFails := !res.Passed
		agree := oursFails == ruffFails
		if ruffFails {
			v.RuffFires++
		}
		if oursFails {
			v.OursFires++
		}
		if ruffFails || oursFails {
			v.Firing++
			if agree {
				v.FiringAgree++
			}
		}
		if agree {
			v.Agree++
		}
		seed := o.byPath[f]
		if seed != nil && seed.Rule == r.ID {
			if seed.Differs {
				v.Differs++
				if !agree {
					v.DiffersSeen++
				}
			} else {
				v.Seeds++
				if agree {
					v.SeedsAgree++
				}
			}
		}
		expectAgree := seed == nil || seed.Rule != r.ID || !seed.Differs
		if agree == expectAgree {
			continue
		}
		where := f
		if seed != nil {
			where = fmt.Sprintf("%s (seed %s.py:%d %q)", f, seed.Rule, seed.Line, seed.Title)
		}
		if agree {
			v.Mismatches = append(v.Mismatches, where+": documented as a difference, but both tools agree")
			continue
		}
		detail := "ruff passes"
		if ruffFails {
			detail = "ruff fails at line " + fmt.Sprint(line)
		} else if len(res.Diagnostics) > 0 {
			detail += "; polynfi: " + res.Diagnostics[0].String()
		}
		v.Mismatches = append(v.Mismatches, where+": "+detail)
	}
	return v
}

// problems returns what makes v fail the bars for rule r, none when it passes.
func (v verdict) problems(r *nfi.Rule) []string {
	var p []string
	if v.Total == 0 {
		return []string{"no file scored"}
	}
	if s := float64(v.Agree) / float64(v.Total); s < minAgreement {
		p = append(p, fmt.Sprintf("agrees on %.2f%% of %d files, want >= %.0f%%", 100*s, v.Total, 100*minAgreement))
	}
	if v.Firing < minFiring {
		p = append(p, fmt.Sprintf("either tool fires on %d files, want >= %d (add seeded cases)", v.Firing, minFiring))
	}
	if v.Firing > 0 {
		if s := float64(v.FiringAgree) / float64(v.Firing); s < minFiringAgreement {
			p = append(p, fmt.Sprintf("both fire on %d of the %d files where either fires (%.1f%%), want >= %.0f%%",
				v.FiringAgree, v.Firing, 100*s, 100*minFiringAgreement))
		}
	}
	if v.SeedsAgree != v.Seeds {
		p = append(p, fmt.Sprintf("agrees on %d of its %d seeded cases, want all", v.SeedsAgree, v.Seeds))
	}
	if v.DiffersSeen != v.Differs {
		p = append(p, fmt.Sprintf("%d of its %d documented differences no longer differ: update the seed and the rule's Oracle doc", v.Differs-v.DiffersSeen, v.Differs))
	}
	return p
}

func (v verdict) summary() string {
	return fmt.Sprintf("all files %d/%d agree (%.2f%%); fires: ruff %d, polynfi %d, either %d, both %d (%.1f%%); seeds %d/%d agree, documented differences %d/%d",
		v.Agree, v.Total, 100*float64(v.Agree)/float64(max(v.Total, 1)), v.RuffFires, v.OursFires, v.Firing, v.FiringAgree,
		100*float64(v.FiringAgree)/float64(max(v.Firing, 1)), v.SeedsAgree, v.Seeds, v.DiffersSeen, v.Differs)
}

// TestMain removes the seed cases' directory after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if seedDir != "" {
		os.RemoveAll(seedDir)
	}
	os.Exit(code)
}

// TestRuffOracle checks every rule marked Oracle.Exact against Ruff: on at
// least 99% of all files the verdicts agree, each rule's oracle fires on at
// least minFiring files and on at least 90% of the files where either tool
// fires both do, and every seeded case of the rule agrees.
func TestRuffOracle(t *testing.T) {
	o := loadOracle(t)
	exact := 0
	for _, r := range o.rules {
		if !r.Oracle.Exact {
			continue
		}
		exact++
		t.Run(r.ID, func(t *testing.T) {
			v := o.judge(r, o.scores)
			t.Logf("%s vs ruff %v: %s", r.ID, r.Oracle.Ruff, v.summary())
			for i, m := range v.Mismatches {
				if i == 10 {
					t.Logf("... %d more", len(v.Mismatches)-10)
					break
				}
				t.Logf("mismatch: %s", m)
			}
			for _, p := range v.problems(r) {
				t.Errorf("%s: %s", r.ID, p)
			}
		})
	}
	if exact == 0 {
		t.Fatal("no rule declares an exact Ruff oracle")
	}
}

// TestRuffDocumentedDifferences runs the rules whose Ruff oracle is not
// exact but that have seeded cases: their `# ---` cases must agree with
// Ruff, their `# --- differs:` cases must differ (so that each rule's
// Oracle documentation stays true).
func TestRuffDocumentedDifferences(t *testing.T) {
	o := loadOracle(t)
	seeded := map[string]bool{}
	for _, s := range o.seeds {
		seeded[s.Rule] = true
	}
	for _, r := range o.rules {
		if r.Oracle.Exact || !seeded[r.ID] {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			v := o.judge(r, o.scores)
			t.Logf("%s vs ruff %v: %s", r.ID, r.Oracle.Ruff, v.summary())
			if v.Seeds+v.Differs == 0 {
				t.Fatal("no seeded case scored")
			}
			if v.SeedsAgree != v.Seeds || v.DiffersSeen != v.Differs {
				t.Errorf("seeds %d/%d agree, documented differences %d/%d differ; want all", v.SeedsAgree, v.Seeds, v.DiffersSeen, v.Differs)
			}
			for _, m := range v.Mismatches {
				if strings.Contains(m, "(seed "+r.ID+".py") {
					t.Errorf("mismatch: %s", m)
				}
			}
		})
	}
}

// TestRuffOracleCatchesDeadRule proves the bars catch a dead rule: every
// exact rule is replaced in-process by a copy that never reports anything
// (same ID and oracle, no visit, an empty finish), the samples are scored
// again, and the judge must reject every one of them.
func TestRuffOracleCatchesDeadRule(t *testing.T) {
	o := loadOracle(t)
	var dead []*nfi.Rule
	for _, r := range o.rules {
		if !r.Oracle.Exact {
			continue
		}
		d := *r
		d.Kinds, d.Visit = nil, nil
		d.Finish = func(*nfi.Pass) {}
		dead = append(dead, &d)
	}
	scores := scoreAll(t, dead, o.files)
	for _, r := range dead {
		v := o.judge(r, scores)
		if p := v.problems(r); len(p) == 0 {
			t.Errorf("%s never reports and still passes the oracle bars (%s)", r.ID, v.summary())
		} else {
			t.Logf("dead %s rejected: %s", r.ID, strings.Join(p, "; "))
		}
	}
}

// TestRuffInvocationLiteral runs each rule's own invocation, exactly as
// Rule.Invocations gives it, on the seeded cases and checks that Ruff
// reports the same codes on the same rows as in the shared run.
func TestRuffInvocationLiteral(t *testing.T) {
	o := loadOracle(t)
	var files []string
	for _, s := range o.seeds {
		files = append(files, s.Path)
	}
	for _, r := range o.rules {
		found, _ := runRuff(t, o.ruff, r.Invocations()[0].Argv[1:], files)
		shared := o.found[settingsKey(r)]
		for _, f := range files {
			for _, c := range r.Oracle.Ruff {
				a, okA := found[f][c]
				b, okB := shared[f][c]
				if okA != okB || a != b {
					t.Errorf("%s %s: %s alone reports %v (row %d), with the other codes of its settings %v (row %d)", r.ID, filepath.Base(f), c, okA, a, okB, b)
				}
			}
		}
	}
}

// TestRuffOracleCodes checks every Ruff code the catalog names against the
// pinned Ruff: it must exist (LOG-P06 named PLW0101, which Ruff 0.17.6 does
// not have), and a preview rule's invocation must pass --preview (Ruff
// silently selects nothing otherwise).
func TestRuffOracleCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle comparison skipped in -short mode")
	}
	ruff := requireRuff(t)
	out, err := exec.Command(ruff, "rule", "--all", "--output-format", "json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var all []struct {
		Code    string `json:"code"`
		Preview bool   `json:"preview"`
	}
	if err := json.Unmarshal(out, &all); err != nil {
		t.Fatal(err)
	}
	preview := map[string]bool{}
	for _, c := range all {
		preview[c.Code] = c.Preview
	}
	for _, r := range Polynfi92().Rules {
		for _, c := range r.Oracle.Ruff {
			p, ok := preview[c]
			switch {
			case !ok:
				t.Errorf("%s names Ruff code %s, which ruff %s does not have", r.ID, c, nfi.RuffVersion)
			case p && !r.Oracle.Preview:
				t.Errorf("%s names %s, a preview rule in ruff %s, without Preview", r.ID, c, nfi.RuffVersion)
			}
		}
	}
}

// TestOracleVersionsPinned checks that requirements-dev.txt (what make deps
// and CI install) pins the versions the catalog's invocations name.
func TestOracleVersionsPinned(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "requirements-dev.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ruff==" + nfi.RuffVersion, "radon==" + nfi.RadonVersion} {
		if !slices.Contains(strings.Fields(string(data)), want) {
			t.Errorf("requirements-dev.txt does not pin %s", want)
		}
	}
}

// TestSeedFilesNameRules checks that every seed file is named after a rule
// with a Ruff oracle, and that every exact rule's oracle can fire: the rule
// either has a seed file or fires often enough in the standard library
// (TestRuffOracle checks the counts).
func TestSeedFilesNameRules(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "oracle", "*.py"))
	ids := map[string]bool{}
	for _, r := range ruffRules() {
		ids[r.ID] = true
	}
	var names []string
	for _, p := range paths {
		id := strings.TrimSuffix(filepath.Base(p), ".py")
		names = append(names, id)
		if !ids[id] {
			t.Errorf("%s: no rule %s with a Ruff oracle", p, id)
		}
	}
	sort.Strings(names)
	t.Logf("seed files: %v", names)
}
