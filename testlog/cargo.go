package testlog

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// cargo test (Rust's libtest): its text lines ("test name ... ok") and its
// JSON events (--format json, one object per line), read three ways:
// polynfi's own reading (Parse(Cargo, ...)), SWE-bench 5.0.2's
// parse_log_cargo and Multi-SWE-bench 1.1.2's cargo reader.

var (
	reCargoLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^test (\S+) \.\.\. (ok|FAILED|ignored)(?:,.*)?$`) })
	// reCargoJSON marks libtest's JSON output.
	reCargoJSON = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\{\s*"type"\s*:\s*"(?:suite|test)"`) })
)

// libtestEvent is one line of libtest's JSON output.
type libtestEvent struct {
	Type  string `json:"type"`
	Event string `json:"event"`
	Name  string `json:"name"`
}

// parseCargo reads cargo test output. JSON events (libtest --format json)
// when present: each {"type":"test"} event "ok" is Passed, "failed" Failed,
// "ignored" Skipped, "timeout" Error; "started" events without an outcome
// are Error (the test binary died under them). Otherwise the text lines
// "test name ... ok|FAILED|ignored[, reason]" (colour codes removed) with
// ok Passed, FAILED Failed, ignored Skipped. Ids are the test paths
// ("module::test"); a name run by two test binaries (the library's and an
// integration test's) appears twice. Benchmarks ("... bench:") are not
// tests.
//
// Source: libtest's console and JSON formatters (library/test/src/
// formatters/{pretty,terse,json}.rs).
func parseCargo(log []byte) []Result {
	if bytes.Contains(log, []byte(`"type"`)) && reCargoJSON().Match(log) {
		return parseCargoJSON(log)
	}
	var out []Result
	for _, raw := range splitLines(log) {
		if !strings.Contains(raw, "test ") {
			continue
		}
		m := reCargoLine().FindStringSubmatch(strings.TrimSpace(stripANSI(raw)))
		if m == nil {
			continue
		}
		st := Passed
		switch m[2] {
		case "FAILED":
			st = Failed
		case "ignored":
			st = Skipped
		}
		out = append(out, Result{ID: m[1], Status: st})
	}
	return out
}

func parseCargoJSON(log []byte) []Result {
	var out []Result
	open := map[string]bool{}
	var started []string
	for _, line := range splitLines(log) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var ev libtestEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil || ev.Type != "test" || ev.Name == "" {
			continue
		}
		var st Status
		switch ev.Event {
		case "started":
			if !open[ev.Name] {
				open[ev.Name] = true
				started = append(started, ev.Name)
			}
			continue
		case "ok":
			st = Passed
		case "failed":
			st = Failed
		case "ignored":
			st = Skipped
		case "timeout":
			st = Error
		default:
			continue
		}
		delete(open, ev.Name)
		out = append(out, Result{ID: ev.Name, Status: st})
	}
	return appendCrashed(out, started, open)
}

var reSWEBCargo = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^test\s+(\S+)\s+\.\.\.\s+(\w+)$`) })

// parseSWEBCargo is SWE-bench's parse_log_cargo: a stripped line "test
// name ... word" sets name PASSED for "ok", FAILED for "FAILED"; ignored
// tests (and "ignored, reason" lines) are not read.
func parseSWEBCargo(log string, _ SWEBenchContext) (*statusMap, error) {
	m := newStatusMap()
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, "...") || !strings.Contains(line, "test") {
			continue
		}
		g := reSWEBCargo().FindStringSubmatch(pyStrip(line))
		if g == nil {
			continue
		}
		switch g[2] {
		case "ok":
			m.set(g[1], Passed)
		case "FAILED":
			m.set(g[1], Failed)
		}
	}
	return m, nil
}

var (
	reMSWECargoPass = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^test (\S+) ... ok`) })
	reMSWECargoFail = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^test (\S+) ... FAILED`) })
	reMSWECargoSkip = sync.OnceValue(func() *regexp.Regexp { return MustCompilePython(`^test (\S+) ... ignored`) })
)

// msweCargo is the parse_log of most of Multi-SWE-bench's Rust
// repositories: a stripped line starting "test name ... ok" passes name,
// "... FAILED" fails it, "... ignored" skips it ("." any character, the
// rest of the line unread). A name both passed and failed (two test
// binaries with the same test path) makes the reading invalid.
func msweCargo(log string) *msweSets {
	s := newMSWESets()
	for _, line := range msweLines(log) {
		if !strings.HasPrefix(line, "test ") {
			continue
		}
		if g := reMSWECargoPass().FindStringSubmatch(line); g != nil {
			s.passed.add(g[1])
		}
		if g := reMSWECargoFail().FindStringSubmatch(line); g != nil {
			s.failed.add(g[1])
		}
		if g := reMSWECargoSkip().FindStringSubmatch(line); g != nil {
			s.skipped.add(g[1])
		}
	}
	return s
}

func init() {
	swebParsers["parse_log_cargo"] = parseSWEBCargo
	registerMSWE("cargo", msweCargo,
		"nushell/nushell", "rusqlite/rusqlite", "rust-lang/mdBook", "clap-rs/clap", "tokio-rs/tracing",
		"tokio-rs/tokio", "tokio-rs/bytes", "bee-san/RustScan", "helix-editor/helix", "fish-shell/fish-shell",
		"BurntSushi/ripgrep", "alacritty/alacritty", "rayon-rs/rayon", "sharkdp/bat", "sharkdp/fd", "serde-rs/serde")
}
