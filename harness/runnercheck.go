package harness

import (
	"bytes"
	"context"
	"errors"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/safepath"
	"github.com/polynfi/polynfi/runrecord"
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
//	                          import-hook      sys.meta_path or sys.path_hooks
//	                                           assigned or changed (insert,
//	                                           append, extend, __setitem__...)
//	                          stdout-replace   an assignment to sys.stdout,
//	                                           sys.stderr or their __ dunders
//	                          pytest-internals also __import__ or
//	                                           importlib.import_module of
//	                                           pytest or _pytest, and a
//	                                           string naming _pytest or
//	                                           pluginmanager (getattr)
//	JS/TS (tree-sitter):      stdout-replace   an assignment to process.stdout.
//	                                           write or process.stderr.write
//	                          process-exit     process.exit / reallyExit / abort
//	                                           called or replaced
//	                          runner-global    describe/it/beforeEach/... called,
//	                                           typeof of a Jest or Mocha global,
//	                                           a member of jest/mocha/Mocha,
//	                                           JEST_WORKER_ID, a require or
//	                                           import of mocha, jest, vitest
//	                          module-loader    require.cache, require.extensions,
//	                                           Module._load, _resolveFilename,
//	                                           _extensions, _cache, _compile (of
//	                                           Module, module.constructor or
//	                                           require('module')),
//	                                           Module.prototype.require or
//	                                           _compile: read or written
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
// Test files (isTestFile) are not checked: the harness resets them. A file
// the patch adds, copies, renames or gives as a binary patch is checked
// whole; a patch that cannot be parsed is one finding (rule "unparsed"),
// never a pass.

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
	rePyRunnerStr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b_pytest\b|\bpluginmanager\b`) })
	rePyRunnerMod = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\(\s*['"](_?pytest)(\.|['"])`) })
	reJSModuleObj = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(Module|module\.constructor|require\((['"])(node:)?module['"]\)|[A-Za-z_$][\w$]*\.Module)$`)
	})
	jsModuleProps = map[string]bool{"_load": true, "_resolveFilename": true, "_extensions": true, "_cache": true, "_compile": true}
	pySysHooks    = map[string]bool{"sys.meta_path": true, "sys.path_hooks": true}
	pyStdStreams  = map[string]bool{"sys.stdout": true, "sys.stderr": true, "sys.__stdout__": true, "sys.__stderr__": true}
)

// CheckRunnerPaths returns the findings of the path rules for the paths a
// model patch adds or changes; created tells the paths whose whole content
// is the patch's (new, copied or renamed files; nil: none).
//
// Besides conftest.py outside test directories and JUnit/TestNG listener
// registrations, a created file may not shadow a test framework: a Java,
// Kotlin, Groovy or Scala source in a test framework's package (org.junit,
// junit.framework, org.opentest4j, org.testng, org.hamcrest, org.assertj;
// compiled classes come before the framework's jar on the test class path,
// so a no-op org.junit.Assert would make failing assertions pass), a
// Python module or package named pytest, _pytest, pluggy or unittest (the
// work tree comes first on sys.path; a package only by its __init__.py, as
// a directory without one does not shadow an installed package), a
// sitecustomize or usercustomize module (run at start-up), or any file
// under a node_modules directory (Node resolves packages from there before
// the installed ones). Changing such a file that exists (the framework's
// own repository) is not a finding. guardTests removes such created files
// before the tests run.
func CheckRunnerPaths(paths []string, created func(path string) bool) []runrecord.RunnerFinding {
	var out []runrecord.RunnerFinding
	for _, p := range paths {
		switch {
		case path.Base(p) == "conftest.py" && !underTestDir(p):
			out = append(out, runrecord.RunnerFinding{File: p, Line: 1, Rule: "conftest", Text: "conftest.py added or changed by the model patch"})
		case reServicesFile().MatchString(p):
			out = append(out, runrecord.RunnerFinding{File: p, Line: 1, Rule: "junit-listener", Text: "registers " + path.Base(p)})
		case created != nil && created(p):
			if what := shadowedFramework(p); what != "" {
				out = append(out, runrecord.RunnerFinding{File: p, Line: 1, Rule: "framework-shadow", Text: "a new file shadows " + what})
			}
		}
	}
	return out
}

var (
	reJVMFrameworkFile = regexp.MustCompile(`(^|/)(org/junit|junit/framework|org/opentest4j|org/testng|org/hamcrest|org/assertj)/.*\.(java|kt|groovy|scala|class)$`)
	rePyFrameworkFile  = regexp.MustCompile(`(^|/)((pytest|_pytest|pluggy|unittest)(\.py|/__init__\.py)|(sitecustomize|usercustomize)\.py)$`)
)

// shadowedFramework names the test framework a created file at p would be
// loaded instead of ("" for none): see CheckRunnerPaths.
func shadowedFramework(p string) string {
	switch {
	case reJVMFrameworkFile.MatchString(p):
		return "a JVM test framework's package"
	case rePyFrameworkFile.MatchString(p):
		return "a Python test framework's module"
	case strings.HasPrefix(p, "node_modules/") || strings.Contains(p, "/node_modules/"):
		return "an installed Node package (node_modules)"
	}
	return ""
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
// parse, gives none; a file that nests too deep to parse within
// syntax's budget (syntax.BudgetError) gives one "unchecked" finding, since
// it could hide any of the others (strict mode then does not resolve).
func CheckRunnerInternals(p *syntax.Parser, name string, src []byte, added map[int]bool) []runrecord.RunnerFinding {
	lang, ok := syntax.LanguageForPath(name)
	if !ok {
		return nil
	}
	t, err := p.Parse(lang, src)
	var be *syntax.BudgetError
	if errors.As(err, &be) {
		line := 1 + bytes.Count(src[:min(be.Offset, len(src))], []byte{'\n'})
		return []runrecord.RunnerFinding{{File: name, Line: line, Rule: "unchecked", Text: "nests too deep to check: " + err.Error()}}
	}
	if err != nil {
		return nil
	}
	defer t.Release()
	var out []runrecord.RunnerFinding
	add := func(id syntax.NodeID, rule string) {
		line := t.Line(id)
		if added != nil && !added[line] {
			return
		}
		text := strings.Join(strings.Fields(t.TextString(id)), " ")
		if len(text) > 120 {
			text = text[:120]
		}
		out = append(out, runrecord.RunnerFinding{File: name, Line: line, Rule: rule, Text: text})
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
				case pySysHooks[l] || strings.HasPrefix(l, "sys.meta_path[") || strings.HasPrefix(l, "sys.path_hooks["):
					add(id, "import-hook")
				case pyStdStreams[l]:
					add(id, "stdout-replace")
				}
			case "string":
				if rePyRunnerStr().MatchString(t.TextString(id)) {
					add(id, "pytest-internals")
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
				case fn == "setattr" && (strings.HasPrefix(args, "(sys,'meta_path'") || strings.HasPrefix(args, "(sys,\"meta_path\"")):
					add(id, "import-hook")
				case strings.HasPrefix(fn, "sys.meta_path.") || strings.HasPrefix(fn, "sys.path_hooks."):
					if m := fn[strings.LastIndex(fn, ".")+1:]; m != "index" && m != "count" && m != "copy" {
						add(id, "import-hook")
					}
				case (fn == "__import__" || fn == "importlib.import_module" || fn == "import_module") && rePyRunnerMod().MatchString(args):
					// A string naming _pytest is already a finding.
					if !strings.Contains(args, "_pytest") {
						add(id, "pytest-internals")
					}
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
				switch {
				case o == "jest" || o == "mocha" || o == "Mocha" || prop == "JEST_WORKER_ID":
					add(id, "runner-global")
				case o == "require" && (prop == "cache" || prop == "extensions"),
					jsModuleProps[prop] && reJSModuleObj().MatchString(o),
					(o == "Module.prototype" || o == "module.constructor.prototype") && (prop == "require" || prop == "_compile"):
					add(id, "module-loader")
				}
			case "subscript_expression":
				// require['cache'], Module['_load']
				o, ix := text(field(id, "object")), strings.Trim(text(field(id, "index")), `'"`+"`")
				if o == "require" && (ix == "cache" || ix == "extensions") || jsModuleProps[ix] && reJSModuleObj().MatchString(o) {
					add(id, "module-loader")
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
func checkRunnerInternals(ctx context.Context, wt *tree, patch string) []runrecord.RunnerFinding {
	paths, added, err := patchAddedLines(patch)
	if err != nil {
		return []runrecord.RunnerFinding{{File: "(model patch)", Line: 1, Rule: "unparsed", Text: "the model patch could not be parsed for the check: " + clip(err.Error(), 100)}}
	}
	out := CheckRunnerPaths(paths, func(p string) bool { m, ok := added[p]; return ok && m == nil })
	parser := syntax.NewParser()
	defer parser.Close()
	var check []string
	for _, p := range paths {
		if _, ok := syntax.LanguageForPath(p); !ok || isTestFile(p) || added[p] != nil && len(added[p]) == 0 {
			continue
		}
		if len(check) == maxCheckedFiles {
			break
		}
		check = append(check, p)
	}
	// The files as the patch left them, read in one command.
	got, err := wt.readFiles(ctx, check, maxCheckedBytes)
	if err != nil {
		return out
	}
	for _, p := range check {
		if data, ok := got[p]; ok {
			out = append(out, CheckRunnerInternals(parser, p, data, added[p])...)
		}
	}
	return out
}

// patchAddedLines returns the paths patch adds or changes (sorted; not
// the ones it deletes, nor unsafe ones) and, per path, the 1-based lines
// it adds in the file after the patch: nil for a path whose whole content
// is the patch's (a new, copied or renamed file, or a binary patch, which
// has no hunks), an empty map for one it changes without adding a line.
// The error is diff.Parse's.
func patchAddedLines(patch string) ([]string, map[string]map[int]bool, error) {
	files, err := diff.Parse(patch)
	if err != nil {
		return nil, nil, err
	}
	var paths []string
	added := map[string]map[int]bool{}
	for _, f := range files {
		p := f.Path()
		if f.IsDelete || safepath.Check(p) != nil {
			continue
		}
		paths = append(paths, p)
		if f.IsNew || f.IsBinary || f.IsRename || f.IsCopy {
			added[p] = nil
			continue
		}
		m := map[int]bool{}
		for _, l := range f.AddedLines() {
			m[l] = true
		}
		added[p] = m
	}
	sort.Strings(paths)
	return paths, added, nil
}

// applyRunnerFindings makes the strict verdict unresolved when the model
// patch's code reaches into the runner (findings non-empty).
func applyRunnerFindings(v *grading.Verdicts, fs []runrecord.RunnerFinding) {
	if len(fs) == 0 || v.Strict.Status != grading.StatusResolved {
		return
	}
	v.Strict.Resolved, v.Strict.Status = false, grading.StatusUnresolved
	v.Strict.Reason = "strict: the model patch's code reaches into the test runner (" + fs[0].String()
	if len(fs) > 1 {
		v.Strict.Reason += ", and " + strconv.Itoa(len(fs)-1) + " more"
	}
	v.Strict.Reason += ")"
}

// clip cuts s to at most n bytes.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
