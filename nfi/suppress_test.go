package nfi

import "testing"

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		pat, path string
		want      bool
	}{
		{"venv", "venv/lib/x.py", true},
		{"venv", "a/venv/x.py", true},
		{"venv", "myvenv/x.py", false},
		{"*_pb2.py", "a/b/thing_pb2.py", true},
		{"*_pb2.py", "a/b/thing_pb2.pyc", false},
		{"src/gen", "src/gen/a.py", true},
		{"src/gen", "x/src/gen/a.py", false},
		{"/src/*.py", "src/a.py", true},
		{"src/*.py", "src/sub/a.py", false},
		{"src/**/*.py", "src/sub/deep/a.py", true},
		{"src/**/*.py", "src/a.py", true},
		{"tests/*", "tests/test_a.py", true},
		{"test_[ab].py", "x/test_a.py", true},
		{"test_[!ab].py", "x/test_a.py", false},
		{"./build/", "build/x.py", true},
	} {
		g, err := CompileGlob(c.pat)
		if err != nil {
			t.Fatalf("%q: %v", c.pat, err)
		}
		if got := g.Match(c.path); got != c.want {
			t.Errorf("%q matches %q: got %v, want %v", c.pat, c.path, got, c.want)
		}
	}
	for _, bad := range []string{"", "a[b"} {
		if _, err := CompileGlob(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestCompareBrokenFile: an invalid file on either side makes the
// comparison undefined, named with its version; leaving it out of the
// mean would have shown an improvement.
func TestCompareBrokenFile(t *testing.T) {
	good := func(p string, doc float64) FileScore {
		return FileScore{Path: p, Valid: true, Status: StatusOK, Scores: NewScores(map[Aspect]float64{Documentation: doc})}
	}
	broken := FileScore{Path: "b.py", Status: StatusSyntaxError, Error: &FileError{Line: 1, Column: 1, Message: "syntax error"}}
	d := Compare([]FileScore{good("a.py", 0.5), good("b.py", 0.2)}, []FileScore{good("a.py", 0.6), broken})
	if d.Valid || d.Improvement.Positive() || len(d.Invalid) != 1 || d.Invalid[0].Version != VersionAfter || d.Invalid[0].Path != "b.py" {
		t.Errorf("broken after: valid %v, improvement %+v, invalid %+v", d.Valid, d.Improvement, d.Invalid)
	}
	d = Compare([]FileScore{broken}, []FileScore{good("b.py", 1)})
	if d.Valid || len(d.Invalid) != 1 || d.Invalid[0].Version != VersionBefore {
		t.Errorf("broken before: valid %v, invalid %+v", d.Valid, d.Invalid)
	}
	d = Compare([]FileScore{good("a.py", 0.5)}, []FileScore{good("a.py", 0.6)})
	if v, ok := d.Improvement.Get(Documentation); !d.Valid || !ok || v < 0.099 || v > 0.101 {
		t.Errorf("valid: %+v", d)
	}
}
