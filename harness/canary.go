package harness

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/testlog"
)

// Canaries: tests only the harness knows, added to every test_command run
// after the model patch and the test patch (and after guardTests reset the
// test files), in the instance's own framework, appended to the test
// files of the test patch that FAIL_TO_PASS names (the "host files"):
//
//   - in every host file, one test that must pass: a report without it
//     shows that the runner did not execute that file, or that the report
//     was not the runner's;
//   - in the first host file, one test that must fail (left out when the
//     test command stops at the first failure: -x, --exitfirst, --maxfail,
//     --bail, --stop-on-failure, --fail-fast, --gtest_fail_fast, ...;
//     reStopsAtFailure): a report where it passes was rewritten in the test process
//     (a pytest hook, a forged reporter).
//
// Names and bodies are drawn per run from crypto/rand and stored in the
// record only after the run (TestRun.Canaries). A run whose reading holds
// tests but lacks a canary, passes a must-fail one or fails a must-pass
// one is StatusTampered in every mode; canaries never enter the graded
// results or the reported test lists. A canary missing from a host file
// that the run reported as not loading (a collection or compilation error
// of the file itself) is not tampering: the file's own tests did not run
// either, and the instance is unresolved as it would be without canaries.
//
// Frameworks: Python (a unittest.TestCase class, which pytest and
// unittest both collect), JavaScript and TypeScript (a top-level it() or
// test() call, read by Jest and Mocha alike), Java (a method annotated
// @org.junit.jupiter.api.Test or @org.junit.Test, by the file's imports;
// none in a JUnit 4 class run by Enclosed, Suite or Categories, which
// never run its own methods),
// Go (a func Test_<name>(t *testing.T) in a _test.go file that imports
// testing unaliased: go test), Rust (a #[test] fn in an integration test
// file under tests/: cargo test), PHP (a public function
// test_canary_<name>() method inserted before the last closing brace of a
// file that extends a TestCase: PHPUnit, whose testdox prints it
// "Canary <name>"), Ruby (a def test_<name> method at the end of the
// file's first class deriving from a *Test or *TestCase class: minitest
// and test-unit; a top-level RSpec.describe "<name>" block with one
// example in an RSpec file; a top-level describe block in a minitest/spec
// file), C++ (by the file's includes: googletest's TEST(<name>, t);
// doctest's TEST_CASE("<name>") holding a SUBCASE("<name>"), which
// SWE-bench's doctest reader needs; Catch2's TEST_CASE("<name>")).
// SWE-bench Pro rows (run_script.sh given the selected test files,
// parser.py reading its log) get must-pass canaries only, in host files
// among selected_test_files_to_run, when neither the test command nor
// run_script.sh selects tests by name; they are checked on polynfi's own
// reading of the log (not parser.py's, which may keep only the tests it
// knows), and a run that fails them is tampered in the swe-bench-pro mode
// too.
// Not placed (TestRun.CanaryNote says why): SWE-bench eval_script rows
// (the script checks out and selects the test files itself), a test
// command that selects tests by name or mark (reSelectsByName), C (a
// CMake/ctest suite registers each test by add_test and a test program
// dispatches on its own table, so an appended function never runs), other
// languages and frameworks, a test patch without a recognisable test file.
//
// Limits: code running inside the test process can read the canaries from
// the test files and run or imitate them; the canaries stop forgeries
// that do not (every known published exploit), the runner-internals check
// (runnercheck.go) flags the code that reaches into the runner.

// canaryExpect is what a canary's test body computes: int(Hex, 16) % 97
// compared with Want.
type canaryBody struct {
	hex  string
	want int
}

// newCanaryName returns a fresh random canary name.
func newCanaryName() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("harness: no randomness for the canaries: " + err.Error())
	}
	return "c" + hex.EncodeToString(b[:])
}

// newCanaryBody draws a body whose check holds (fail false) or does not.
func newCanaryBody(fail bool) canaryBody {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("harness: no randomness for the canaries: " + err.Error())
	}
	v := binary.BigEndian.Uint32(b[:]) >> 1
	want := int(v % 97)
	if fail {
		want = (want + 1 + int(b[0])%95) % 97
	}
	return canaryBody{hex: strconv.FormatUint(uint64(v), 16), want: want}
}

