package java_test

import (
	"strings"
	"testing"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/rules/java"
	"github.com/polynfi/polynfi/syntax"
)

// TestDispatchJava checks that a .java file is judged by the Java rules
// only, that S_p is P_p / T_p over them (SWE-NFI Eq. 1), and that a Java
// syntax error makes the file invalid with its position.
func TestDispatchJava(t *testing.T) {
	e := defaultEngine(t, false)
	p := syntax.NewParser()
	defer p.Close()
	src := "class A {\n  void f() {\n    try { g(); } catch (Exception e) { }\n  }\n  void g() {}\n}\n"
	fs := e.Score(p, "A.java", []byte(src))
	if !fs.Valid || len(fs.Rules) != len(java.All) {
		t.Fatalf("valid %v, %d rules, want %d (%v)", fs.Valid, len(fs.Rules), len(java.All), fs.Error)
	}
	for _, rr := range fs.Rules {
		if !strings.HasPrefix(rr.ID, "JAVA-") {
			t.Errorf("a Java file judged by %s", rr.ID)
		}
	}
	for _, a := range nfi.Aspects {
		total, passed := 0, 0
		for _, rr := range fs.Rules {
			if rr.Aspect == a {
				total++
				if rr.Passed {
					passed++
				}
			}
		}
		if got, ok := fs.Scores.Get(a); !ok || got != float64(passed)/float64(total) {
			t.Errorf("%s: S_p %v, want %d/%d", a.Code(), got, passed, total)
		}
	}
	if r, _ := fs.Rule(java.EmptyCatchBlock.ID); r.Passed {
		t.Error("the empty catch passes EmptyCatchBlock")
	}
	if s, _ := fs.Scores.Get(nfi.ErrorHandling); s == 1 {
		t.Error("S_ERR is 1 with an empty catch of Exception")
	}
	bad := e.Score(p, "B.java", []byte("class B {\n  void f() {\n    int x = ;\n  }\n}\n"))
	if bad.Valid || bad.Error == nil || bad.Status != nfi.StatusSyntaxError || bad.Error.Line != 3 {
		t.Errorf("a syntax error on line 3: valid %v, status %s, error %v", bad.Valid, bad.Status, bad.Error)
	}
}
