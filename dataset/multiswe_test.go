package dataset

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// msbRow is a Multi-SWE-bench row as published (one line of its JSONL).
const msbRow = `{"org": "cli", "repo": "cli", "number": 513, "state": "closed", "title": "Fix it", "body": "It breaks.",
 "base": {"label": "cli:trunk", "ref": "trunk", "sha": "0123abcd"}, "resolved_issues": [{"number": 512, "title": "t", "body": "b"}],
 "fix_patch": "diff --git a/x b/x\n", "test_patch": "diff --git a/x_test b/x_test\n",
 "fixed_tests": {"TestNew": {"run": "NONE", "test": "FAIL", "fix": "PASS"}},
 "p2p_tests": {"TestOld": {"run": "PASS", "test": "PASS", "fix": "PASS"}},
 "f2p_tests": {"TestNew": {"run": "NONE", "test": "FAIL", "fix": "PASS"}},
 "s2p_tests": {"TestSkipped": {"run": "SKIP", "test": "SKIP", "fix": "PASS"}},
 "n2p_tests": {"TestAdded": {"run": "NONE", "test": "NONE", "fix": "PASS"}},
 "run_result": {"passed_count": 1, "failed_count": 0, "skipped_count": 1, "passed_tests": ["TestOld"], "failed_tests": [], "skipped_tests": ["TestSkipped"]},
 "test_patch_result": {"passed_count": 1, "failed_count": 1, "skipped_count": 1, "passed_tests": ["TestOld"], "failed_tests": ["TestNew"], "skipped_tests": ["TestSkipped"]},
 "fix_patch_result": {"passed_count": 4, "failed_count": 0, "skipped_count": 0, "passed_tests": ["TestAdded", "TestNew", "TestOld", "TestSkipped"], "failed_tests": [], "skipped_tests": []},
 "instance_id": "cli__cli-513", "lang": "go"}`

func oneLine(s string) string { return strings.ReplaceAll(s, "\n ", " ") }