// reStopsAtFailure matches the options that make a runner stop at the
// first failing test, which a must-fail canary would then cut short.
// PHPUnit's --stop-on-*, RSpec's and minitest's --fail-fast,
// googletest's --gtest_fail_fast and --gtest_break_on_failure, doctest's
// --abort-after and -aa, Catch2's --abort and -x are among them.
var reStopsAtFailure = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|\s)(-x|--exitfirst|--maxfail(=|\s)\S+|--bail|-b|--?failfast|--fail-fast|-Dsurefire\.skipAfterFailureCount=\S+|--stop-on-(failure|error|defect)|--gtest_fail_fast(=\S*)?|--gtest_break_on_failure(=\S*)?|--abort|--abort-after(=\S*)?|-aa(=\S*)?)(\s|$|;)`)
})

// reSelectsByName matches test-command options that select tests by name
// or mark (pytest -k, -m, --deselect and node ids; Jest -t; Mocha
// --grep/--fgrep; Maven -Dtest; unittest -k; go test -run; libtest
// --skip and --exact): canaries there could be
// deselected by an honest command, so none are placed.
var reSelectsByName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|\s)(-k|-m|-run(=\S*)?|-test\.run(=\S*)?|--deselect|-t|--testNamePattern(=\S*)?|--grep(=\S*)?|-g|--fgrep(=\S*)?|-Dtest=\S*|-Dit\.test=\S*|--skip(=\S*)?|--exact)(\s|$)|\.py::|\.py:\S|[\w.)]#\w`)
})

// reSelectsByNameMore is reSelectsByName for the runners of PHP, Ruby
// and C++: PHPUnit --filter, --group, --exclude-group;
// RSpec -e, --example, --tag and spec_file.rb:LINE or [ID]; minitest
// and test-unit -n, --name, --testcase, --ignore-* after ruby, rake or
// in TESTOPTS; googletest --gtest_filter; doctest -tc, -sc, --test-case,
// --subcase and their excludes; Catch2 test specs in brackets ("[tag]").
var reSelectsByNameMore = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(^|[\s'"=])(--filter|--group|--exclude-group|--example|--example-matches|--tag|--gtest_filter|--test-case|--test-case-exclude|--subcase|--subcase-exclude|-tc|-tce|-sc|-sce|--name|--testcase|--ignore-name|--ignore-testcase)(=|\s|$)|\b(ruby|rake|testrb|TESTOPTS=\S*)\b[^;&|]*[\s'"=]-n(\s|/|=)|\brspec\b[^;&|]*\s-e\s|_(spec|test)\.rb:\d|_spec\.rb\[\d|(^|\s)['"]?\[[^\]\s]+\]`)
})

// rePythonModule matches "python -m module", whose -m is not pytest's.
var rePythonModule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bpython[\d.]*\s+-m\s+\S+`) })

// selectsByName returns the part of a test command that selects tests by
// name (reSelectsByName), or "".
func selectsByName(cmd string) string {
	c := rePythonModule().ReplaceAllString(cmd, "python")
	if m := reSelectsByName().FindString(c); m != "" {
		return m
	}
	return reSelectsByNameMore().FindString(c)
}

