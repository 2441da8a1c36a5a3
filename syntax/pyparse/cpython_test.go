package pyparse_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax/pyparse"
)

// pythonFor returns the CPython 3.minor interpreter of this machine:
// python3.N on PATH when it runs and reports that version, else the newest
// pyenv build ($PYENV_ROOT, default ~/.pyenv, versions/3.N.*/bin/python3.N).
// ok is false when there is none.
func pythonFor(minor int) (path string, ok bool) {
	pythonsOnce.Do(findPythons)
	path, ok = pythons[minor]
	return path, ok
}

var (
	pythonsOnce sync.Once
	pythons     = map[int]string{}
)

func findPythons() {
	root := os.Getenv("PYENV_ROOT")
	if root == "" {
		if h, err := os.UserHomeDir(); err == nil {
			root = filepath.Join(h, ".pyenv")
		}
	}
	for minor := 8; minor <= pyparse.Latest; minor++ {
		name := fmt.Sprintf("python3.%d", minor)
		var cands []string
		if p, err := exec.LookPath(name); err == nil {
			cands = append(cands, p)
		}
		if root != "" {
			dirs, _ := filepath.Glob(filepath.Join(root, "versions", fmt.Sprintf("3.%d.*", minor)))
			sort.Slice(dirs, func(i, j int) bool { return patchOf(dirs[i]) > patchOf(dirs[j]) })
			for _, d := range dirs {
				cands = append(cands, filepath.Join(d, "bin", name))
			}
		}
		for _, c := range cands {
			// a pyenv shim exists for every installed version but fails
			// unless that version is selected: run it to be sure
			out, err := exec.Command(c, "-c", "import sys; print(sys.version_info[1])").Output()
			if err == nil && strings.TrimSpace(string(out)) == strconv.Itoa(minor) {
				pythons[minor] = c
				break
			}
		}
	}
}

func patchOf(dir string) int {
	parts := strings.Split(filepath.Base(dir), ".")
	n, _ := strconv.Atoi(parts[len(parts)-1])
	return n
}

