package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/internal/textesc"
)

// SchemaMultiSWEBench: Multi-SWE-bench rows (org, repo, number, base.sha,
// fix_patch, test_patch and the test transitions p2p_tests, f2p_tests,
// s2p_tests, n2p_tests). Native grading: multi-swe-bench.
const SchemaMultiSWEBench Schema = "multi-swe-bench"

// Multi-SWE-bench's test statuses (TestStatus in
// multi_swe_bench/harness/test_result.py; the SWE-bench-style spellings of
// that enum are not written by its own runs and are refused here).
const (
	MSBPass = "PASS"
	MSBFail = "FAIL"
	MSBSkip = "SKIP"
	MSBNone = "NONE"
)

// MSBTest is one test's transition in a Multi-SWE-bench row: its status
// at the base commit (Run), with the test patch (Test) and with the test
// and fix patches (Fix), each MSBPass, MSBFail, MSBSkip or MSBNone.
type MSBTest struct {
	Run  string `json:"run"`
	Test string `json:"test"`
	Fix  string `json:"fix"`
}

// MSBResult is one run's outcome in a Multi-SWE-bench row (TestResult):
// the names of the passed, failed and skipped tests, each sorted, no name
// in two of them.
type MSBResult struct {
	Passed  []string `json:"passed_tests"`
	Failed  []string `json:"failed_tests"`
	Skipped []string `json:"skipped_tests"`
}

// Status returns the status of test name in r: MSBPass, MSBFail, MSBSkip,
// or MSBNone when r does not name it (or r is nil).
func (r *MSBResult) Status(name string) string {
	if r == nil {
		return MSBNone
	}
	for _, c := range []struct {
		l []string
		s string
	}{{r.Passed, MSBPass}, {r.Failed, MSBFail}, {r.Skipped, MSBSkip}} {
		if i := sort.SearchStrings(c.l, name); i < len(c.l) && c.l[i] == name {
			return c.s
		}
	}
	return MSBNone
}

// Names returns every test r names, sorted.
func (r *MSBResult) Names() []string {
	if r == nil {
		return nil
	}
	out := append(append(append([]string{}, r.Passed...), r.Failed...), r.Skipped...)
	sort.Strings(out)
	return out
}

// MultiSWEBench holds the fields of a Multi-SWE-bench row that SWE-bench's
// have no place for: the pull request (Org, Repo, Number), the four test
// transitions by test name, and the recorded runs at the base commit
// (RunResult) and with the test patch (TestPatchResult), which the
// benchmark's definition of resolved compares the graded run with.
// Source: Multi-SWE-bench multi_swe_bench/harness/dataset.py (Dataset),
// pull_request.py (PullRequest), test_result.py (Test, TestResult).
type MultiSWEBench struct {
	Org             string
	Repo            string
	Number          int64
	P2P             map[string]MSBTest
	F2P             map[string]MSBTest
	S2P             map[string]MSBTest
	N2P             map[string]MSBTest
	RunResult       *MSBResult
	TestPatchResult *MSBResult
}

// isMultiSWERow tells a Multi-SWE-bench row by its fields: org and number,
// and fix_patch or one of the transition maps.
func isMultiSWERow(row map[string]any) bool {
	_, org := row["org"]
	_, num := row["number"]
	if !org || !num {
		return false
	}
	for _, k := range []string{"fix_patch", "f2p_tests", "p2p_tests", "s2p_tests", "n2p_tests"} {
		if _, ok := row[k]; ok {
			return true
		}
	}
	return false
}

// MultiSWEInstanceID is the instance id of pull request number of
// org/repo: "<org>__<repo>-<number>", the id Multi-SWE-bench's published
// rows carry (SWE-bench's owner__name-number convention).
func MultiSWEInstanceID(org, repo string, number int64) string {
	return fmt.Sprintf("%s__%s-%d", org, repo, number)
}