// reTestFileOf: a file a runner of the language collects as a test file.
var (
	rePyTestFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|/)(test_[^/]*|[^/]*_test|tests)\.py$`) })
	reJSTestFile = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\.(test|spec)\.[cm]?[jt]sx?$)|((^|/)(test|tests|__tests__)/.*\.[cm]?[jt]sx?$)`)
	})
	reJavaTestFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|/)(Test[^/]*|[^/]*Tests?|[^/]*TestCase)\.java$`) })
	reGoTestFile   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`_test\.go$`) })
	reRustTestFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|/)tests/[^/]+\.rs$`) })
	reGoTesting    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*(import\s+)?"testing"\s*$`) })
	rePHPTestFile  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|/)[^/]*Test\.php$`) })
	reRubyTestFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|/)([^/]*_(test|spec)|test_[^/]*)\.rb$`) })
	reCPPTestFile  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`((^|/)(tests?|unittests?|gtest)/.*|(^|/)test_[^/]*|[^/]*(_tests?|_unittest|Tests?))\.(cc|cpp|cxx|c\+\+)$`)
	})
)

// canaryHosts returns the test files of in's test patch that can hold
// canaries (at most 4, sorted): those FAIL_TO_PASS names when any does,
// else every test file of the language it adds or changes.
func canaryHosts(in dataset.Instance) []string {
	var re *regexp.Regexp
	switch in.Language {
	case dataset.Python:
		re = rePyTestFile()
	case dataset.JavaScript, dataset.TypeScript:
		re = reJSTestFile()
	case dataset.Java:
		re = reJavaTestFile()
	case dataset.Go:
		re = reGoTestFile()
	case dataset.Rust:
		re = reRustTestFile()
	case dataset.PHP:
		re = rePHPTestFile()
	case dataset.Ruby:
		re = reRubyTestFile()
	case dataset.CPP:
		re = reCPPTestFile()
	default:
		return nil
	}
	var all []string
	seen := map[string]bool{}
	for _, p := range diff.ScanPaths(in.TestPatch) {
		if p.New == "" || p.New == diff.DevNull || seen[p.New] || safepath.Check(p.New) != nil || !re.MatchString(p.New) {
			continue
		}
		seen[p.New] = true
		all = append(all, p.New)
	}
	sort.Strings(all)
	var added map[string]string
	if in.Language == dataset.CPP || in.Language == dataset.Ruby {
		added = addedText(in.TestPatch)
	}
	var named []string
	for _, f := range all {
		if namedByF2P(f, in, added[f]) {
			named = append(named, f)
		}
	}
	if len(named) > 0 {
		all = named
	}
	if len(all) > 4 {
		all = all[:4]
	}
	return all
}

// addedText returns the lines a patch adds, joined per file by its new
// path (none when the patch does not parse).
func addedText(patch string) map[string]string {
	files, err := diff.Parse(patch)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, f := range files {
		var b strings.Builder
		for _, h := range f.Hunks {
			for _, l := range h.Lines {
				if l.Op == diff.Add {
					b.WriteString(l.Text + "\n")
				}
			}
		}
		out[f.NewPath] += b.String()
	}
	return out
}

// reRubyTestMethod is a minitest or test-unit method name in an id
// ("Class#test_x", "test_x(Class)").
var reRubyTestMethod = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\btest_\w+[?!]?`) })

// namedByF2P reports whether a FAIL_TO_PASS id names test file f: by its
// path, its path without extension (Jest, dotted modules, RSpec's JUnit
// class), for Java and PHP its class name ("pkg.Class.method",
// "Class.method", "Ns\\Class::method"); for C++ and Ruby, whose ids do not
// name files, by a test the test patch adds to f (added, the lines it
// adds): googletest's TEST(Suite, Name) for "Suite.Name", a doctest or
// Catch2 TEST_CASE("name") for "name" or "name > subcase", a def test_x
// for "Class#test_x" or "test_x(Class)".
func namedByF2P(f string, in dataset.Instance, added string) bool {
	stem := strings.TrimSuffix(f, path.Ext(f))
	dotted := strings.ReplaceAll(stem, "/", ".")
	class := path.Base(stem)
	for _, id := range in.FailToPass {
		switch {
		case strings.Contains(id, f), strings.Contains(id, stem), strings.Contains(id, dotted):
			return true
		case in.Language == dataset.Java && strings.Contains(id, "."+class+"."):
			return true
		case in.Language == dataset.PHP && (strings.HasPrefix(id, class+".") || strings.Contains(id, "."+class+".") || strings.HasPrefix(id, class+"::") || strings.Contains(id, "\\"+class+"::")):
			return true
		case in.Language == dataset.CPP && added != "" && definesCPPTest(added, id):
			return true
		case in.Language == dataset.Ruby && added != "":
			if m := reRubyTestMethod().FindString(id); m != "" && regexp.MustCompile(`(?m)^\s*def\s+`+regexp.QuoteMeta(m)+`(\s|\(|$)`).MatchString(added) {
				return true
			}
		}
	}
	return false
}

