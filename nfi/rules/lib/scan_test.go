package lib

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/nfitest"
	"github.com/polynfi/polynfi/syntax"
)

func messages(t *testing.T, r *nfi.Rule, options map[string]any, src string) []string {
	t.Helper()
	e := nfitest.Engine(t, r, options)
	p := syntax.NewParser()
	defer p.Close()
	fs := e.Score(p, "m.py", []byte(src))
	if !fs.Valid {
		t.Fatalf("source does not parse: %v", fs.Error)
	}
	var out []string
	for _, d := range fs.Rules[0].Diagnostics {
		out = append(out, d.String())
	}
	return out
}

func TestIncludeOpenOption(t *testing.T) {
	src := "import os\n\nwith open('a') as f:\n    os.remove('a')\n"
	if got := messages(t, UsePathlib, nil, src); len(got) != 1 {
		t.Errorf("default: got %q, want only the os.remove diagnostic", got)
	}
	got := messages(t, UsePathlib, map[string]any{"include-open": true}, src)
	want := []string{
		"3:6: LIB-R01 open (builtins.open): pathlib alternative; use Path.open()",
		"4:5: LIB-R01 os.remove: pathlib alternative; use Path.unlink()",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("include-open (-want +got):\n%s", diff)
	}
	shadowed := "def f(open):\n    return open('a')\n"
	if got := messages(t, UsePathlib, map[string]any{"include-open": true}, shadowed); len(got) != 0 {
		t.Errorf("a parameter named open: got %q, want nothing", got)
	}
}

func TestMessages(t *testing.T) {
	tests := []struct {
		rule *nfi.Rule
		src  string
		want []string
	}{
		{Numpy2Removed, "import numpy as np\nx = np.float_\n",
			[]string{"2:5: LIB-P06 np.float_ (numpy.float_): removed NumPy 2.0; use numpy.float64"}},
		{Numpy2Removed, "from numpy import NaN as nan\n",
			[]string{"1:19: LIB-P06 numpy.NaN: removed NumPy 2.0; use numpy.nan"}},
		{RemovedStdlibModule, "from distutils.core import setup, Extension\n",
			[]string{"1:28: LIB-P17 import of distutils: removed 3.12; use setuptools or sysconfig"}},
		{PandasRemovedKeyword, "import pandas\npandas.read_csv('x', squeeze=True)\n",
			[]string{"2:22: LIB-P09 squeeze= in a call of pandas.read_csv(): removed pandas 2.0; use .squeeze('columns') on the result"}},
		{DeprecatedAPICount, "import numpy as np\na, b, c = np.NaN, np.Inf, np.product\n",
			[]string{"2:27: LIB-T01 file has 3 uses of deprecated or removed APIs (> 2); np.product (numpy.product): deprecated NumPy 1.25; use numpy.prod (LIB-P05)"}},
		{TFSession, "import tensorflow as tf\ntf.compat.v1.disable_v2_behavior()\ns = tf.compat.v1.Session()\n", nil},
		{PandasRemovedMethod, "import codecs\ncodecs.lookup('utf-8')\nd.iteritems()\n", nil},
		{DeprecatedStdlibFunction, "import warnings\nwarnings.warn('x')\n", nil},
	}
	for _, tc := range tests {
		got := messages(t, tc.rule, nil, tc.src)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s on %q (-want +got):\n%s", tc.rule.ID, tc.src, diff)
		}
	}
}
