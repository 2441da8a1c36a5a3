package pyparse_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/syntax"
	"github.com/polynfi/polynfi/syntax/pyparse"
)

// nest returns pre + open*n + mid + close*n + "\n".
func nest(pre, open, mid, close string, n int) string {
	return pre + strings.Repeat(open, n) + mid + strings.Repeat(close, n) + "\n"
}

// blocks returns n nested "if x:" blocks (one more space each) around body.
func blocks(n int, indent, body string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.Repeat(indent, i) + "if x:\n")
	}
	b.WriteString(strings.Repeat(indent, n) + body + "\n")
	return b.String()
}

// limitCases are inputs at and past CPython's limits: the tokenizer's
// (brackets, indentation, f-strings), the int digit limit and the depth of
// the AST; each around its boundary and far past it. ok marks inputs
// CPython 3.11 accepts.
func limitCases() []struct{ name, src string } {
	type c = struct{ name, src string }
	cs := []c{
		{"parens-200", nest("", "(", "x", ")", 200)},
		{"parens-201", nest("", "(", "x", ")", 201)},
		{"parens-200000", nest("", "(", "", ")", 200000)},
		{"brackets-mixed-201", nest("x = ", "[{(", "1", ")}]", 67)},
		{"parens-after-error", "x x\n" + strings.Repeat("(", 300) + "\n"},
		{"parens-on-line-3", "a\nb\n" + nest("c = ", "(", "1", ")", 250)},
		{"fstring-parens-199", "f'{" + strings.Repeat("(", 199) + "x" + strings.Repeat(")", 199) + "}'\n"},
		{"fstring-parens-200", "x\ny = f'{1 + " + strings.Repeat("(", 200) + "x" + strings.Repeat(")", 200) + "}'\n"},
		{"indent-99", blocks(99, " ", "pass")},
		{"indent-100", blocks(100, " ", "pass")},
		{"indent-100-tabs", blocks(100, "\t", "pass")},
		{"indent-3000", blocks(3000, " ", "pass")},
		{"indent-error-first", ")\n" + blocks(120, " ", "pass")},
		{"int-4300", "x = " + strings.Repeat("7", 4300) + "\n"},
		{"int-4301", "x = 1\ny = " + strings.Repeat("7", 4301) + "\n"},
		{"int-underscores", "x = " + strings.Repeat("1_", 4300) + "1\n"},
		{"int-zeros", "x = " + strings.Repeat("0", 5000) + "\n"},
		{"int-hex", "x = 0x" + strings.Repeat("f", 5000) + "\n"},
		{"int-float", "x = " + strings.Repeat("1", 5000) + ".5\n"},
		{"int-imaginary", "x = " + strings.Repeat("1", 5000) + "j\n"},
		{"int-fstring", "f'{" + strings.Repeat("1", 5000) + "}'\n"},
		{"int-after-error", ")\ny = " + strings.Repeat("1", 5000) + "\n"},
		// not here: "y = <5000 digits>\n)\n", where CPython reports the
		// later unmatched ")" (it tokenizes the rest of the file after
		// any parser error but "invalid syntax"), as after "1 = 2": a
		// validity difference of every parser error, not of the limit
		{"and-100000", "x" + strings.Repeat(" and x", 100000) + "\n"},
		{"or-and-100000", "x" + strings.Repeat(" or x and x", 50000) + "\n"},
		{"compare-100000", "x" + strings.Repeat(" < x", 100000) + "\n"},
		{"assign-100000", strings.Repeat("a = ", 100000) + "x\n"},
		{"concat-100000", strings.Repeat("'a' ", 100000) + "\n"},
		{"statements-100000", strings.Repeat("x\n", 100000)},
		{"call-f-200", nest("", "f(", "x", ")", 199)},
		{"call-attr-150", nest("", "f(a.", "x", ")", 150)},
		{"call-neg-150", nest("", "f(-", "x", ")", 150)},
		{"call-plus-150", nest("", "f(1 + ", "x", ")", 150)},
		{"decorator-150", "@" + nest("", "f(", "x", ")", 150) + "def g(): pass\n"},
		{"bases-150", "class A(" + strings.Repeat("f(", 149) + "x" + strings.Repeat(")", 150) + ": pass\n"},
		{"fstring-call-150", "f'{" + strings.Repeat("f(", 150) + "x" + strings.Repeat(")", 150) + "}'\n"},
		{"star-subscript-60", "x[" + strings.Repeat("*a[", 60) + "0" + strings.Repeat("]", 61) + "\n"},
		{"star-list-60", "[" + strings.Repeat("*a[", 60) + "0" + strings.Repeat("]", 61) + "\n"},
	}
	// constructs CPython nests without brackets: about 2988 is the deepest
	// accepted (an expression 2991 AST nodes deep with Module and Expr;
	// CPython's own boundary moves by a few levels with the caller's stack
	// and the exceptions raised before, so the cases keep off it)
	deep := []struct {
		name string
		make func(n int) string
	}{
		{"not", func(n int) string { return strings.Repeat("not ", n) + "x\n" }},
		{"neg", func(n int) string { return strings.Repeat("-", n) + "x\n" }},
		{"invert", func(n int) string { return strings.Repeat("~", n) + "x\n" }},
		{"cond", func(n int) string { return strings.Repeat("a if b else ", n) + "x\n" }},
		{"attr", func(n int) string { return "x" + strings.Repeat(".a", n) + "\n" }},
		{"call", func(n int) string { return "x" + strings.Repeat("()", n) + "\n" }},
		{"subscript", func(n int) string { return "x" + strings.Repeat("[0]", n) + "\n" }},
		{"plus", func(n int) string { return "x" + strings.Repeat("+x", n) + "\n" }},
		{"elif", func(n int) string { return "if x: pass\n" + strings.Repeat("elif x: pass\n", n) }},
		// CPython's parser stack (MemoryError) bites first here
		{"lambda", func(n int) string { return strings.Repeat("lambda: ", n) + "x\n" }},
		{"pow", func(n int) string { return "x" + strings.Repeat("**x", n) + "\n" }},
		{"await", func(n int) string {
			return "async def f():\n    return " + strings.Repeat("await (", n/200) + "x" + strings.Repeat(")", n/200) + "\n"
		}},
	}
	for _, d := range deep {
		for _, n := range []int{2900, 3100, 100000} {
			cs = append(cs, c{fmt.Sprintf("%s-%d", d.name, n), d.make(n)})
		}
	}
	return cs
}

