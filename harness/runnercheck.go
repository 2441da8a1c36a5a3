package harness

import (
	"context"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/syntax"
)

// The runner-internals check: a static check of the code a model patch
// adds outside the tests, flagging what reaches into the test runner or
// the process's reporting (issue 28). Code the tests import runs inside
// the runner's process, where it can rewrite outcomes (a pytest hook
// registered from a library module, a fake report printed before
// process.exit(0)); canaries (canary.go) catch the forgeries that do not
// read them, this check names the code. A flagged patch is listed in
// Record.RunnerInternals with file and line, and is unresolved in strict
// mode; the other modes report it and grade as before.
//
// Rules, on the lines the patch adds (file:line of each finding):
//
//	Python (syntax/pyparse):  pytest-hook      a function named pytest_*
//	                          pytest-internals an import of _pytest; the
//	                                           attribute pluginmanager
//	                          sys-modules      an assignment into sys.modules,
//	                                           or sys.modules.update/setdefault/
//	                                           __setitem__/pop
//	                          builtins         an assignment to an attribute or
//	                                           item of builtins/__builtins__,
//	                                           setattr(builtins, ...)
//	                          os-exit          os._exit(...)
//	                          atexit-output    atexit.register(...) in a file
//	                                           that writes to stdout or stderr
//	JS/TS (tree-sitter):      stdout-replace   an assignment to process.stdout.
//	                                           write or process.stderr.write
//	                          process-exit     process.exit / reallyExit / abort
//	                                           called or replaced
//	                          runner-global    describe/it/beforeEach/... called,
//	                                           typeof of a Jest or Mocha global,
//	                                           a member of jest/mocha/Mocha,
//	                                           JEST_WORKER_ID, a require or
//	                                           import of mocha, jest, vitest
//	Java (tree-sitter):       system-exit      System.exit, Runtime...halt/exit
//	                          junit-listener   an import of JUnit's launcher,
//	                                           listener or extension API or of
//	                                           Surefire; a class implementing
//	                                           or extending a listener type
//	Any file (by path):       conftest         a conftest.py the patch adds or
//	                                           changes outside test directories
//	                          junit-listener   a META-INF/services file
//	                                           registering a JUnit listener or
//	                                           extension
//
// Test files (isTestFile) are not checked: the harness resets them.

// RunnerFinding is one place where a model patch's code reaches into the
// test runner or the process's reporting.
type RunnerFinding struct {
	File string `json:"file"`
	Line int    `json:"line"` // 1-based, in the file after the patch
	Rule string `json:"rule"`
	// Text is the code found (at most 120 bytes).
	Text string `json:"text"`
}

func (f RunnerFinding) String() string {
	return f.File + ":" + strconv.Itoa(f.Line) + ": " + f.Rule + ": " + f.Text
}