// definesCPPTest reports whether C++ code src defines the test of id: a
// googletest TEST, TEST_F or TEST_P (Suite, Name) for "Suite.Name"
// (parameterized "Prefix/Suite.Name/N" too), a TEST_CASE("name") for
// "name" or "name > subcase".
func definesCPPTest(src, id string) bool {
	name, _, _ := strings.Cut(id, " > ")
	if strings.Contains(src, "TEST_CASE(\""+name+"\"") {
		return true
	}
	gid := id
	if i := strings.IndexByte(gid, '/'); i >= 0 && i < strings.IndexByte(gid, '.') {
		gid = gid[i+1:]
	}
	gid, _, _ = strings.Cut(gid, "/")
	suite, test, ok := strings.Cut(gid, ".")
	if !ok {
		return false
	}
	return regexp.MustCompile(`\bTEST(_F|_P)?\s*\(\s*` + regexp.QuoteMeta(suite) + `\s*,\s*` + regexp.QuoteMeta(test) + `\s*\)`).MatchString(src)
}

// reJUnit4Suite is a JUnit 4 @RunWith of a runner that runs other
// classes (the nested classes for Enclosed, the listed ones for Suite and
// Categories) and never the @Test methods of the annotated class itself:
// a canary there would be missing from an honest run's report (seen for
// Enclosed and Suite with JUnit 4.13.2 and Surefire 3.5.2; Categories is
// a Suite).
var reJUnit4Suite = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`@(org\.junit\.runner\.)?RunWith\s*\(\s*[\w.]*\b(Enclosed|Suite|Categories)\.class`)
})

// canaryCode returns the code that appends canaries cs to a host file of
// language lang with content src, or "" when the file's framework is not
// one canaries are written for.
func canaryCode(lang string, src []byte, cs []Canary, bodies []canaryBody) ([]byte, bool) {
	var b strings.Builder
	switch lang {
	case dataset.Python:
		b.WriteString("\n\nclass Test" + newCanaryName() + "(__import__('unittest').TestCase):\n")
		for i, c := range cs {
			fmt.Fprintf(&b, "    def test_%s(self):\n        self.assertEqual(int('%s', 16) %% 97, %d)\n\n", c.Name, bodies[i].hex, bodies[i].want)
		}
		return append(bytes.TrimRight(src, "\n"), strings.TrimRight(b.String(), "\n")+"\n"...), true
	case dataset.JavaScript, dataset.TypeScript:
		fn := "test"
		if reJSIt().Match(src) {
			fn = "it"
		}
		b.WriteString("\n")
		for i, c := range cs {
			fmt.Fprintf(&b, ";%s(%q, function () { if (parseInt(%q, 16) %% 97 !== %d) { throw new Error(%q); } });\n", fn, c.Name, bodies[i].hex, bodies[i].want, "check "+c.Name)
		}
		return append(append([]byte(nil), src...), b.String()...), true
	case dataset.Java:
		ann := ""
		switch {
		case bytes.Contains(src, []byte("org.junit.jupiter")):
			ann = "@org.junit.jupiter.api.Test"
		case bytes.Contains(src, []byte("org.junit.")):
			if reJUnit4Suite().Match(src) {
				// The runner runs other classes, never this one's methods.
				return nil, false
			}
			ann = "@org.junit.Test"
		default:
			return nil, false
		}
		end := javaClassEnd(src)
		if end < 0 {
			return nil, false
		}
		for i, c := range cs {
			fmt.Fprintf(&b, "\n    %s\n    public void %s() { if (Integer.parseInt(%q, 16) %% 97 != %d) { throw new AssertionError(%q); } }\n", ann, c.Name, bodies[i].hex, bodies[i].want, "check "+c.Name)
		}
		out := append(append([]byte(nil), src[:end]...), b.String()...)
		return append(out, src[end:]...), true
	case dataset.Go:
		if !reGoTesting().Match(src) {
			return nil, false
		}
		for i, c := range cs {
			fmt.Fprintf(&b, "\nfunc Test_%s(t *testing.T) {\n\tif 0x%s%%97 != %d {\n\t\tt.Fatal(%q)\n\t}\n}\n", c.Name, bodies[i].hex, bodies[i].want, "check "+c.Name)
		}
		return append(append(bytes.TrimRight(src, "\n"), '\n'), b.String()...), true
	case dataset.Rust:
		for i, c := range cs {
			fmt.Fprintf(&b, "\n#[test]\nfn %s() {\n    assert_eq!(u64::from_str_radix(%q, 16).unwrap() %% 97, %d, %q);\n}\n", c.Name, bodies[i].hex, bodies[i].want, "check "+c.Name)
		}
		return append(append(bytes.TrimRight(src, "\n"), '\n'), b.String()...), true
	case dataset.PHP:
		return phpCanaries(src, cs, bodies)
	case dataset.Ruby:
		return rubyCanaries(src, cs, bodies)
	case dataset.CPP:
		return cppCanaries(src, cs, bodies)
	}
	return nil, false
}