// cpythonLimits runs the machine's python3 over files and returns its
// verdict on each: "" (valid), "line:offset: msg" for a SyntaxError, or the
// exception's type name for anything else (RecursionError, MemoryError).
func cpythonLimits(t *testing.T, files []string) ([]string, int) {
	t.Helper()
	script := `
import ast, sys, json
print(sys.version_info[1], flush=True)
for line in sys.stdin:
    try:
        ast.parse(open(line.rstrip("\n"), "rb").read())
        r = ""
    except SyntaxError as e:
        r = "%s:%s: %s" % (e.lineno, e.offset, e.msg)
    except BaseException as e:
        r = type(e).__name__
    print(json.dumps(r), flush=True)
`
	cmd := exec.Command("python3", "-c", script)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 oracle: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	sc.Scan()
	var minor int
	fmt.Sscan(sc.Text(), &minor)
	var res []string
	for sc.Scan() {
		var s string
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		res = append(res, s)
	}
	if len(res) != len(files) {
		t.Fatalf("python3 oracle answered %d of %d files", len(res), len(files))
	}
	return res, minor
}

// TestLimitsMatchCPython parses each limit case with pyparse and with the
// machine's CPython: a SyntaxError must come back with CPython's line,
// column and message; where CPython raises RecursionError or MemoryError
// (its AST or parser stack is too deep), pyparse must reject the file
// with CPython's RecursionError message; valid files must give a tree
// (and the syntax.Tree the rules walk).
func TestLimitsMatchCPython(t *testing.T) {
	requirePython(t)
	dir := t.TempDir()
	cases := limitCases()
	var files []string
	for i, c := range cases {
		f := filepath.Join(dir, fmt.Sprintf("%03d-%s.py", i, c.name))
		if err := os.WriteFile(f, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	want, minor := cpythonLimits(t, files)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, perr := pyparse.Parse([]byte(c.src), pyparse.Options{Minor: minor})
			got := ""
			if perr != nil {
				got = fmt.Sprintf("%d:%d: %s", perr.Line, perr.Col, perr.Msg)
			}
			switch w := want[i]; w {
			case "":
				if perr != nil || tr == nil {
					t.Fatalf("got %q, want a tree (CPython accepts)", got)
				}
				if e := checkShape(tr); e != nil {
					t.Fatal(e)
				}
				if _, err := syntax.ParsePythonGo([]byte(c.src), minor); err != nil {
					t.Fatalf("ParsePythonGo: %v", err)
				}
			case "RecursionError", "MemoryError":
				if perr == nil || perr.Msg != "maximum recursion depth exceeded during ast construction" {
					t.Fatalf("got %q, want the AST depth error (CPython: %s)", got, w)
				}
			default:
				if got != w {
					t.Fatalf("got %q, want %q", got, w)
				}
			}
		})
	}
}

// TestTreeDepthLimit: chains CPython keeps flat ("a and b and ...", "a = b
// = ..."), one tree level per operator in tree-sitter's shape, are refused
// past 200,000 levels (polynfi's own limit: the rules walk trees
// recursively), which CPython accepts; shorter chains give a tree.
func TestTreeDepthLimit(t *testing.T) {
	requirePython(t)
	cases := []struct {
		name, src string
		ok        bool
	}{
		{"and-150000", "x" + strings.Repeat(" and x", 150000) + "\n", true},
		{"and-250000", "x" + strings.Repeat(" and x", 250000) + "\n", false},
		{"or-250000", "x" + strings.Repeat(" or x", 250000) + "\n", false},
		{"assign-150000", strings.Repeat("a = ", 150000) + "x\n", true},
		{"assign-250000", strings.Repeat("a = ", 250000) + "x\n", false},
	}
	dir := t.TempDir()
	var files []string
	for i, c := range cases {
		f := filepath.Join(dir, fmt.Sprintf("%d.py", i))
		if err := os.WriteFile(f, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	want, minor := cpythonLimits(t, files)
	for i, c := range cases {
		if want[i] != "" {
			t.Errorf("%s: CPython %q, want valid", c.name, want[i])
		}
		tr, perr := pyparse.Parse([]byte(c.src), pyparse.Options{Minor: minor})
		switch {
		case c.ok && perr != nil:
			t.Errorf("%s: got %v, want a tree", c.name, perr)
		case c.ok:
			if e := checkShape(tr); e != nil {
				t.Errorf("%s: %v", c.name, e)
			}
		case perr == nil || !strings.Contains(perr.Msg, "too deep for polynfi to score"):
			t.Errorf("%s: got %v, want the tree depth error", c.name, perr)
		}
	}
}
