package testlog

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
)

// RSpec: its JSON formatter (--format json), read by polynfi
// (Parse(RSpec, ...)), and the "description - status" lines SWE-bench's
// eval scripts make of it, read by SWE-bench 5.0.2's
// parse_log_rspec_transformed_json.

var reRSpecJSON = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{"version":"[^"]*",(?:"seed":\d+,)?"examples":\[`) })

// rspecReport is the part of RSpec's JSON report that testlog reads.
type rspecReport struct {
	Examples []struct {
		ID              string `json:"id"`
		FullDescription string `json:"full_description"`
		Status          string `json:"status"`
	} `json:"examples"`
}

// parseRSpec reads the JSON report of rspec --format json, found anywhere
// in the log. Each example is one result with its full_description as id:
// "passed" Passed, "failed" Failed, "pending" (skip, pending) Skipped.
// Two examples with one description appear twice.
//
// Source: RSpec::Core::Formatters::JsonFormatter (rspec-core 3.12).
func parseRSpec(log []byte) []Result {
	if !bytes.Contains(log, []byte(`"examples":[`)) {
		return nil
	}
	v, ok := decodeEmbedded(log, reRSpecJSON(), func() any { return new(rspecReport) })
	if !ok {
		return nil
	}
	var out []Result
	for _, e := range v.(*rspecReport).Examples {
		var st Status
		switch e.Status {
		case "passed":
			st = Passed
		case "failed":
			st = Failed
		case "pending":
			st = Skipped
		default:
			continue
		}
		out = append(out, Result{ID: e.FullDescription, Status: st})
	}
	return out
}

var reSWEBRSpec = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^(.+) - (passed|failed)`) })

// parseSWEBRSpecTransformed is SWE-bench's
// parse_log_rspec_transformed_json: a stripped line starting "<name> -
// passed|failed" (the last such " - " of the line; the rest of the line
// unread) sets name PASSED or FAILED. Pending examples are not read.
func parseSWEBRSpecTransformed(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, " - ") {
			continue
		}
		g := reSWEBRSpec().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		if g[2] == "passed" {
			m.set(g[1], Passed)
		} else {
			m.set(g[1], Failed)
		}
	}
	return m, nil
}

func init() {
	swebParsers["parse_log_rspec_transformed_json"] = parseSWEBRSpecTransformed
}