// rePHPTestClass is a class declaration that extends a TestCase
// (PHPUnit\Framework\TestCase, a project's own *TestCase).
var rePHPTestClass = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(final\s+|abstract\s+)*class\s+\w+\s+extends\s+[\w\\]*TestCase\b`)
})

// phpCanaries inserts one PHPUnit test method per canary before the last
// closing brace of src (the test class's, in a file with one class) when
// src declares a class extending a TestCase. The method is
// test_canary_<name>: PHPUnit's testdox prints a method name holding an
// underscore with its underscores as spaces and its first letter upper
// case ("Canary c…"), keeping the name's own case.
func phpCanaries(src []byte, cs []Canary, bodies []canaryBody) ([]byte, bool) {
	if !rePHPTestClass().Match(src) {
		return nil, false
	}
	end := bytes.LastIndexByte(src, '}')
	if end < 0 {
		return nil, false
	}
	var b strings.Builder
	for i, c := range cs {
		fmt.Fprintf(&b, "\n    public function test_canary_%s()\n    {\n        $this->assertSame(%d, intval('%s', 16) %% 97, '%s');\n    }\n", c.Name, bodies[i].want, bodies[i].hex, "check "+c.Name)
	}
	out := append(append([]byte(nil), src[:end]...), b.String()...)
	return append(out, src[end:]...), true
}

// reRubyTestClass is a class deriving from a test case class
// (Minitest::Test, Test::Unit::TestCase, ActiveSupport::TestCase,
// ActionDispatch::IntegrationTest, a project's own *TestCase); group 1
// is its indentation.
var reRubyTestClass = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^([ \t]*)class\s+[\w:]+\s*<\s*[\w:]*(Test|TestCase)\s*$`)
})

// rubyCanaries writes Ruby canaries into src: in an RSpec file (it names
// RSpec, or is a spec without minitest), a top-level RSpec.describe block
// per canary with one example; in a minitest/spec file, a top-level
// describe block; else def test_<name> methods before the end (the first
// line at the class's indentation starting "end") of the file's first
// test case class (reRubyTestClass).
func rubyCanaries(src []byte, cs []Canary, bodies []canaryBody) ([]byte, bool) {
	var b strings.Builder
	check := func(i int) string {
		return fmt.Sprintf("Integer(%q, 16) %% 97 == %d", bodies[i].hex, bodies[i].want)
	}
	minitest := bytes.Contains(src, []byte("minitest"))
	m := reRubyTestClass().FindSubmatchIndex(src)
	switch {
	case bytes.Contains(src, []byte("RSpec")) || (m == nil && !minitest && regexp.MustCompile(`(?m)^\s*describe\b`).Match(src)):
		for i, c := range cs {
			fmt.Fprintf(&b, "\nRSpec.describe %q do\n  it %q do\n    raise %q unless %s\n  end\nend\n", c.Name, c.Name, "check "+c.Name, check(i))
		}
	case m == nil && minitest && regexp.MustCompile(`(?m)^\s*describe\b`).Match(src):
		for i, c := range cs {
			fmt.Fprintf(&b, "\ndescribe %q do\n  it %q do\n    assert(%s, %q)\n  end\nend\n", c.Name, c.Name, check(i), "check "+c.Name)
		}
	case m != nil:
		indent := string(src[m[2]:m[3]])
		rest := src[m[1]:]
		e := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(indent) + `end\b`).FindIndex(rest)
		if e == nil {
			return nil, false
		}
		at := m[1] + e[0]
		for i, c := range cs {
			fmt.Fprintf(&b, "\n%s  def test_%s\n%s    assert(%s, %q)\n%s  end\n", indent, c.Name, indent, check(i), "check "+c.Name, indent)
		}
		out := append(append([]byte(nil), src[:at]...), strings.TrimPrefix(b.String(), "\n")...)
		return append(out, src[at:]...), true
	default:
		return nil, false
	}
	return append(append(bytes.TrimRight(src, "\n"), '\n'), b.String()...), true
}

