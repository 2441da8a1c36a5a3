package testlog

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// decodeEmbedded decodes the first JSON value that starts at a match of
// start in log into v, ignoring any text before and after it. It tries each
// match in turn and reports whether one decoded.
func decodeEmbedded(log []byte, start *regexp.Regexp, v func() any) (any, bool) {
	for _, loc := range start.FindAllIndex(log, -1) {
		dst := v()
		if err := json.NewDecoder(bytes.NewReader(log[loc[0]:])).Decode(dst); err == nil {
			return dst, true
		}
	}
	return nil, false
}

// jestReport is the part of Jest's --json output that testlog reads.
type jestReport struct {
	TestResults []struct {
		Name             string `json:"name"`
		Status           string `json:"status"`
		Message          string `json:"message"`
		AssertionResults []struct {
			FullName string `json:"fullName"`
			Title    string `json:"title"`
			Status   string `json:"status"`
		} `json:"assertionResults"`
	} `json:"testResults"`
}

// parseJest reads the JSON report that jest --json prints (stdout), found
// anywhere in the log by its leading "numFailedTestSuites" key. Ids are
// "<test file>-><fullName>" (title when fullName is absent). Status
// "passed" is Passed, "failed" Failed, "pending", "skipped", "todo" and
// "disabled" are Skipped. A test file that failed to run (a syntax or type
// error: no assertion results, status "failed") is reported once with the
// file path alone as id and status Error.
//
// Source: SWE-PolyBench javascript_parsers.py JavascriptJestPR and
// typescript_parsers.py TypescriptJest (id "<file>-><fullName>").
func parseJest(log []byte) []Result {
	v, ok := decodeEmbedded(log, reJestJSON(), func() any { return new(jestReport) })
	if !ok {
		return nil
	}
	rep := v.(*jestReport)
	var out []Result
	for _, suite := range rep.TestResults {
		if len(suite.AssertionResults) == 0 && suite.Status == "failed" {
			out = append(out, Result{ID: suite.Name, Status: Error})
			continue
		}
		for _, a := range suite.AssertionResults {
			name := a.FullName
			if name == "" {
				name = a.Title
			}
			var st Status
			switch a.Status {
			case "passed":
				st = Passed
			case "failed":
				st = Failed
			case "pending", "skipped", "todo", "disabled":
				st = Skipped
			default:
				continue
			}
			out = append(out, Result{ID: suite.Name + "->" + name, Status: st})
		}
	}
	return out
}

// mochaTest is one test of Mocha's JSON reporter.
type mochaTest struct {
	Title     string `json:"title"`
	FullTitle string `json:"fullTitle"`
}

// mochaReport is Mocha's JSON reporter output.
type mochaReport struct {
	Stats    json.RawMessage `json:"stats"`
	Passes   []mochaTest     `json:"passes"`
	Failures []mochaTest     `json:"failures"`
	Pending  []mochaTest     `json:"pending"`
}

// parseMocha reads the output of mocha --reporter json, found anywhere in
// the log by its leading "stats" key. Ids are the tests' fullTitle. Passes
// are Passed, pending tests Skipped, failures Failed; a failing hook
// ("\"before each\" hook for ...") is Error.
//
// Source: SWE-PolyBench javascript_parsers.py JavascriptMocha (id fullTitle).
func parseMocha(log []byte) []Result {
	v, ok := decodeEmbedded(log, reMochaJSON(), func() any { return new(mochaReport) })
	if !ok {
		return nil
	}
	rep := v.(*mochaReport)
	var out []Result
	for _, t := range rep.Passes {
		out = append(out, Result{ID: t.FullTitle, Status: Passed})
	}
	for _, t := range rep.Failures {
		st := Failed
		if strings.HasPrefix(t.Title, `"before `) || strings.HasPrefix(t.Title, `"after `) {
			st = Error
		}
		out = append(out, Result{ID: t.FullTitle, Status: st})
	}
	for _, t := range rep.Pending {
		out = append(out, Result{ID: t.FullTitle, Status: Skipped})
	}
	return out
}
