package driver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/syntax"
)

// encodingJSON is the file record as encoding/json writes it in the json
// score format (marshalPlain).
func encodingJSON(t *testing.T, fs nfi.FileScore) []byte {
	t.Helper()
	b, err := marshalPlain(fs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sharedHeads is the rule-opening cache checkSameJSON writes every record
// through as well, from record to record as the json sink does: its hits,
// and its rewrites when a record lists other rules.
var sharedHeads ruleHeads

func checkSameJSON(t *testing.T, fs nfi.FileScore) {
	t.Helper()
	got, ok := appendFileScore(nil, &fs, nil)
	if cached, _ := appendFileScoreHeads(nil, &fs, nil, &sharedHeads); !bytes.Equal(cached, got) {
		t.Fatalf("%s: the record written with the cached rule openings differs:\n got  %q\n want %q", fs.Path, cached, got)
	}
	var pieces []byte
	rest, _ := appendFileScore(nil, &fs, func(b []byte) []byte { pieces = append(pieces, b...); return b[:0] })
	if pieces = append(pieces, rest...); !bytes.Equal(pieces, got) {
		t.Fatalf("%s: the record written in pieces differs from the whole", fs.Path)
	}
	if !ok {
		t.Fatalf("%s: appendFileScore refused a record encoding/json writes", fs.Path)
	}
	if want := encodingJSON(t, fs); !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Fatalf("%s: records differ at byte %d:\n got  %q\n want %q", fs.Path, i, got[max(0, i-60):min(len(got), i+60)], want[max(0, i-60):min(len(want), i+60)])
	}
}

// TestAppendFileScoreIsEncodingJSON checks the json score format's own
// encoder against encoding/json byte for byte: on 300 standard-library
// files scored with every rule (suppressions on), on records that set every
// field with hostile strings (control characters, invalid UTF-8, U+2028,
// quotes, backslashes, HTML), on values across the float formats, and on
// NaN (left to encoding/json). It fails when FileScore, RuleResult,
// Diagnostic, FileError or UnusedSuppression gains a field the encoder
// does not write.
func TestAppendFileScoreIsEncodingJSON(t *testing.T) {
	for typ, n := range map[reflect.Type]int{
		reflect.TypeFor[nfi.FileScore]():         10,
		reflect.TypeFor[nfi.RuleResult]():        5,
		reflect.TypeFor[nfi.Diagnostic]():        7,
		reflect.TypeFor[nfi.FileError]():         3,
		reflect.TypeFor[nfi.UnusedSuppression](): 3,
	} {
		if typ.NumField() != n {
			t.Errorf("%s has %d fields, appendFileScore writes %d: teach it the new ones", typ, typ.NumField(), n)
		}
	}

	opts := EngineOptions{Catalog: catalog.Default, Isolated: true, Suppressible: true}
	eng, err := opts.Engine(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := syntax.NewParser()
	defer p.Close()
	diags := 0
	for _, f := range corpus.StdlibSample(t, 300) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fs := eng.Score(p, f, src)
		for _, r := range fs.Rules {
			diags += len(r.Diagnostics)
		}
		checkSameJSON(t, fs)
	}
	if diags < 1000 {
		t.Errorf("the sample gave %d diagnostics: too few to compare the encoders", diags)
	}

	hostile := "a\"b\\c\x00\x01\b\f\n\r\t\x1f\x7f <&> \u2028\u2029 \xff\xfe é 𝄞 \u202e end"
	vals := []float64{0, -0.0, 1, 0.5, 1.0 / 3, 1e-7, 1.5e-7, 1e20, 1e21, 1.234e25, -2.5e-9, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64}
	for _, v := range vals {
		v := v
		fs := nfi.FileScore{Path: hostile, Valid: true, Status: hostile, Error: &nfi.FileError{Line: -1, Column: 1 << 40, Message: hostile},
			Bytes: 7, Lines: 3, Suppressed: 2,
			Rules: []nfi.RuleResult{
				{ID: hostile, Aspect: nfi.LogicPatterns, Passed: false, Value: &v,
					Diagnostics: []nfi.Diagnostic{{RuleID: hostile, Line: 1, Column: 2, EndLine: 3, EndColumn: 4, Message: hostile, Suppressed: hostile}, {RuleID: "x", Line: 0, Column: 0}}},
				{ID: "DOC-1", Aspect: nfi.Documentation, Passed: true, Diagnostics: []nfi.Diagnostic{}},
			},
			UnusedSuppressions: []nfi.UnusedSuppression{{Line: 4, Code: hostile, File: true}, {Line: 5}},
		}
		checkSameJSON(t, fs)
	}
	// every byte, alone and around a multi-byte rune
	for c := range 256 {
		s := string([]byte{byte(c)})
		checkSameJSON(t, nfi.FileScore{Path: s, Status: s + "é" + s, Rules: []nfi.RuleResult{}})
	}
	nan := math.NaN()
	if _, ok := appendFileScore(nil, &nfi.FileScore{Rules: []nfi.RuleResult{{ID: "x", Value: &nan}}}, nil); ok || finiteScore(&nfi.FileScore{Rules: []nfi.RuleResult{{ID: "x", Value: &nan}}}) {
		t.Error("appendFileScore wrote a NaN value, which encoding/json refuses")
	}
	if _, err := json.Marshal(nfi.FileScore{Rules: []nfi.RuleResult{{ID: "x", Value: &nan}}}); err == nil {
		t.Error("encoding/json wrote a NaN")
	}
}

// TestRuleHeadsSequences writes sequences of records through one
// rule-opening cache and checks each against the uncached encoder: the same
// rule ID under another aspect, a longer rule list after a shorter one and a
// shorter after a longer, an empty ID, IDs that need escaping, and a list
// longer than maxRuleHeads.
func TestRuleHeadsSequences(t *testing.T) {
	results := func(ids []string, a nfi.Aspect) []nfi.RuleResult {
		rs := make([]nfi.RuleResult, len(ids))
		for i, id := range ids {
			rs[i] = nfi.RuleResult{ID: id, Aspect: a, Passed: i%2 == 0}
		}
		return rs
	}
	long := make([]string, maxRuleHeads+7)
	for i := range long {
		long[i] = fmt.Sprintf("R%d", i)
	}
	sequences := map[string][][]nfi.RuleResult{
		"aspect changes":                    {results([]string{"A", "B"}, nfi.Documentation), results([]string{"A", "B"}, nfi.CodingStyle), results([]string{"A", "B"}, nfi.Documentation)},
		"longer, then shorter, then longer": {results([]string{"A"}, nfi.Documentation), results([]string{"A", "B", "C"}, nfi.Documentation), results([]string{"C"}, nfi.ErrorHandling), results([]string{"C", "B", "A", "D"}, nfi.ErrorHandling)},
		"empty and escaped IDs":             {results([]string{"", "a\"b", "\\", "\x01\u2028\xff"}, nfi.Documentation), results([]string{"", "", "x"}, nfi.Documentation)},
		"past maxRuleHeads":                 {results(long, nfi.LogicPatterns), results(long[5:], nfi.LogicPatterns), results(long, nfi.LogicPatterns)},
	}
	for name, seq := range sequences {
		var heads ruleHeads
		for i, rs := range seq {
			fs := nfi.FileScore{Path: "f.py", Valid: true, Status: "ok", Rules: rs}
			want, _ := appendFileScore(nil, &fs, nil)
			got, _ := appendFileScoreHeads(nil, &fs, nil, &heads)
			if !bytes.Equal(got, want) {
				t.Errorf("%s, record %d: the cached openings give\n %q\nwant\n %q", name, i, got, want)
			}
			if len(heads) > maxRuleHeads {
				t.Errorf("%s, record %d: %d cached openings, over maxRuleHeads", name, i, len(heads))
			}
		}
	}
}

// TestAppendInt holds appendInt to strconv.AppendInt on the boundaries of
// its digit counts and of its fast path, on negative values and on a
// pseudo-random sample, appended after existing bytes and into a full
// slice (so that it must grow).
func TestAppendInt(t *testing.T) {
	vals := []int{0, 1, 9, 10, 11, 99, 100, 999, 1000, 65535, 99999, 100000, 999999, 1000000, 1000001,
		-1, -9, -10, -999999, math.MaxInt, math.MinInt, math.MaxInt32}
	x := uint64(88172645463325252)
	for range 10000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		vals = append(vals, int(x%2_000_000)-500_000, int(x))
	}
	for _, v := range vals {
		for _, prefix := range [][]byte{nil, []byte(`{"line":`), make([]byte, 5, 5)} {
			want := strconv.AppendInt(append([]byte(nil), prefix...), int64(v), 10)
			got := appendInt(slices.Clip(append([]byte(nil), prefix...)), v)
			if !bytes.Equal(got, want) {
				t.Fatalf("appendInt(%q, %d) = %q, want %q", prefix, v, got, want)
			}
		}
	}
}