// msbKnown are the Multi-SWE-bench fields decodeMultiSWE reads or knows to
// leave in Extra unread.
var msbKnown = map[string]bool{"org": true, "repo": true, "number": true, "instance_id": true, "base": true,
	"fix_patch": true, "test_patch": true, "lang": true, "language": true, "title": true, "body": true,
	"p2p_tests": true, "f2p_tests": true, "s2p_tests": true, "n2p_tests": true,
	"run_result": true, "test_patch_result": true, "created_at": true, "test_command": true, "Dockerfile": true}

// decodeMultiSWE turns a Multi-SWE-bench row into an Instance:
// InstanceID "<org>__<repo>-<number>" (a row's own instance_id must be
// that), Repo "org/repo", BaseCommit base.sha, Patch fix_patch, TestPatch
// test_patch, Language lang (CanonicalLanguage), ProblemStatement the title
// and body; FailToPass the names of f2p_tests, s2p_tests and n2p_tests
// (every test that must end passing, sorted within each map), PassToPass
// those of p2p_tests; the transitions and recorded runs in MultiSWEBench.
// polynfi's test_command and Dockerfile, which Multi-SWE-bench keeps in
// per-repository code, are read when the row has them. Every malformed
// field is one error naming it ("base.sha", "f2p_tests[\"TestX\"].fix").
func decodeMultiSWE(row map[string]any) (Instance, []fieldError) {
	var in Instance
	var errs []fieldError
	m := &MultiSWEBench{}
	str := func(name string, required bool) string {
		v, ok := row[name]
		if !ok || v == nil {
			if required {
				errs = append(errs, fieldError{name, errors.New("missing")})
			}
			return ""
		}
		s, isStr := v.(string)
		if !isStr {
			errs = append(errs, fieldError{name, fmt.Errorf("want a string, got %s", jsonKind(v))})
			return ""
		}
		return s
	}
	m.Org = strings.TrimSpace(str("org", true))
	m.Repo = strings.TrimSpace(str("repo", true))
	for _, f := range []struct{ name, v string }{{"org", m.Org}, {"repo", m.Repo}} {
		if f.v == "" || f.v == "." || f.v == ".." || strings.ContainsAny(f.v, "/ \t\n") {
			if !hasFieldError(errs, f.name) {
				errs = append(errs, fieldError{f.name, fmt.Errorf("%q is not a GitHub %s name", f.v, f.name)})
			}
		}
	}
	if n, ok := wholeNumber(row["number"]); !ok || n <= 0 {
		errs = append(errs, fieldError{"number", fmt.Errorf("%v: want the pull request's number, a positive whole number", row["number"])})
	} else {
		m.Number = n
	}
	in.Repo = m.Org + "/" + m.Repo
	// The id is made of org, repo and number only when all three were
	// read: a bad one leaves the id empty (the error names the row and
	// the field), never an id of some other pull request ("org__repo-0").
	idParts := !hasFieldError(errs, "org") && !hasFieldError(errs, "repo") && !hasFieldError(errs, "number")
	if idParts {
		in.InstanceID = MultiSWEInstanceID(m.Org, m.Repo, m.Number)
	}
	if id := strings.TrimSpace(str("instance_id", false)); id != "" && idParts && id != in.InstanceID {
		errs = append(errs, fieldError{"instance_id", fmt.Errorf("%q, but org, repo and number make %q", id, in.InstanceID)})
	}
	if err := checkInstanceID(in.InstanceID); err != nil && len(errs) == 0 {
		errs = append(errs, fieldError{"instance_id", err})
	}
	switch b := row["base"].(type) {
	case map[string]any:
		rawSHA, present := b["sha"]
		sha, ok := rawSHA.(string)
		if present && rawSHA != nil && !ok {
			errs = append(errs, fieldError{"base.sha", fmt.Errorf("wrong type (%s, want string): the base commit's sha", bareKind(rawSHA))})
		} else if !ok || strings.TrimSpace(sha) == "" {
			errs = append(errs, fieldError{"base.sha", errors.New("missing: the base commit")})
		} else if sha = strings.TrimSpace(sha); strings.HasPrefix(sha, "-") || strings.ContainsAny(sha, " \t\n:") {
			errs = append(errs, fieldError{"base.sha", fmt.Errorf("%q is not a commit", sha)})
		} else {
			in.BaseCommit = sha
		}
	case nil:
		errs = append(errs, fieldError{"base", errors.New("missing: an object with the base commit's sha")})
	default:
		errs = append(errs, fieldError{"base", fmt.Errorf("want an object {label, ref, sha}, got %s", jsonKind(b))})
	}
	in.Patch = str("fix_patch", true)
	in.TestPatch = str("test_patch", true)
	lang := str("lang", false)
	if lang == "" {
		lang = str("language", false)
	}
	in.Language = CanonicalLanguage(lang)
	title, body := str("title", false), str("body", false)
	in.ProblemStatement = strings.TrimSpace(title + "\n\n" + body)
	in.CreatedAt = str("created_at", false)
	in.TestCommand = str("test_command", false)
	in.Dockerfile = str("Dockerfile", false)

	trans := func(name string) map[string]MSBTest {
		v, ok := row[name]
		if !ok || v == nil {
			return map[string]MSBTest{}
		}
		obj, err := asObject(v)
		if err != nil {
			errs = append(errs, fieldError{name, err})
			return nil
		}
		out := make(map[string]MSBTest, len(obj))
		for test, tv := range obj {
			t, isObj := tv.(map[string]any)
			if !isObj {
				errs = append(errs, fieldError{fmt.Sprintf("%s[%q]", name, test), fmt.Errorf("want {run, test, fix}, got %s", jsonKind(tv))})
				continue
			}
			var st MSBTest
			bad := false
			for _, f := range []struct {
				key string
				dst *string
			}{{"run", &st.Run}, {"test", &st.Test}, {"fix", &st.Fix}} {
				s, _ := t[f.key].(string)
				switch s {
				case MSBPass, MSBFail, MSBSkip, MSBNone:
					*f.dst = s
				default:
					bad = true
					errs = append(errs, fieldError{fmt.Sprintf("%s[%q].%s", name, test, f.key), fmt.Errorf("%v: want PASS, FAIL, SKIP or NONE", t[f.key])})
				}
			}
			if !bad {
				out[test] = st
			}
		}
		return out
	}
	m.P2P, m.F2P, m.S2P, m.N2P = trans("p2p_tests"), trans("f2p_tests"), trans("s2p_tests"), trans("n2p_tests")
	// Each map's transition must be the one its name says (report.py
	// sorts a test into p2p/f2p/s2p/n2p by exactly these).
	for _, c := range []struct {
		name       string
		tests      map[string]MSBTest
		test, fix  string
		whatBefore string
	}{
		{"p2p_tests", m.P2P, MSBPass, MSBPass, "PASS"},
		{"f2p_tests", m.F2P, MSBFail, MSBPass, "FAIL"},
		{"s2p_tests", m.S2P, MSBSkip, MSBPass, "SKIP"},
		{"n2p_tests", m.N2P, MSBNone, MSBPass, "NONE"},
	} {
		for _, name := range sortedKeys(c.tests) {
			if t := c.tests[name]; t.Test != c.test || t.Fix != c.fix {
				errs = append(errs, fieldError{fmt.Sprintf("%s[%q]", c.name, name),
					fmt.Errorf("test %s, fix %s: a test of %s goes from %s with the test patch to PASS with the fix", t.Test, t.Fix, c.name, c.whatBefore)})
			}
		}
	}
	m.RunResult = decodeMSBResult(row, "run_result", &errs)
	m.TestPatchResult = decodeMSBResult(row, "test_patch_result", &errs)
	in.FailToPass = append(append(sortedKeys(m.F2P), sortedKeys(m.S2P)...), sortedKeys(m.N2P)...)
	in.PassToPass = sortedKeys(m.P2P)
	// "Empty" only when no test of f2p, s2p or n2p was dropped for an
	// error of its own: a knock-on of that error is not a second problem.
	if len(in.FailToPass) == 0 && !hasFieldErrorUnder(errs, "f2p_tests", "s2p_tests", "n2p_tests") {
		errs = append(errs, fieldError{"f2p_tests", errors.New("empty, and so are s2p_tests and n2p_tests: an instance needs a test that the fix makes pass")})
	}
	in.MultiSWEBench = m
	for _, f := range []struct{ name, v string }{{"repo", in.Repo}, {"lang", in.Language}, {"created_at", strings.TrimSpace(in.CreatedAt)}} {
		if err := textesc.CheckName(f.v); err != nil && !hasFieldError(errs, f.name) {
			errs = append(errs, fieldError{f.name, fmt.Errorf("%q %w", f.v, err)})
		}
	}
	for k, v := range row {
		if msbKnown[k] {
			continue
		}
		if in.Extra == nil {
			in.Extra = map[string]any{}
		}
		in.Extra[k] = v
	}
	return in, errs
}