// verdict is CPython's answer for one source: valid, or the first error's
// line, column (SyntaxError.offset) and message.
type verdict struct {
	Valid bool   `json:"valid"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
	Msg   string `json:"msg"`
}

func (v verdict) String() string {
	if v.Valid {
		return "valid"
	}
	return fmt.Sprintf("%d:%d: %s", v.Line, v.Col, v.Msg)
}

// oracleScript reads base64 sources, one a line, and answers each with
// ast.parse's verdict on the bytes as JSON, one a line.
const oracleScript = `
import ast, sys, json, base64, warnings
warnings.simplefilter("ignore")
for line in sys.stdin:
    src = base64.b64decode(line.strip())
    try:
        ast.parse(src)
        r = {"valid": True}
    except SyntaxError as e:
        r = {"line": e.lineno or 0, "col": e.offset or 0, "msg": str(e.msg)}
    except (ValueError, UnicodeError, MemoryError, RecursionError) as e:
        r = {"line": 0, "col": 0, "msg": type(e).__name__ + ": " + str(e)}
    print(json.dumps(r), flush=False)
sys.stdout.flush()
`

// cpythonBatch runs ast.parse of the interpreter py on every source in one
// process and returns the verdicts in order.
func cpythonBatch(t testing.TB, py string, srcs [][]byte) []verdict {
	t.Helper()
	var in strings.Builder
	for _, s := range srcs {
		in.WriteString(base64.StdEncoding.EncodeToString(s))
		in.WriteByte('\n')
	}
	cmd := exec.Command(py, "-c", oracleScript)
	cmd.Stdin = strings.NewReader(in.String())
	cmd.Env = append(os.Environ(), "PYTHONINTMAXSTRDIGITS=4300", "PYTHONIOENCODING=utf-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s oracle: %v", py, err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var res []verdict
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s oracle: %v in %q", py, err, sc.Text())
		}
		res = append(res, v)
	}
	if len(res) != len(srcs) {
		t.Fatalf("%s oracle answered %d of %d sources", py, len(res), len(srcs))
	}
	return res
}

// item11 are the cases of issue 24 item 11, each with the versions CPython
// accepts it in (from the issue and CPython's grammar and changelogs), and
// for some the error CPython reports ("line:col: msg") at every version
// that rejects it.
var item11 = []struct {
	name  string
	src   string
	valid func(minor int) bool
	err   map[int]string // minor → CPython's error, where it matters
}{
	{"await await", "async def f():\n    await await x\n", never, nil},
	{"case 1+2", "match x:\n    case 1+2:\n        pass\n", never,
		map[int]string{10: "2:12: imaginary number required in complex literal", 14: "2:12: imaginary number required in complex literal"}},
	{"case 1j+2j", "match x:\n    case 1j+2j:\n        pass\n", never,
		map[int]string{11: "2:10: real number required in complex literal"}},
	{"case {**_}", "match x:\n    case {**_}:\n        pass\n", never, map[int]string{11: "2:13: invalid syntax"}},
	{"f'{*a}'", "f'{*a}'\n", func(m int) bool { return m < 9 || m >= 12 },
		map[int]string{9: "1:2: f-string: can't use starred expression here", 11: "1:2: f-string: cannot use starred expression here"}},
	{"def f[]()", "def f[]():\n    pass\n", never,
		map[int]string{11: "1:6: expected '('", 12: "1:6: expected '('", 13: "1:7: Type parameter list cannot be empty"}},
	{"class A[]", "class A[]: pass\n", never, map[int]string{13: "1:9: Type parameter list cannot be empty"}},
	{"nested format specs", "f'{x:{y:{z}}}'\n", since(12),
		map[int]string{8: "1:1: f-string: expressions nested too deeply", 11: "1:15: f-string: expressions nested too deeply"}},
	{"triply nested format specs", "f'{x:{y:{z:{w}}}}'\n", never,
		map[int]string{12: "1:11: f-string: expressions nested too deeply", 14: "1:11: f-string: expressions nested too deeply"}},
	{"int 4301 digits", "x = " + strings.Repeat("1", 4301) + "\n", never, nil},
	{"int 4300 digits", "x = " + strings.Repeat("1", 4300) + "\n", always, nil},
	{"int 5000 zeros", "x = " + strings.Repeat("0", 5000) + "\n", always, nil},
	{"hex 5000 digits", "x = 0x" + strings.Repeat("f", 5000) + "\n", always, nil},
	{"with (a as b, c)", "with (a as b, c):\n    pass\n", since(9), map[int]string{8: "1:9: invalid syntax"}},
	{"{x := 1}", "{x := 1}\n", since(9), map[int]string{8: "1:4: invalid syntax"}},
	{"a[b := 0]", "a[b := 0]\n", since(10), map[int]string{8: "1:5: invalid syntax", 9: "1:5: invalid syntax"}},
	{"t'a' 'b'", "t'a' 'b'\n", never, map[int]string{14: "1:1: cannot mix t-string literals with string or bytes literals"}},
	{"t'a' f'b'", "t'a' f'b'\n", never, map[int]string{14: "1:1: cannot mix t-string literals with string or bytes literals"}},
	{"except A, B as e", "try:\n    pass\nexcept A, B as e:\n    pass\n", never,
		map[int]string{11: "3:8: multiple exception types must be parenthesized",
			14: "3:8: multiple exception types must be parenthesized when using 'as'"}},
	{"except A, B", "try:\n    pass\nexcept A, B:\n    pass\n", since(14), nil},
	{"except* A, B", "try:\n    pass\nexcept* A, B:\n    pass\n", since(14),
		map[int]string{11: "3:9: multiple exception types must be parenthesized"}},
	{"with (yield from lock)", "def f():\n    with (yield from lock):\n        pass\n", always, nil},
	{"with (yield)", "with (yield):\n    pass\n", always, nil},
	{"with (a := b)", "with (a := b):\n    pass\n", always, nil},
	{"1 if 1else 0", "1 if 1else 0\n", always, nil},
	{"BOM and utf-8-sig", "\xef\xbb\xbf# coding: utf-8-sig\nx = 1\n", always, nil},
	{"utf-8-sig", "# -*- coding: utf-8-sig -*-\nx = 1\n", always, nil},
	{"non-UTF-8 byte in a comment", "x = 1  # caf\xe9\ny = 2\n", always, nil},
	{"non-UTF-8 byte in a string", "x = 'caf\xe9'\n", never, nil},
	{"CR-only line continuation", "x = 1 + \\\r2\n", always, nil},
}

func never(int) bool             { return false }
func always(int) bool            { return true }
func since(v int) func(int) bool { return func(m int) bool { return m >= v } }

// TestIssue24Item11 checks each case of issue 24 item 11 at every
// --python-version: pyparse's verdict, and CPython's error where the case
// gives it. Where that CPython is installed, the expectations themselves
// are checked against its ast.parse.
func TestIssue24Item11(t *testing.T) {
	for minor := 8; minor <= pyparse.Latest; minor++ {
		var srcs [][]byte
		for _, c := range item11 {
			srcs = append(srcs, []byte(c.src))
		}
		var real []verdict
		if py, ok := pythonFor(minor); ok {
			real = cpythonBatch(t, py, srcs)
		}
		for i, c := range item11 {
			want := c.valid(minor)
			_, perr := pyparse.Parse(srcs[i], pyparse.Options{Minor: minor})
			if real != nil && real[i].Valid != want {
				t.Errorf("3.%d %s: the test expects valid=%v, CPython 3.%d says %v", minor, c.name, want, minor, real[i])
			}
			if (perr == nil) != want {
				t.Errorf("3.%d %s: pyparse valid=%v (%v), want %v", minor, c.name, perr == nil, perr, want)
				continue
			}
			if msg, ok := c.err[minor]; ok && perr != nil {
				if perr.Error() != msg {
					t.Errorf("3.%d %s: pyparse %q, want CPython's %q", minor, c.name, perr.Error(), msg)
				}
				if real != nil && real[i].String() != msg {
					t.Errorf("3.%d %s: the test expects %q, CPython says %q", minor, c.name, msg, real[i])
				}
			}
		}
	}
}

// TestIntDigitLimitMessage: past 4,300 digits CPython's error names the
// digit count, at the position each version reports.
func TestIntDigitLimitMessage(t *testing.T) {
	src := []byte("x = 1\ny = 2 + " + strings.Repeat("1", 4301) + "\n")
	want := map[int]string{
		8:  "2:9: Exceeds the limit (4300) for integer string conversion: value has 4301 digits",
		9:  "2:1: Exceeds the limit (4300) for integer string conversion: value has 4301 digits",
		10: "2:0: Exceeds the limit (4300) for integer string conversion: value has 4301 digits",
		11: "2:0: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits",
		14: "2:0: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits",
	}
	for minor, w := range want {
		_, err := pyparse.Parse(src, pyparse.Options{Minor: minor})
		if err == nil || !strings.HasPrefix(err.Error(), w) {
			t.Errorf("3.%d: got %v, want %q...", minor, err, w)
		}
	}
}

// grammarCorpus generates n short programs from templates combining the
// grammar's constructs (statements, expressions, patterns, strings,
// encodings and line ends), valid and invalid, for the comparison with
// each CPython. The same seed gives the same programs.
func grammarCorpus(seed int64, n int) [][]byte {
	r := rand.New(rand.NewSource(seed))
	atoms := []string{"x", "1", "1.5", "1j", "0x1f", "1_000", "'a'", "b'a'", "f'{x}'", "f'{x!r:>{w}}'",
		"f'{x:{y:{z}}}'", "f'{x:{y}}'", "f'{x:{y:{z:{w}}}}'", "f'{x:{y:{z:a{{w}}}}}'", "f'{x:{f\"{y:{z}}\"}}'", "f'{*a}'", "f'{*a, b}'", "f'{x=}'", "f'{\"a\"}'", "t'{x}'", "t'a' 'b'",
		"rb'a'", "'a' 'b'", "f'a' 'b'", "(x)", "[x]", "{x}", "{x: y}", "{**x}", "()", "(x,)", "...", "None",
		"(x := 1)", "x := 1", "await x", "await await x", "await -x", "(yield)", "yield", "yield from x",
		"*a", "**a", "lambda: x", "lambda x=1, *a, **k: x", "x if y else z", "1 if 1else 0", "1if x else y",
		"not x", "-x", "x ** -y", "x[1:2]", "x[b := 0]", "x[b := 0, 1]", "x[*a]", "f(x)", "f(*a, **k)",
		"f(x=1)", "f(x for x in y)", "[x for x in y if z]", "{x := 1}", "{x := 1: 2}", "[x := 1, 2]",
		"(x for x in y)", "a.b.c", "x < y <= z", "x is not y", "x not in y", "1else", "1 if 0else 2",
		strings.Repeat("9", 4301), strings.Repeat("9", 4300), "0" + strings.Repeat("0", 4400)}
	binops := []string{" + ", " * ", ", ", " if c else ", " and ", " | ", " ", " := ", " as ", ""}
	expr := func() string {
		e := atoms[r.Intn(len(atoms))]
		if r.Intn(3) == 0 {
			e += binops[r.Intn(len(binops))] + atoms[r.Intn(len(atoms))]
		}
		return e
	}
	pats := []string{"1", "-1", "1+2", "1+2j", "-1-2j", "1j+2j", "1j+x", "'a' 'b'", "None", "_", "x", "a.b",
		"{**_}", "{**rest}", "{**rest, 'a': 1}", "{'a': 1, **rest}", "[*_]", "[1, *r]", "(1 | 2)", "1 | 2 as y",
		"Point(x=1)", "Point(1, y=2)", "Point(y=2, 1)", "{'k': v}", "(a, b)", "[]", "f'{x}'", "1 + 2 + 3j"}
	stmts := []string{
		"E\n", "x = E\n", "x: E = E\n", "x += E\n", "del E\n", "return E\n", "assert E, E\n", "raise E from E\n",
		"if E:\n    pass\nelif E:\n    pass\n", "while E:\n    pass\n", "for x in E:\n    pass\n",
		"with E:\n    pass\n", "with E as y:\n    pass\n", "with (E):\n    pass\n", "with (E, E):\n    pass\n",
		"with (E as b, E):\n    pass\n", "with (E as b):\n    pass\n", "with (E) as b, (E):\n    pass\n",
		"def f():\n    with (E):\n        pass\n",
		"try:\n    pass\nexcept E:\n    pass\n", "try:\n    pass\nexcept E, E:\n    pass\n",
		"try:\n    pass\nexcept E, E as e:\n    pass\n", "try:\n    pass\nexcept (E, E) as e:\n    pass\n",
		"try:\n    pass\nexcept* E:\n    pass\n", "try:\n    pass\nexcept* E, E:\n    pass\n",
		"try:\n    pass\nexcept* E, E as e:\n    pass\n", "try:\n    pass\nexcept E, E,:\n    pass\n",
		"match E:\n    case P:\n        pass\n", "match x:\n    case P | P:\n        pass\n    case [P, *r]:\n        pass\n",
		"def f(x=E, *a, **k) -> E:\n    pass\n", "def f[T](x: E):\n    pass\n", "def f[]():\n    pass\n",
		"class A[]: pass\n", "class A[T](E): pass\n", "type X = E\n", "type X[] = E\n", "type X[T = E] = T\n",
		"async def f():\n    E\n", "async def f():\n    async with E as y:\n        pass\n",
		"@E\ndef f(): pass\n", "lambda: E\n", "x = [E for y in E if E]\n", "x = {E: E for y in z}\n",
		"print(E, sep=E)\n", "x = E, E\n", "x = (E\n", "x = E)\n", "if E\n    pass\n",
	}
	fill := func(tpl string) string {
		var b strings.Builder
		for _, c := range tpl {
			switch c {
			case 'E':
				b.WriteString(expr())
			case 'P':
				b.WriteString(pats[r.Intn(len(pats))])
			default:
				b.WriteRune(c)
			}
		}
		return b.String()
	}
	var out [][]byte
	for len(out) < n {
		// fill only the placeholders: template text has no other E or P
		src := fill(stmts[r.Intn(len(stmts))])
		if r.Intn(2) == 0 {
			src += fill(stmts[r.Intn(len(stmts))])
		}
		switch r.Intn(12) {
		case 0: // CR-only line ends
			src = strings.ReplaceAll(src, "\n", "\r")
		case 1: // CRLF
			src = strings.ReplaceAll(src, "\n", "\r\n")
		case 2: // a line continuation, LF, CRLF or CR
			ends := []string{"\\\n", "\\\r\n", "\\\r"}
			if i := strings.Index(src, " "); i >= 0 {
				src = src[:i] + " " + ends[r.Intn(3)] + src[i:]
			}
		case 3: // a BOM and a declaration
			decl := []string{"", "# coding: utf-8\n", "# coding: utf-8-sig\n", "# -*- coding: latin-1 -*-\n", "# vim: set fileencoding=utf_8_sig :\n"}
			bom := []string{"", "\xef\xbb\xbf"}
			src = bom[r.Intn(2)] + decl[r.Intn(len(decl))] + src
		case 4: // a byte that is not UTF-8, in a comment or elsewhere
			at := []string{"# caf\xe9\n" + src, src + "# \xff\xfe\n", strings.Replace(src, "\n", "  # \xe9\n", 1), strings.Replace(src, "x", "x\xe9", 1)}
			src = at[r.Intn(len(at))]
		case 5: // a continuation at the end of the input
			src = strings.TrimRight(src, "\n") + "\\\n"
		}
		out = append(out, []byte(src))
	}
	return out
}

// TestCPythonVersions compares pyparse's verdict at each --python-version
// with that CPython's ast.parse, where the interpreter is installed (it
// skips, naming the version, where it is not): on the interpreter's own
// standard library (a sample; every file under CI=true or
// PYPARSE_CORPUS=all) and on grammarCorpus (seed 24, PYPARSE_SEED
// overrides it). Validity must agree on every input; the first error's
// line is measured and logged.
func TestCPythonVersions(t *testing.T) {
	for minor := 8; minor <= pyparse.Latest; minor++ {
		t.Run(fmt.Sprintf("3.%d", minor), func(t *testing.T) {
			py, ok := pythonFor(minor)
			if !ok {
				t.Skipf("no CPython 3.%d interpreter (python3.%d on PATH or a pyenv build): 3.%d not compared", minor, minor, minor)
			}
			n := 4000
			if testing.Short() {
				n = 800
			}
			seed := int64(24)
			if s := os.Getenv("PYPARSE_SEED"); s != "" {
				fmt.Sscan(s, &seed)
			}
			srcs := grammarCorpus(seed, n)
			names := make([]string, len(srcs))
			for i := range names {
				names[i] = fmt.Sprintf("generated #%d %q", i, srcs[i])
			}
			out, err := exec.Command(py, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
			if err != nil {
				t.Fatalf("%s: %v", py, err)
			}
			limit := 150
			if corpus.WholeCorpus() {
				limit = 0
			}
			files := corpus.PythonFiles(strings.TrimSpace(string(out)), 0, "site-packages")
			if limit > 0 && len(files) > limit {
				step := len(files) / limit
				var sample []string
				for i := 0; i < len(files) && len(sample) < limit; i += step {
					sample = append(sample, files[i])
				}
				files = sample
			}
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					continue
				}
				srcs = append(srcs, b)
				names = append(names, f)
			}
			verdicts := cpythonBatch(t, py, srcs)
			agree, invalid, lineAgree := 0, 0, 0
			var bad []string
			for i, src := range srcs {
				_, perr := pyparse.Parse(src, pyparse.Options{Minor: minor})
				if perr != nil && strings.HasPrefix(perr.Msg, pyparse.InternalError) {
					t.Errorf("%s: %v", names[i], perr)
				}
				v := verdicts[i]
				if (perr == nil) != v.Valid {
					got := "valid"
					if perr != nil {
						got = perr.Error()
					}
					bad = append(bad, fmt.Sprintf("%s: CPython 3.%d %v, pyparse %s", names[i], minor, v, got))
					continue
				}
				agree++
				if !v.Valid {
					invalid++
					if perr.Line == v.Line {
						lineAgree++
					}
				}
			}
			for i, b := range bad {
				if i < 25 {
					t.Error(b)
				}
			}
			t.Logf("CPython 3.%d (%s): %d inputs (%d generated, %d standard-library files): validity agrees on %d; first-error line on %d of %d invalid",
				minor, py, len(srcs), n, len(srcs)-n, agree, lineAgree, invalid)
			if len(bad) > 0 {
				t.Errorf("validity differs from CPython 3.%d on %d of %d inputs", minor, len(bad), len(srcs))
			}
		})
	}
}