// Includes and macros that name a C++ file's test framework.
var (
	reDoctest    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\s*include\s*[<"][^>"]*doctest[^>"]*[>"]`) })
	reCatch2     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#\s*include\s*[<"][^>"]*catch[^>"]*[>"]`) })
	reGoogleTest = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`#\s*include\s*[<"](gtest|gmock)/|(?m)^\s*TEST(_F|_P)?\s*\(\s*\w+\s*,\s*\w+\s*\)`)
	})
)

// cppCanaries appends C++ canaries to src, in the framework its includes
// name: doctest (TEST_CASE holding a SUBCASE, DOCTEST_-prefixed when the
// file asks for DOCTEST_CONFIG_NO_SHORT_MACRO_NAMES), Catch2 (TEST_CASE,
// CATCH_-prefixed under CATCH_CONFIG_PREFIX_ALL) or googletest
// (TEST(<name>, t), also for a file that uses TEST macros through a
// project header).
func cppCanaries(src []byte, cs []Canary, bodies []canaryBody) ([]byte, bool) {
	var b strings.Builder
	cond := func(i int) string { return fmt.Sprintf("0x%sLL %% 97 == %dLL", bodies[i].hex, bodies[i].want) }
	switch {
	case reDoctest().Match(src):
		p := ""
		if bytes.Contains(src, []byte("DOCTEST_CONFIG_NO_SHORT_MACRO_NAMES")) {
			p = "DOCTEST_"
		}
		for i, c := range cs {
			fmt.Fprintf(&b, "\n%sTEST_CASE(%q) {\n    %sSUBCASE(%q) {\n        %sCHECK(%s);\n    }\n}\n", p, c.Name, p, c.Name, p, cond(i))
		}
	case reCatch2().Match(src):
		p := ""
		if bytes.Contains(src, []byte("CATCH_CONFIG_PREFIX_ALL")) {
			p = "CATCH_"
		}
		for i, c := range cs {
			fmt.Fprintf(&b, "\n%sTEST_CASE(%q) {\n    %sCHECK(%s);\n}\n", p, c.Name, p, cond(i))
		}
	case reGoogleTest().Match(src):
		for i, c := range cs {
			fmt.Fprintf(&b, "\nTEST(%s, t) {\n    if (!(%s)) {\n        ADD_FAILURE() << %q;\n    }\n}\n", c.Name, cond(i), "check "+c.Name)
		}
	default:
		return nil, false
	}
	return append(append(bytes.TrimRight(src, "\n"), '\n'), b.String()...), true
}