// bareKind is jsonKind without its article: "number", "object".
func bareKind(v any) string {
	k := jsonKind(v)
	return strings.TrimPrefix(strings.TrimPrefix(k, "an "), "a ")
}

// hasFieldErrorUnder tells whether errs has an error on one of fields or
// on a part of one (`f2p_tests["TestX"].fix`).
func hasFieldErrorUnder(errs []fieldError, fields ...string) bool {
	for _, e := range errs {
		for _, f := range fields {
			if e.field == f || strings.HasPrefix(e.field, f+"[") || strings.HasPrefix(e.field, f+".") {
				return true
			}
		}
	}
	return false
}

// decodeMSBResult reads a TestResult field ({passed_count, failed_count,
// skipped_count, passed_tests, failed_tests, skipped_tests}) with
// Multi-SWE-bench's own checks (TestResult.__post_init__): the counts
// match the lists, no name in two lists. Nil when the row has no such
// field.
func decodeMSBResult(row map[string]any, name string, errs *[]fieldError) *MSBResult {
	v, ok := row[name]
	if !ok || v == nil {
		return nil
	}
	obj, err := asObject(v)
	if err != nil {
		*errs = append(*errs, fieldError{name, err})
		return nil
	}
	r := &MSBResult{}
	seen := map[string]string{}
	n0 := len(*errs)
	for _, l := range []struct {
		key, count string
		dst        *[]string
	}{{"passed_tests", "passed_count", &r.Passed}, {"failed_tests", "failed_count", &r.Failed}, {"skipped_tests", "skipped_count", &r.Skipped}} {
		raw, ok := obj[l.key]
		if !ok || raw == nil {
			raw = []any{}
		}
		arr, isArr := raw.([]any)
		if !isArr {
			*errs = append(*errs, fieldError{name + "." + l.key, fmt.Errorf("want a list of test names, got %s", jsonKind(raw))})
			continue
		}
		for _, e := range arr {
			s, isStr := e.(string)
			if !isStr {
				*errs = append(*errs, fieldError{name + "." + l.key, fmt.Errorf("want test names as strings, got %s", jsonKind(e))})
				continue
			}
			if other, dup := seen[s]; dup {
				*errs = append(*errs, fieldError{name + "." + l.key, fmt.Errorf("%q is in %s too", s, other)})
				continue
			}
			seen[s] = l.key
			*l.dst = append(*l.dst, s)
		}
		sort.Strings(*l.dst)
		if c, ok := obj[l.count]; ok && c != nil {
			if n, isNum := wholeNumber(c); !isNum || n != int64(len(arr)) {
				*errs = append(*errs, fieldError{name + "." + l.count, fmt.Errorf("%v, but %s has %d names", c, l.key, len(arr))})
			}
		}
	}
	if len(*errs) > n0 {
		return nil
	}
	return r
}

// asObject returns v as a JSON object: a decoded object, or a string
// holding one (CSV and Parquet cells).
func asObject(v any) (map[string]any, error) {
	switch x := v.(type) {
	case map[string]any:
		return x, nil
	case string:
		var obj map[string]any
		if err := json.Unmarshal([]byte(x), &obj); err != nil || obj == nil {
			return nil, fmt.Errorf("want a JSON object, got text that is not one")
		}
		return obj, nil
	}
	return nil, fmt.Errorf("want an object, got %s", jsonKind(v))
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// wholeNumber reads a JSON number that is a whole number (json.Number,
// float64 or an integer type, as the readers decode it).
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			return 0, false
		}
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	}
	return 0, false
}
