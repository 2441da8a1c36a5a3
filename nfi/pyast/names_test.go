package pyast

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/syntax"
)

func namesModule(t testing.TB, src string) *Module {
	t.Helper()
	tree, err := syntax.ParseOnce(syntax.Python, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if tree.HasError() {
		t.Fatalf("source does not parse:\n%s", src)
	}
	return NewModule("m.py", tree)
}

// outermostRefs returns, per 1-based line, the resolution of each outermost
// reference on it (an attribute chain, or an identifier outside any chain),
// as "text=qualified" or "text=-" when unresolved.
func outermostRefs(m *Module) map[int][]string {
	t := m.Tree
	got := map[int][]string{}
	for i := range t.Nodes {
		id := syntax.NodeID(i)
		nd := &t.Nodes[i]
		switch nd.Kind() {
		case "attribute":
			if p := nd.Parent; p != syntax.NoNode && t.Nodes[p].Kind() == "attribute" && nd.Field() == "object" {
				continue
			}
			if r := t.ChildByField(id, "object"); r == syntax.NoNode {
				continue
			}
		case "identifier":
			if !IsReference(t, id) {
				continue
			}
			if p := nd.Parent; t.Nodes[p].Kind() == "attribute" {
				continue
			}
		default:
			continue
		}
		q, ok := m.QualifiedName(id)
		if !ok {
			q = "-"
		}
		got[t.Line(id)] = append(got[t.Line(id)], t.TextString(id)+"="+q)
	}
	return got
}

// wantRefs reads `#: a=b c=d` comments.
func wantRefs(src string) map[int][]string {
	want := map[int][]string{}
	for i, line := range strings.Split(src, "\n") {
		if j := strings.Index(line, "#: "); j >= 0 {
			want[i+1] = strings.Fields(line[j+3:])
		}
	}
	return want
}

func TestQualifiedName(t *testing.T) {
	tests := []struct{ name, src string }{
		{"aliases", `
import numpy as np
import os.path
import os.path as osp, glob
from datetime import datetime as dt, timezone
np.random.seed(1)        #: np.random.seed=numpy.random.seed
os.path.join(a, b)       #: os.path.join=os.path.join a=- b=-
osp.exists(p)            #: osp.exists=os.path.exists p=-
glob.glob("*")           #: glob.glob=glob.glob
dt.utcnow()              #: dt.utcnow=datetime.datetime.utcnow
timezone                 #: timezone=datetime.timezone
`},
		{"builtins and shadowing", `
open(f)                  #: open=builtins.open f=-
IOError                  #: IOError=builtins.IOError
def g(open, np):
    open(x)              #: open=- x=-
    np.float_            #: np.float_=-
import numpy as np
def h():
    np.float_            #: np.float_=-
    np = 3
def k():
    np.float_            #: np.float_=numpy.float_
`},
		{"relative and from", `
from . import sibling
from ..pkg.mod import thing as other
from os import path
sibling.f                #: sibling.f=.sibling.f
other                    #: other=..pkg.mod.thing
path.join                #: path.join=os.path.join
`},
		{"function-local import", `
def f():
    import numpy as np
    return np.bool       #: np.bool=numpy.bool
np.bool                  #: np.bool=-
`},
		{"try except fallback", `
try:
    from collections.abc import Mapping
except ImportError:
    from collections import Mapping
Mapping                  #: Mapping=collections.abc.Mapping
try:
    WindowsError
except NameError:
    WindowsError = None
WindowsError             #: WindowsError=-
`},
		{"module order", `
import pickle
pickle.dumps             #: pickle.dumps=pickle.dumps
pickle = None
pickle.dumps             #: pickle.dumps=-
def f():
    json.dumps           #: json.dumps=json.dumps
import json
`},
		{"class scope", `
class A:
    import typing as t
    x = t.List           #: t.List=typing.List
    def m(self):
        return t.List    #: t.List=-
`},
		{"global", `
import numpy as np
def f():
    global np
    np = 1
    np.int               #: np.int=numpy.int
`},
		{"chains through calls are unresolved", `
import numpy as np
np.random.default_rng().random  #: np.random.default_rng().random=- np.random.default_rng=numpy.random.default_rng
np.x[0].y                #: np.x[0].y=- np.x=numpy.x
`},
		{"parameters and comprehension", `
import os
def f(os=os):            #: os=os
    return os.sep        #: os.sep=-
[os.sep for os in xs]    #: os.sep=- xs=-
lambda os: os.sep        #: os.sep=-
os.sep                   #: os.sep=os.sep
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := namesModule(t, tc.src)
			got := outermostRefs(m)
			want := wantRefs(tc.src)
			for line := range got {
				if _, ok := want[line]; !ok {
					delete(got, line)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("resolutions (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImports(t *testing.T) {
	src := `
import os.path, numpy as np
from . import sib
from ..a.b import (c as d,
    e)
from pandas import *
from __future__ import annotations
def f():
    try:
        import tensorflow.compat.v1 as tf
    except ImportError:
        pass
`
	m := namesModule(t, src)
	var got []string
	for _, in := range m.Imports().List {
		s := in.Local + "|" + in.Qualified + "|" + in.Module + "|" + in.Target()
		if in.Star {
			s += "|*"
		}
		if in.Scope != 0 {
			s += "|" + m.Tree.Kind(in.Scope)
		}
		got = append(got, s)
	}
	want := []string{
		"os|os|os.path|os.path",
		"np|numpy|numpy|numpy",
		"sib|.sib|.|.sib",
		"d|..a.b.c|..a.b|..a.b.c",
		"e|..a.b.e|..a.b|..a.b.e",
		"||pandas|pandas|*",
		"annotations|__future__.annotations|__future__|__future__.annotations",
		"tf|tensorflow.compat.v1|tensorflow.compat.v1|tensorflow.compat.v1|function_definition",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("imports (-want +got):\n%s", diff)
	}
	for mod, want := range map[string]bool{
		"os": true, "os.path": true, "numpy": true, "pandas": true, "tensorflow": true,
		"tensorflow.compat": true, "tensorflow.compat.v1": true, "a": false, "..a": false, "num": false,
	} {
		if got := m.ImportsModule(mod); got != want {
			t.Errorf("ImportsModule(%q) = %v, want %v", mod, got, want)
		}
	}
}

func TestIsReference(t *testing.T) {
	src := "import a\nfrom b import c\nx = y.z\ndef f(p, q=r, *s, t: u = v, **w): pass\nf(k=l)\nfor i in j: pass\nclass C(D): pass\nwith m as n: pass\n"
	m := namesModule(t, src)
	var refs []string
	for i := range m.Tree.Nodes {
		if IsReference(m.Tree, syntax.NodeID(i)) {
			refs = append(refs, m.Tree.TextString(syntax.NodeID(i)))
		}
	}
	want := []string{"y", "r", "u", "v", "f", "l", "j", "D", "m"}
	if diff := cmp.Diff(want, refs); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
}

// FuzzQualifiedName checks that resolution never panics on parseable input.
func FuzzQualifiedName(f *testing.F) {
	f.Add("import a.b as c\nc.d.e\n")
	f.Add("from . import x\ndef f(x=x):\n    global x\n    return x.y\n")
	f.Add("class A:\n    import t\n    def m(self): return t.x\n[y for y in z]\n")
	f.Fuzz(func(t *testing.T, src string) {
		tree, err := syntax.ParseOnce(syntax.Python, []byte(src))
		if err != nil {
			return
		}
		m := NewModule("f.py", tree)
		for i := range tree.Nodes {
			switch tree.Nodes[i].Kind() {
			case "identifier", "attribute":
				m.QualifiedName(syntax.NodeID(i))
				IsReference(tree, syntax.NodeID(i))
			}
		}
		m.ImportsModule("a")
	})
}

func TestImportedName(t *testing.T) {
	m := namesModule(t, "import numpy as np\nopen(np.pi)\nlen.x\n")
	for i := range m.Tree.Nodes {
		id := syntax.NodeID(i)
		kind := m.Tree.Kind(id)
		if kind != "identifier" && kind != "attribute" {
			continue
		}
		text := m.Tree.TextString(id)
		q, ok := m.ImportedName(id)
		switch text {
		case "np.pi":
			if !ok || q != "numpy.pi" {
				t.Errorf("ImportedName(np.pi) = %q, %v, want numpy.pi", q, ok)
			}
		case "open", "len", "len.x":
			if ok {
				t.Errorf("ImportedName(%s) = %q, want unresolved (builtin root)", text, q)
			}
			if q2, ok2 := m.QualifiedName(id); !ok2 || q2 != "builtins."+text {
				t.Errorf("QualifiedName(%s) = %q, %v, want builtins.%s", text, q2, ok2, text)
			}
		}
	}
}

func BenchmarkNames(b *testing.B) {
	src := strings.Repeat("import os\nfrom a import b as c\ndef f(x, y=1):\n    z = os.path.join(x, c.d)\n    return [w for w in z]\n", 200)
	tree, err := syntax.ParseOnce(syntax.Python, []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m := NewModule("m.py", tree)
		for i := range tree.Nodes {
			if tree.Nodes[i].Kind() == "attribute" {
				m.ImportedName(syntax.NodeID(i))
			}
		}
	}
}

// TestAppendImportedName checks the buffer form against ImportedName on
// every node of a stdlib sample.
func TestAppendImportedName(t *testing.T) {
	checked := 0
	eachSampleTree(t, 30, func(f string, tree *syntax.Tree) {
		if tree.HasError() {
			return
		}
		m := NewModule(f, tree)
		buf := []byte("prefix:")
		for i := range tree.Nodes {
			id := syntax.NodeID(i)
			want, wok := m.ImportedName(id)
			got, gok := m.AppendImportedName(buf[:7], id)
			if gok != wok || string(got[7:]) != want || string(got[:7]) != "prefix:" {
				t.Fatalf("%s: node %d (%s): AppendImportedName = %q, %v; ImportedName = %q, %v",
					f, i, tree.Text(id), got, gok, want, wok)
			}
			if gok {
				checked++
			}
		}
	})
	if checked < 100 {
		t.Errorf("only %d resolved names checked", checked)
	}
}

// TestIsBuiltinName checks the shape filter of isBuiltinName against the
// map alone: every builtin, and every identifier of a stdlib sample.
func TestIsBuiltinName(t *testing.T) {
	for s := range builtinNames {
		if !isBuiltinName([]byte(s)) {
			t.Errorf("isBuiltinName(%q) = false", s)
		}
	}
	for _, s := range []string{"", "_", "Exceptio", "Exceptions", "lenn", "xrange", "IOErro"} {
		if isBuiltinName([]byte(s)) {
			t.Errorf("isBuiltinName(%q) = true", s)
		}
	}
	eachSampleTree(t, 40, func(f string, tree *syntax.Tree) {
		for i := range tree.Nodes {
			if identifierKinds.Has(&tree.Nodes[i]) {
				name := tree.Text(syntax.NodeID(i))
				if got, want := isBuiltinName(name), builtinNames[string(name)]; got != want {
					t.Errorf("%s: isBuiltinName(%q) = %v, want %v", f, name, got, want)
				}
			}
		}
	})
}

// TestBindableList checks that buildNames over the index's bindable
// identifiers builds the table it builds over every reference, on a source
// with each kind of binding and on a stdlib sample.
func TestBindableList(t *testing.T) {
	check := func(name string, m *Module) {
		t.Helper()
		im := m.Imports()
		want := buildNames(m.Tree, im, m.References())
		got := buildNames(m.Tree, im, m.index().lists[listBindable])
		opt := cmp.AllowUnexported(nameBinding{}, scopedName{})
		for _, d := range []string{
			cmp.Diff(want.bindings, got.bindings, opt),
			cmp.Diff(want.global, got.global, opt),
			cmp.Diff(want.bound, got.bound),
		} {
			if d != "" {
				t.Errorf("%s: listBindable table differs (-all refs +bindable):\n%s", name, d)
			}
		}
	}
	src := `import os, sys as open
from a import (b as len, c)
def f(os, *sys, len=1, **kw):
    global c
    nonlocal b
    (x, [open, *c]) = y = 1
    for len, (str, int) in z: pass
    with w as (os, dict): pass
    try: pass
    except E as list: pass
    lambda sys, str=2: [os for os in sys if (c := os)]
    class sys(os): pass
    match v:
        case [c, *open] as len: pass
print(f"{(open := 3)}")
`
	check("src", namesModule(t, src))
	eachSampleModule(t, check)
}

// TestBindingShortcut checks binding, which skips the scope walk for a
// name only the module binds, against lookup on every identifier of a
// source with such names used before, after and between their bindings,
// and of a stdlib sample.
func TestBindingShortcut(t *testing.T) {
	check := func(name string, m *Module) {
		t.Helper()
		nm := m.Names()
		tr := m.Tree
		for _, id := range m.References() {
			if !identifierKinds.Has(&tr.Nodes[id]) {
				continue
			}
			text := tr.Text(id)
			if nm.bound[string(text)] == 0 {
				continue
			}
			var wantImp *Import
			wantBuiltin := false
			if b, found := nm.lookup(id, text); !found {
				wantBuiltin = isBuiltinName(text)
			} else if b.imp >= 0 {
				wantImp = &nm.imports.List[b.imp]
			}
			if !nm.imports.BindsLocal(text) && !isBuiltinName(text) {
				wantImp, wantBuiltin = nil, false
			}
			imp, builtin := nm.binding(id)
			if imp != wantImp || builtin != wantBuiltin {
				t.Errorf("%s: %s at byte %d: binding %v, %v; lookup %v, %v", name, text, tr.Nodes[id].StartByte, imp, builtin, wantImp, wantBuiltin)
			}
		}
	}
	src := `print(os, len)
import os
def f():
    return os.sep, len
len = 3
try:
    import json
except ImportError:
    json = None
class C:
    import os as len
    x = len
os = json or len
`
	check("src", namesModule(t, src))
	eachSampleModule(t, check)
}

// eachSampleModule calls check with the Module of each file of an 80-file
// standard-library sample.
func eachSampleModule(t *testing.T, check func(path string, m *Module)) {
	t.Helper()
	eachSampleTree(t, 80, func(f string, tree *syntax.Tree) {
		check(f, NewModule(f, tree))
	})
}

// eachSampleTree parses the first n files of a standard-library sample and
// calls check with each path and tree (trees with syntax errors included).
func eachSampleTree(t *testing.T, n int, check func(path string, tree *syntax.Tree)) {
	t.Helper()
	for _, f := range corpus.StdlibSample(t, n) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := syntax.ParseOnce(syntax.Python, src)
		if err != nil {
			t.Fatal(err)
		}
		check(f, tree)
	}
}
