package testlog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPolyBenchTAP(t *testing.T) {
	t.Parallel()
	log := "TAP version 13\n" +
		"ok 1 Stack push adds an item\n" +
		"not ok 2 Stack pop on empty throws\r\n" +
		"    ok 1 - nested point is not read\n" +
		"ok 3 - slow case # SKIP needs network\n" +
		"not ok 4 - known bug # TODO fix later\n" +
		"# ok 5 comment\n" +
		"1..4\n"
	want := []Result{
		{"1 Stack push adds an item", Passed},
		{"2 Stack pop on empty throws", Failed},
		{"3 - slow case # SKIP needs network", Skipped},
		{"4 - known bug # TODO fix later", XFail},
	}
	if d := cmp.Diff(want, PolyBenchTAP([]byte(log))); d != "" {
		t.Errorf("PolyBenchTAP (-want +got):\n%s", d)
	}
}

// TestPolyBenchTAPRealLog reads the recorded node --test log: only the
// column-0 points are results, with their numbers.
func TestPolyBenchTAPRealLog(t *testing.T) {
	t.Parallel()
	log, err := os.ReadFile(filepath.Join("testdata", "logs", "tap.log"))
	if err != nil {
		t.Fatal(err)
	}
	got := ToMap(PolyBenchTAP(log))
	for id, st := range map[string]Status{
		"1 - range": Passed,
		"2 - range of negative length throws (wrong on purpose)": Failed,
	} {
		if got[id] != st {
			t.Errorf("status of %q = %q, want %q (all: %v)", id, got[id], st, got)
		}
	}
	if _, ok := got["1 - counts from zero"]; ok {
		t.Errorf("an indented subtest point was read: %v", got)
	}
}

func TestPolyBenchPytestAlias(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ id, want string }{
		{"tests/test_a.py:None:test_x", "tests/test_a.py:None:test_x"},
		{"tests/test_a.py:TestA:test_x[1-2]", "tests/test_a.py:TestA:test_x[1-2]"},
		{"tests/test_a.py:None:test_x[0.5-0.25]", "tests/test_a.py:None:test_x"},
		{"tests/test_a.py:None:test_x[a b]", "tests/test_a.py:None:test_x"},
		{"tests/test_a.py:None:test_x[ü_1]", "tests/test_a.py:None:test_x[ü_1]"},
		{"tests/my-pkg/test_a.py:None:test_x", "pkg/test_a.py:None:test_x"},
		{"src/a.b/test_a.py:None:test_x", "b/test_a.py:None:test_x"},
		{"tests/test_a.py:Outer.Inner:test_x[1]", "tests/test_a.py:Outer:Inner"},
		{"tests/-.py:None:test_x", "tests/-.py:None:test_x"},
		{"calc.test_calc.TestArith:test_add:", "calc.test_calc.TestArith:test_add:"},
		{"pkg.Class.method", "pkg.Class.method"},
		{"tests/test_a.py", "tests/test_a.py"},
	} {
		if got := PolyBenchPytestAlias(tc.id); got != tc.want {
			t.Errorf("PolyBenchPytestAlias(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

func TestUnittestIDFromVerbose(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ id, want string }{
		{"test_add (calc.tests.TestArith)", "calc.tests.TestArith:test_add:"},
		{"test_add (calc.tests.TestArith.test_add)", "calc.tests.TestArith:test_add:"},
		{"Regression test for #123", "Regression test for #123"},
		{"calc.tests.TestArith:test_add:", "calc.tests.TestArith:test_add:"},
		{"test_add (calc.tests.TestArith) (i=1)", "test_add (calc.tests.TestArith) (i=1)"},
	} {
		if got := UnittestIDFromVerbose(tc.id); got != tc.want {
			t.Errorf("UnittestIDFromVerbose(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

func FuzzPolyBenchTAP(f *testing.F) {
	f.Add([]byte("ok 1 a\nnot ok 2 b # TODO\n"))
	f.Fuzz(func(t *testing.T, log []byte) {
		for _, r := range PolyBenchTAP(log) {
			if !validStatus(r.Status) {
				t.Fatalf("status %q for %q", r.Status, r.ID)
			}
		}
	})
}