// placeCanaries writes a fresh set of canaries into the host files of in
// in the work tree (their content read at snap, base + test patch, which
// guardTests left them at) and returns them, or none and a note saying
// why. An error is the sandbox's (reading or writing a file).
func placeCanaries(ctx context.Context, wt *tree, in dataset.Instance, snap string) ([]Canary, string, error) {
	if m := selectsByName(in.TestCommand); m != "" {
		return nil, "canaries not placed: the test command selects tests by name (" + strings.TrimSpace(m) + "), which could leave them out", nil
	}
	hosts := canaryHosts(in)
	if in.SWEBenchPro != nil {
		// run_script.sh runs the files it is given: a host must be one.
		sel := map[string]bool{}
		for _, f := range in.SWEBenchPro.SelectedTestFiles {
			sel[f] = true
		}
		var given []string
		for _, f := range hosts {
			if sel[f] {
				given = append(given, f)
			}
		}
		if len(given) == 0 {
			return nil, "canaries not placed: no test file of the test patch that a " + in.Language + " runner collects is among the files run_script.sh is given (selected_test_files_to_run)", nil
		}
		hosts = given
	}
	if len(hosts) == 0 {
		if in.Language == dataset.C {
			return nil, "canaries not placed: a C suite's tests are programs its build registers (CMake add_test, ctest) that dispatch on their own tables; an appended test function would never run", nil
		}
		return nil, "canaries not placed: no test file of the test patch that a " + in.Language + " runner collects (Python, JavaScript, TypeScript, Java, Go, Rust, PHP, Ruby, C++ only)", nil
	}
	// One command: the types of the hosts' prefixes in the tree (a line),
	// then the hosts' contents at snap.
	pre := lookups(hosts)
	out, err := wt.script(ctx, lstatFunc+`s=$1 n=$2; shift 2
lst "${@:1:n}"; echo; shift "$n"
for p; do
  if sz=$(g cat-file -s "$s:$p" 2>/dev/null); then printf '%s\0' "$sz"; g cat-file blob "$s:$p" || exit 1; else printf -- '-\0'; fi
done`, append(append([]string{snap, strconv.Itoa(len(pre))}, pre...), hosts...)...)
	if err != nil {
		return nil, "", err
	}
	answer, out, _ := bytes.Cut(out, []byte{'\n'})
	lstat, err := modes(pre, answer)
	if err != nil {
		return nil, "", fmt.Errorf("canaries: %w", err)
	}
	for _, p := range hosts {
		if err := safepath.UnderFS(lstat, p, true); err != nil {
			return nil, "canaries not placed: host file " + p + ": " + err.Error(), nil
		}
	}
	// No must-fail canary in a SWE-bench Pro run: its exit status would
	// be explained only by a FAILED line in parser.py's output, which a
	// parser that reads only the tests it knows leaves out.
	failCanary := !reStopsAtFailure().MatchString(in.TestCommand) && in.SWEBenchPro == nil
	var all []Canary
	var files []runtime.File
	for _, p := range hosts {
		head, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return nil, "", fmt.Errorf("canaries: read the host files: short answer")
		}
		if string(head) == "-" {
			out = rest
			continue
		}
		n, err := strconv.Atoi(string(head))
		if err != nil || n > len(rest) {
			return nil, "", fmt.Errorf("canaries: read the host files: bad size %q", head)
		}
		src := rest[:n]
		out = rest[n:]
		cs := []Canary{{Name: newCanaryName(), File: p}}
		if failCanary && len(all) == 0 {
			cs = append(cs, Canary{Name: newCanaryName(), File: p, Fail: true})
		}
		bodies := make([]canaryBody, len(cs))
		for i, c := range cs {
			bodies[i] = newCanaryBody(c.Fail)
		}
		code, ok := canaryCode(in.Language, src, cs, bodies)
		if !ok {
			continue
		}
		all = append(all, cs...)
		files = append(files, runtime.File{Path: p, Data: code})
	}
	if len(files) == 0 {
		return nil, "canaries not placed: no host file is in a framework canaries are written for (" + strings.Join(hosts, ", ") + ")", nil
	}
	if err := wt.writeTree(ctx, files); err != nil {
		return nil, "", fmt.Errorf("canaries: write the host files: %w", err)
	}
	return all, "", nil
}

// canaryOutcome is what the canaries of a run say about its reading.
type canaryOutcome struct {
	// rest is the reading without the canaries' results.
	rest []testlog.Result
	// failed: a must-fail canary failed (which explains a non-zero exit
	// status).
	failed bool
	// problem is why the run is tampered ("" when it is not).
	problem string
}

