package testlog

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestKnownDifferences reads every runner log with polynfi's reader of the
// runner Detect finds and with each official reading of that runner, and
// requires every difference (a test's official status against polynfi's,
// "" for a test one side lacks, "invalid" for a reading Multi-SWE-bench
// refuses) to be listed in KnownDifferences, and every listed difference
// to show on some log.
func TestKnownDifferences(t *testing.T) {
	t.Parallel()
	logs := runnerLogs(t)
	type key struct {
		bench, reader string
		runner        Framework
		off, own      Status
	}
	listed := map[key]bool{}
	for _, k := range KnownDifferences {
		listed[key{k.Benchmark, k.Reader, k.Runner, k.Official, k.Own}] = true
	}
	seen := map[key]string{}
	pairs := []struct {
		bench, reader string
		runner        Framework
	}{
		{"swebench", "parse_log_gotest", GoTest}, {"swebench", "parse_log_cargo", Cargo},
		{"swebench", "parse_log_googletest", GoogleTest}, {"swebench", "parse_log_redis", Redis},
		{"swebench", "parse_log_jq", Automake}, {"swebench", "parse_log_doctest", Doctest},
		{"swebench", "parse_log_phpunit", PHPUnit},
		{"multi-swe-bench", "gotest", GoTest}, {"multi-swe-bench", "cargo", Cargo},
		{"multi-swe-bench", "ctest", CTest}, {"multi-swe-bench", "ctest_failed_at_end", CTest},
		{"multi-swe-bench", "catch2_ctest", CTest}, {"multi-swe-bench", "redis", Redis},
		{"multi-swe-bench", "automake_jq", Automake}, {"multi-swe-bench", "minitest", Minitest},
	}
	compared := 0
	for _, l := range logs {
		fw, ok := Detect([]byte(l.log))
		if !ok {
			continue
		}
		ownRs, err := Parse(fw, []byte(l.log))
		if err != nil {
			t.Fatalf("%s: %v", l.name, err)
		}
		own := ToMap(ownRs)
		for _, p := range pairs {
			if p.runner != fw || (fw == GoTest && reGoTestJSON().MatchString(l.log)) || (fw == Cargo && reCargoJSON().MatchString(l.log)) {
				continue // the official readers read text only
			}
			off := map[string]Status{}
			if p.bench == "swebench" {
				rs, err := ParseSWEBench(p.reader, []byte(l.log), SWEBenchContext{InstanceID: "x__y-1"})
				if err != nil {
					seen[key{p.bench, p.reader, p.runner, "invalid", ""}] = l.name
					continue
				}
				off = ToMap(rs)
			} else {
				m, err := ParseMultiSWEBench(p.reader, []byte(l.log))
				if err != nil {
					k := key{p.bench, p.reader, p.runner, "invalid", ""}
					seen[k] = l.name
					continue
				}
				off = ToMap(m.Results())
			}
			compared++
			for id, s := range off {
				if own[id] != s {
					seen[key{p.bench, p.reader, p.runner, s, own[id]}] = l.name + ": " + id
				}
			}
			for id, s := range own {
				if _, ok := off[id]; !ok {
					seen[key{p.bench, p.reader, p.runner, "", s}] = l.name + ": " + id
				}
			}
		}
	}
	var unlisted []string
	for k, where := range seen {
		if !listed[k] {
			unlisted = append(unlisted, fmt.Sprintf("{%q, %q, %s, %q, %q} (%s)", k.bench, k.reader, k.runner, k.off, k.own, where))
		}
	}
	sort.Strings(unlisted)
	if len(unlisted) > 0 {
		t.Errorf("differences not in KnownDifferences:\n%s", strings.Join(unlisted, "\n"))
	}
	for _, k := range KnownDifferences {
		if _, ok := seen[key{k.Benchmark, k.Reader, k.Runner, k.Official, k.Own}]; !ok {
			t.Errorf("listed difference shown by no log: %+v", k)
		}
	}
	if compared < len(pairs) {
		t.Errorf("%d comparisons for %d reader pairs", compared, len(pairs))
	}
}
