package pyparse_test

import (
	"testing"

	"github.com/polynfi/polynfi/syntax/pyparse"
)

// versionCases are the version-dependent rules pyparse implements: each
// source is valid from Python 3.since (and invalid before). The machine's
// CPython checks the versions it is (TestSnippets, TestDifferential); these
// cover the others, from the CPython changelogs: PEP 572 (3.8), PEP 614
// decorators (3.9), PEP 634 match (3.10), PEP 654 except* and PEP 646
// starred subscripts/annotations (3.11), PEP 695 type parameters and
// aliases and PEP 701 f-strings (3.12), PEP 696 type parameter defaults
// (3.13), PEP 750 t-strings and PEP 758
// unparenthesized except lists (3.14).
var versionCases = []struct {
	src   string
	since int
}{
	{"if (n := 10) > 5: pass\n", 8},
	{"f'{x=}'\n", 8},
	{"@a.b[c]\ndef f(): pass\n", 9},
	{"@(lambda f: f)\ndef f(): pass\n", 9},
	{"match x:\n    case 1:\n        pass\n", 10},
	{"match = 1\n", 8},
	{"try:\n    pass\nexcept* E:\n    pass\n", 11},
	{"a[*b]\n", 11},
	{"def f(*args: *Ts): pass\n", 11},
	{"type X = int\n", 12},
	{"type = 1\n", 8},
	{"def f[T](x: T) -> T: pass\n", 12},
	{"class A[T: int, *Ts, **P]: pass\n", 12},
	{`f"{"nested"}"` + "\n", 12},
	{`f"{'\n'.join(x)}"` + "\n", 12},
	{`f'''{"a"}'''` + "\n", 8},
	{"class A[T = int, *Ts = *tuple[int]]: pass\n", 13},
	{"t'{x}'\n", 14},
	{"try:\n    pass\nexcept A, B:\n    pass\n", 14},
}

func TestVersions(t *testing.T) {
	for _, c := range versionCases {
		for minor := 8; minor <= pyparse.Latest; minor++ {
			_, err := pyparse.Parse([]byte(c.src), pyparse.Options{Minor: minor})
			if want := minor >= c.since; (err == nil) != want {
				t.Errorf("3.%d %q: valid %v, want %v (%v)", minor, c.src, err == nil, want, err)
			}
		}
	}
}