var (
	jsRunnerCalls   = map[string]bool{"describe": true, "it": true, "beforeEach": true, "afterEach": true, "beforeAll": true, "afterAll": true, "xit": true, "xdescribe": true, "fit": true, "fdescribe": true, "suite": true, "suiteSetup": true}
	jsRunnerGlobals = map[string]bool{"describe": true, "it": true, "test": true, "expect": true, "jest": true, "mocha": true, "Mocha": true, "before": true, "after": true, "beforeEach": true, "afterEach": true, "beforeAll": true, "afterAll": true, "suite": true}
	reJSRunnerMod   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^['"](mocha|jest|vitest|@jest/|jest-|@vitest/)`) })
	reJavaListener  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(org\.junit\.platform\.launcher|org\.junit\.runner\.notification|org\.junit\.jupiter\.api\.extension|org\.junit\.rules|org\.apache\.maven\.surefire|org\.testng\.(ITestListener|IReporter|ISuiteListener|IInvokedMethodListener))`)
	})
	reJavaListenerT = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(TestExecutionListener|RunListener|TestWatcher|TestExecutionExceptionHandler|InvocationInterceptor|LauncherSessionListener|PostDiscoveryFilter|LauncherDiscoveryListener|ITestListener|IReporter)\b`)
	})
	rePyInternals = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b_pytest\b`) })
	rePyOutput    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bprint\s*\(|\bstdout\b|\bstderr\b|\bos\.write\s*\(`)
	})
	reServicesFile = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|/)META-INF/services/(org\.junit\.|org\.testng\.)`)
	})
)

// CheckRunnerPaths returns the findings of the path rules for the paths a
// model patch adds or changes.
func CheckRunnerPaths(paths []string) []RunnerFinding {
	var out []RunnerFinding
	for _, p := range paths {
		switch {
		case path.Base(p) == "conftest.py" && !underTestDir(p):
			out = append(out, RunnerFinding{File: p, Line: 1, Rule: "conftest", Text: "conftest.py added or changed by the model patch"})
		case reServicesFile().MatchString(p):
			out = append(out, RunnerFinding{File: p, Line: 1, Rule: "junit-listener", Text: "registers " + path.Base(p)})
		}
	}
	return out
}

// underTestDir reports whether a directory of p is a test directory.
func underTestDir(p string) bool {
	for _, el := range strings.Split(path.Dir(p), "/") {
		if testDirs[el] {
			return true
		}
	}
	return false
}

// CheckRunnerInternals parses src, the content of file name after the
// patch, and returns the findings on the lines in added (1-based; nil:
// every line). A file in no language syntax parses, or that does not
// parse, gives none.
func CheckRunnerInternals(p *syntax.Parser, name string, src []byte, added map[int]bool) []RunnerFinding {
	lang, ok := syntax.LanguageForPath(name)
	if !ok {
		return nil
	}
	t, err := p.Parse(lang, src)
	if err != nil {
		return nil
	}
	defer t.Release()
	var out []RunnerFinding
	add := func(id syntax.NodeID, rule string) {
		line := t.Line(id)
		if added != nil && !added[line] {
			return
		}
		text := strings.Join(strings.Fields(t.TextString(id)), " ")
		if len(text) > 120 {
			text = text[:120]
		}
		out = append(out, RunnerFinding{File: name, Line: line, Rule: rule, Text: text})
	}
	text := func(id syntax.NodeID) string {
		if id == syntax.NoNode || int(id) >= len(t.Nodes) {
			return ""
		}
		return strings.Join(strings.Fields(t.TextString(id)), "")
	}
	field := func(id syntax.NodeID, f string) syntax.NodeID { return t.ChildByField(id, f) }
	pyOutput := lang == syntax.Python && rePyOutput().Match(src)
	for i := range t.Nodes {
		id := syntax.NodeID(i)
		kind := t.Kind(id)
		switch lang {
		case syntax.Python:
			switch kind {
			case "function_definition":
				if strings.HasPrefix(text(field(id, "name")), "pytest_") {
					add(id, "pytest-hook")
				}
			case "import_statement", "import_from_statement":
				if rePyInternals().MatchString(t.TextString(id)) {
					add(id, "pytest-internals")
				}
			case "attribute":
				if text(field(id, "attribute")) == "pluginmanager" {
					add(id, "pytest-internals")
				}
			case "assignment", "augmented_assignment":
				l := text(field(id, "left"))
				switch {
				case strings.HasPrefix(l, "sys.modules["):
					add(id, "sys-modules")
				case strings.HasPrefix(l, "builtins.") || strings.HasPrefix(l, "__builtins__.") || strings.HasPrefix(l, "__builtins__[") || strings.HasPrefix(l, "builtins.__dict__["):
					add(id, "builtins")
				}
			case "call":
				fn := text(field(id, "function"))
				args := text(field(id, "arguments"))
				switch {
				case fn == "os._exit" || fn == "_exit" && strings.Contains(string(src), "from os import"):
					add(id, "os-exit")
				case fn == "sys.modules.update" || fn == "sys.modules.setdefault" || fn == "sys.modules.__setitem__" || fn == "sys.modules.pop":
					add(id, "sys-modules")
				case fn == "setattr" && (strings.HasPrefix(args, "(builtins,") || strings.HasPrefix(args, "(__builtins__,")):
					add(id, "builtins")
				case (fn == "atexit.register" || fn == "register" && strings.Contains(string(src), "from atexit import")) && pyOutput:
					add(id, "atexit-output")
				}
			}
		case syntax.JavaScript, syntax.TypeScript, syntax.TSX:
			switch kind {
			case "assignment_expression":
				l := text(field(id, "left"))
				switch l {
				case "process.stdout.write", "process.stderr.write":
					add(id, "stdout-replace")
				case "process.exit", "process.reallyExit", "process.abort":
					add(id, "process-exit")
				}
			case "call_expression":
				fn := text(field(id, "function"))
				switch {
				case fn == "process.exit" || fn == "process.reallyExit" || fn == "process.abort":
					add(id, "process-exit")
				case jsRunnerCalls[fn]:
					add(id, "runner-global")
				case fn == "require" && reJSRunnerMod().MatchString(strings.TrimPrefix(text(field(id, "arguments")), "(")):
					add(id, "runner-global")
				}
			case "unary_expression":
				if op := field(id, "operator"); op != syntax.NoNode && text(op) == "typeof" && jsRunnerGlobals[text(field(id, "argument"))] {
					add(id, "runner-global")
				}
			case "member_expression":
				o, prop := text(field(id, "object")), text(field(id, "property"))
				if o == "jest" || o == "mocha" || o == "Mocha" || prop == "JEST_WORKER_ID" {
					add(id, "runner-global")
				}
			case "import_statement":
				if reJSRunnerMod().MatchString(text(field(id, "source"))) {
					add(id, "runner-global")
				}
			}
		case syntax.Java:
			switch kind {
			case "method_invocation":
				o, n := text(field(id, "object")), text(field(id, "name"))
				if o == "System" && n == "exit" || strings.HasSuffix(o, "Runtime.getRuntime()") && (n == "halt" || n == "exit") {
					add(id, "system-exit")
				}
			case "import_declaration":
				s := strings.TrimPrefix(strings.TrimPrefix(text(id), "import"), "static")
				if reJavaListener().MatchString(s) {
					add(id, "junit-listener")
				}
			case "superclass", "super_interfaces":
				if reJavaListenerT().MatchString(t.TextString(id)) {
					add(id, "junit-listener")
				}
			}
		}
	}
	return out
}

// maxCheckedFiles and maxCheckedBytes bound the runner-internals check of
// one patch: the first files in path order, each up to 1 MiB.
const (
	maxCheckedFiles = 200
	maxCheckedBytes = 1 << 20
)

// checkRunnerInternals runs the check over the model patch's non-test
// files in the work tree (after guardTests): patch is the diff the model
// patch made (the applied diff when GNU patch's fuzz applied it). Files
// that cannot be read are skipped.
func checkRunnerInternals(ctx context.Context, wt *tree, patch string) []RunnerFinding {
	files, err := diff.Parse(patch)
	if err != nil {
		return nil
	}
	var paths []string
	added := map[string]map[int]bool{}
	for _, f := range files {
		p := f.Path()
		if f.IsDelete || safepath.Check(p) != nil {
			continue
		}
		paths = append(paths, p)
		m := map[int]bool{}
		for _, l := range f.AddedLines() {
			m[l] = true
		}
		added[p] = m
	}
	sort.Strings(paths)
	out := CheckRunnerPaths(paths)
	parser := syntax.NewParser()
	defer parser.Close()
	n := 0
	for _, p := range paths {
		if _, ok := syntax.LanguageForPath(p); !ok || isTestFile(p) || len(added[p]) == 0 {
			continue
		}
		if n++; n > maxCheckedFiles {
			break
		}
		got, err := wt.sb.CopyOut(ctx, p, maxCheckedBytes)
		if err != nil || len(got) != 1 {
			continue
		}
		out = append(out, CheckRunnerInternals(parser, p, got[0].Data, added[p])...)
	}
	return out
}

// applyRunnerFindings makes the strict verdict unresolved when the model
// patch's code reaches into the runner (findings non-empty).
func applyRunnerFindings(v *Verdicts, fs []RunnerFinding) {
	if len(fs) == 0 || v.Strict.Status != StatusResolved {
		return
	}
	v.Strict.Resolved, v.Strict.Status = false, StatusUnresolved
	v.Strict.Reason = "strict: the model patch's code reaches into the test runner (" + fs[0].String()
	if len(fs) > 1 {
		v.Strict.Reason += ", and " + strconv.Itoa(len(fs)-1) + " more"
	}
	v.Strict.Reason += ")"
}