func TestLoadMultiSWEBenchRow(t *testing.T) {
	t.Parallel()
	d, err := Load(writeFile(t, "msb.jsonl", oneLine(msbRow)+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Errors) != 0 || len(d.Instances) != 1 {
		t.Fatalf("errors %v, %d instances", d.Errors, len(d.Instances))
	}
	if d.Schema != SchemaMultiSWEBench || d.NativeMode() != "multi-swe-bench" {
		t.Errorf("schema %s, native mode %s", d.Schema, d.NativeMode())
	}
	in := d.Instances[0]
	if in.InstanceID != "cli__cli-513" || in.Repo != "cli/cli" || in.BaseCommit != "0123abcd" || in.Language != Go ||
		in.Patch != "diff --git a/x b/x\n" || in.TestPatch != "diff --git a/x_test b/x_test\n" || in.ProblemStatement != "Fix it\n\nIt breaks." {
		t.Errorf("instance %+v", in)
	}
	if diff := cmp.Diff([]string{"TestNew", "TestSkipped", "TestAdded"}, in.FailToPass); diff != "" {
		t.Errorf("FAIL_TO_PASS (f2p, s2p, n2p) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"TestOld"}, in.PassToPass); diff != "" {
		t.Errorf("PASS_TO_PASS (-want +got):\n%s", diff)
	}
	m := in.MultiSWEBench
	if m == nil || m.Org != "cli" || m.Number != 513 || len(m.S2P) != 1 || len(m.N2P) != 1 {
		t.Fatalf("MultiSWEBench %+v", m)
	}
	if m.TestPatchResult.Status("TestNew") != MSBFail || m.RunResult.Status("TestNew") != MSBNone || m.RunResult.Status("TestSkipped") != MSBSkip {
		t.Errorf("recorded runs %+v %+v", m.RunResult, m.TestPatchResult)
	}
	if _, ok := in.Extra["resolved_issues"]; !ok {
		t.Errorf("resolved_issues not kept in Extra: %v", in.Extra)
	}
}

// TestMultiSWEBenchRowErrors: each malformed field is named, with the row,
// and the good row beside it is read.
func TestMultiSWEBenchRowErrors(t *testing.T) {
	t.Parallel()
	good := oneLine(msbRow)
	for _, c := range []struct {
		name, from, to, field string
	}{
		{"number", `"number": 513`, `"number": "513"`, "number"},
		{"fractional number", `"number": 513`, `"number": 5.5`, "number"},
		{"org", `"org": "cli"`, `"org": "a/b"`, "org"},
		{"sha", `"sha": "0123abcd"`, `"sha": ""`, "base.sha"},
		{"base", `"base": {"label": "cli:trunk", "ref": "trunk", "sha": "0123abcd"}`, `"base": "0123abcd"`, "base"},
		{"status", `"p2p_tests": {"TestOld": {"run": "PASS", "test": "PASS", "fix": "PASS"}}`, `"p2p_tests": {"TestOld": {"run": "PASS", "test": "PASSED", "fix": "PASS"}}`, `p2p_tests["TestOld"].test`},
		{"transition", `"f2p_tests": {"TestNew": {"run": "NONE", "test": "FAIL", "fix": "PASS"}}`, `"f2p_tests": {"TestNew": {"run": "NONE", "test": "PASS", "fix": "PASS"}}`, `f2p_tests["TestNew"]`},
		{"count", `"passed_count": 1, "failed_count": 1`, `"passed_count": 2, "failed_count": 1`, "test_patch_result.passed_count"},
		{"overlap", `"failed_tests": ["TestNew"], "skipped_tests": ["TestSkipped"]}`, `"failed_tests": ["TestOld"], "skipped_tests": ["TestSkipped"]}`, "test_patch_result.failed_tests"},
		{"instance_id", `"instance_id": "cli__cli-513"`, `"instance_id": "cli__cli-514"`, "instance_id"},
		{"fix_patch", `"fix_patch": "diff --git a/x b/x\n", `, ``, "fix_patch"},
	} {
		bad := strings.Replace(good, c.from, c.to, 1)
		if bad == good {
			t.Fatalf("%s: %q not in the row", c.name, c.from)
		}
		second := strings.Replace(strings.Replace(good, `"number": 513`, `"number": 600`, 1), `"cli__cli-513"`, `"cli__cli-600"`, 1)
		d, err := Load(writeFile(t, "msb.jsonl", bad+"\n"+second+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Instances) != 1 || d.Instances[0].InstanceID != "cli__cli-600" {
			t.Errorf("%s: instances %d, want the good second row", c.name, len(d.Instances))
		}
		found := false
		for _, e := range d.Errors {
			found = found || (e.Row == 1 && e.Field == c.field)
		}
		if !found {
			t.Errorf("%s: no error on row 1 field %s: %v", c.name, c.field, d.Errors)
		}
	}
}

func TestLoadMultiSWEBenchPredictions(t *testing.T) {
	t.Parallel()
	ps, err := LoadPredictions(writeFile(t, "p.jsonl", `{"org": "cli", "repo": "cli", "number": 513, "fix_patch": "diff --git a/x b/x\n"}
{"org": "cli", "repo": "cli", "number": "x", "fix_patch": ""}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Predictions) != 1 || ps.Predictions[0].InstanceID != "cli__cli-513" || ps.Predictions[0].ModelPatch != "diff --git a/x b/x\n" ||
		ps.Predictions[0].ModelNameOrPath != DefaultModel {
		t.Errorf("predictions %+v", ps.Predictions)
	}
	if len(ps.Errors) != 1 || ps.Errors[0].Row != 2 || ps.Errors[0].Field != "number" {
		t.Errorf("errors %v, want one on row 2 field number", ps.Errors)
	}
}

// TestBundledPublishedShapes reads examples/multilang's SWE-bench
// Multilingual and Multi-SWE-bench files: the same twelve instances as its
// dataset.csv, each file in its own schema and native mode.
func TestBundledPublishedShapes(t *testing.T) {
	t.Parallel()
	csvDS, err := Load("../examples/multilang/dataset.csv")
	if err != nil || len(csvDS.Errors) > 0 {
		t.Fatalf("dataset.csv: %v %v", err, csvDS.Errors)
	}
	byID := map[string]Instance{}
	for _, in := range csvDS.Instances {
		byID[in.InstanceID] = in
	}
	for _, c := range []struct {
		file   string
		schema Schema
		mode   string
	}{
		{"swebench-multilingual.jsonl", SchemaSWEBench, "swebench"},
		{"multi-swe-bench.jsonl", SchemaMultiSWEBench, "multi-swe-bench"},
	} {
		d, err := Load("../examples/multilang/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Errors) > 0 || len(d.Instances) != len(csvDS.Instances) || d.Schema != c.schema || d.NativeMode() != c.mode {
			t.Fatalf("%s: %d instances, errors %v, schema %s, mode %s", c.file, len(d.Instances), d.Errors, d.Schema, d.NativeMode())
		}
		for _, in := range d.Instances {
			want := byID[in.InstanceID]
			if in.Repo != want.Repo || in.BaseCommit != want.BaseCommit || in.Patch != want.Patch || in.TestPatch != want.TestPatch ||
				in.TestCommand != want.TestCommand || in.Dockerfile != want.Dockerfile ||
				!cmp.Equal(sorted(in.FailToPass), sorted(want.FailToPass)) || !cmp.Equal(sorted(in.PassToPass), sorted(want.PassToPass)) {
				t.Errorf("%s: %s differs from dataset.csv's", c.file, in.InstanceID)
			}
		}
	}
	ps, err := LoadPredictions("../examples/multilang/predictions-wrong.multi-swe-bench.jsonl")
	if err != nil || len(ps.Errors) > 0 || len(ps.Predictions) != len(csvDS.Instances) {
		t.Fatalf("multi-swe-bench predictions: %v %v", err, ps)
	}
}

func sorted(l []string) []string {
	out := append([]string(nil), l...)
	sort.Strings(out)
	return out
}

// TestMultiSWEBenchRowErrorsExact: a fresh-eyes trial's three defects.
// One bad test in the only FAIL_TO_PASS map gets one error, not a second
// "empty" one; a base.sha of the wrong JSON type says so ("wrong type
// (number, want string)"), not "missing"; a bad number leaves the row
// without an instance id (the error names row and field) rather than
// making one up ("cli__cli-0").
func TestMultiSWEBenchRowErrorsExact(t *testing.T) {
	t.Parallel()
	good := oneLine(msbRow)
	// Only f2p_tests, with a status that is not one of the enum's.
	onlyF2P := strings.NewReplacer(
		`"p2p_tests": {"TestOld": {"run": "PASS", "test": "PASS", "fix": "PASS"}},`, ``,
		`"s2p_tests": {"TestSkipped": {"run": "SKIP", "test": "SKIP", "fix": "PASS"}},`, ``,
		`"n2p_tests": {"TestAdded": {"run": "NONE", "test": "NONE", "fix": "PASS"}},`, ``,
		`"f2p_tests": {"TestNew": {"run": "NONE", "test": "FAIL", "fix": "PASS"}}`, `"f2p_tests": {"TestNew": {"run": "NONE", "test": "FAILED", "fix": "PASS"}}`,
	).Replace(good)
	for _, c := range []struct {
		name, row string
		field     string
		want      string
		wantErrs  int
	}{
		{"no knock-on empty", onlyF2P, `f2p_tests["TestNew"].test`, "want PASS, FAIL, SKIP or NONE", 1},
		{"sha of the wrong type", strings.Replace(good, `"sha": "0123abcd"`, `"sha": 123`, 1), "base.sha", "wrong type (number, want string)", 1},
		{"bad number", strings.Replace(good, `"number": 513`, `"number": -1`, 1), "number", "positive whole number", 1},
	} {
		if c.row == good {
			t.Fatalf("%s: the row did not change", c.name)
		}
		d, err := Load(writeFile(t, "msb.jsonl", c.row+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Errors) != c.wantErrs {
			t.Errorf("%s: %d errors, want %d: %v", c.name, len(d.Errors), c.wantErrs, d.Errors)
		}
		for _, e := range d.Errors {
			if e.Row != 1 || e.Field != c.field || !strings.Contains(e.Error(), c.want) {
				t.Errorf("%s: error %q, want row 1 field %s saying %q", c.name, e.Error(), c.field, c.want)
			}
			if strings.Contains(e.Error(), "cli__cli-0") || strings.Contains(e.Error(), "cli__cli--1") {
				t.Errorf("%s: error %q names a made-up instance id", c.name, e.Error())
			}
			if c.field == "number" && e.InstanceID != "" {
				t.Errorf("%s: instance id %q, want none for a row whose number is bad", c.name, e.InstanceID)
			}
		}
		for _, u := range d.Unread {
			if c.field == "number" && u.InstanceID != "" {
				t.Errorf("%s: unread row's instance id %q, want none", c.name, u.InstanceID)
			}
		}
	}
}