// checkCanaries splits the canaries' results from a reading and checks
// them. A reading with no other result is not judged (the run reported
// nothing: see Grade), nor is a canary missing from a host file the
// reading reports as not loading (a FAILED or ERROR result whose id
// names the file but no test in it).
func checkCanaries(cs []Canary, results []testlog.Result) canaryOutcome {
	var o canaryOutcome
	if len(cs) == 0 {
		o.rest = results
		return o
	}
	got := make([][]testlog.Status, len(cs))
	for _, r := range results {
		mine := false
		for i, c := range cs {
			if strings.Contains(r.ID, c.Name) {
				got[i] = append(got[i], r.Status)
				mine = true
			}
		}
		if !mine {
			o.rest = append(o.rest, r)
		}
	}
	var problems []string
	for i, c := range cs {
		ss := got[i]
		switch {
		case len(ss) == 0:
			if !fileDidNotLoad(c.File, o.rest) {
				problems = append(problems, fmt.Sprintf("canary %s (must %s) in %s is missing from the report: the runner did not run that file, or the report is not the runner's", c.Name, must(c), c.File))
			}
			continue
		}
		for _, s := range ss {
			bad := false
			if c.Fail {
				bad = s != testlog.Failed && s != testlog.Error
			} else {
				bad = s != testlog.Passed
			}
			if bad {
				problems = append(problems, fmt.Sprintf("canary %s in %s must %s and is reported %s: the outcome was rewritten in the test process", c.Name, c.File, must(c), s))
				break
			}
		}
		if c.Fail && len(ss) > 0 && (ss[0] == testlog.Failed || ss[0] == testlog.Error) {
			o.failed = true
		}
	}
	if len(o.rest) == 0 {
		return o
	}
	if len(problems) > 0 {
		o.problem = "tampered: " + problems[0]
		if len(problems) > 1 {
			o.problem += fmt.Sprintf(" (and %d more canary problems)", len(problems)-1)
		}
	}
	return o
}

func must(c Canary) string {
	if c.Fail {
		return "fail"
	}
	return "pass"
}

// fileDidNotLoad reports whether results hold a FAILED or ERROR result
// for test file f itself (pytest's collection error "tests/test_x.py",
// a Jest suite that failed to load): an id that is f, or f without its
// extension, or that names f with no test after it.
func fileDidNotLoad(f string, results []testlog.Result) bool {
	stem := strings.TrimSuffix(f, path.Ext(f))
	for _, r := range results {
		if r.Status != testlog.Failed && r.Status != testlog.Error {
			continue
		}
		id := strings.TrimSuffix(strings.TrimSuffix(r.ID, "->"), "::")
		if id == f || id == stem || strings.HasSuffix(id, "/"+f) || id == strings.ReplaceAll(stem, "/", ".") {
			return true
		}
	}
	return false
}

// reJSIt: a call of Mocha's or Jest's it(), not a method named it.
var reJSIt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^\w.$])it\s*\(`) })

// rePublic: the public modifier among a declaration's modifiers.
var rePublic = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|\s)public(\s|$)`) })

// javaClassEnd returns the offset of the closing brace of the test class
// of a Java file: the body of its public top-level class, else of its
// first top-level class (a file may declare helper classes after the
// test class, whose methods JUnit never runs as the test class's). When
// the file does not parse as Java, or declares no top-level class, it
// falls back to the last '}' of the file; -1 when there is none.
func javaClassEnd(src []byte) int {
	last := bytes.LastIndexByte(src, '}')
	tree, err := syntax.ParseOnce(syntax.Java, src)
	if err != nil || tree.HasError() {
		return last
	}
	defer tree.Release()
	body := syntax.NoNode
	for _, id := range tree.NamedChildren(tree.Root()) {
		if tree.Kind(id) != "class_declaration" {
			continue
		}
		b := tree.ChildByField(id, "body")
		if b == syntax.NoNode {
			continue
		}
		public := false
		if m := tree.FirstChildOfKind(id, "modifiers"); m != syntax.NoNode {
			public = rePublic().Match(tree.Text(m))
		}
		if body == syntax.NoNode || public {
			body = b
		}
		if public {
			break
		}
	}
	if body == syntax.NoNode {
		return last
	}
	end := int(tree.Node(body).EndByte) - 1
	if end < 0 || end >= len(src) || src[end] != '}' {
		return last
	}
	return end
}
