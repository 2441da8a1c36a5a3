package testlog

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
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
		name, word, ok := cargoLine(strings.TrimSpace(stripANSI(raw)))
		if !ok {
			continue
		}
		st := Passed
		switch word {
		case "FAILED":
			st = Failed
		case "ignored":
			st = Skipped
		}
		out = append(out, Result{ID: name, Status: st})
	}
	return out
}

// goSpace is Go's ASCII \s class: tab, newline, form feed, carriage return
// and space.
func goSpace(c byte) bool { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ' }

// cargoLine is reCargoLine written out (TestCargoMatchersAgreeWithPatterns):
// the test's name and its word.
func cargoLine(line string) (name, word string, ok bool) {
	if !strings.HasPrefix(line, "test ") {
		return "", "", false
	}
	i := len("test ")
	j := i
	for j < len(line) && !goSpace(line[j]) {
		j++
	}
	if j == i || !strings.HasPrefix(line[j:], " ... ") {
		return "", "", false
	}
	rest := line[j+len(" ... "):]
	for _, w := range []string{"ok", "FAILED", "ignored"} {
		if strings.HasPrefix(rest, w) {
			tail := rest[len(w):]
			if tail == "" || tail[0] == ',' && !strings.Contains(tail, "\n") {
				return line[i:j], w, true
			}
			return "", "", false
		}
	}
	return "", "", false
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
		name, word, ok := swebCargoLine(pyStrip(line))
		if !ok {
			continue
		}
		switch word {
		case "ok":
			m.set(name, Passed)
		case "FAILED":
			m.set(name, Failed)
		}
	}
	return m, nil
}

// pySpaces returns where the run of MustCompilePython \s characters at
// s[i:] ends.
func pySpaces(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !pyReSpace(r) {
			break
		}
		i += n
	}
	return i
}

// pyNonSpaces returns where the run of MustCompilePython \S characters at
// s[i:] ends.
func pyNonSpaces(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < 0x80 {
			if c == ' ' || c >= '\t' && c <= '\r' || c >= 0x1c && c <= 0x1f {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if pyReSpace(r) {
			break
		}
		i += n
	}
	return i
}

// pyWord reports whether r is in MustCompilePython's \w class.
func pyWord(r rune) bool {
	if r < 0x80 {
		return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// swebCargoLine is reSWEBCargo written out
// (TestCargoMatchersAgreeWithPatterns): the name and the word.
func swebCargoLine(line string) (name, word string, ok bool) {
	if !strings.HasPrefix(line, "test") {
		return "", "", false
	}
	i := pySpaces(line, 4)
	j := pyNonSpaces(line, i)
	k := pySpaces(line, j)
	if i == 4 || j == i || k == j || !strings.HasPrefix(line[k:], "...") {
		return "", "", false
	}
	w := pySpaces(line, k+3)
	if w == k+3 || w == len(line) {
		return "", "", false
	}
	for _, r := range line[w:] {
		if !pyWord(r) {
			return "", "", false
		}
	}
	return line[i:j], line[w:], true
}

// msweCargoLine is the patterns of msweCargo written out
// (TestCargoMatchersAgreeWithPatterns): "^test (\S+) ... <word>", any
// three characters but a newline between the spaces.
func msweCargoLine(line, word string) (string, bool) {
	if !strings.HasPrefix(line, "test ") {
		return "", false
	}
	j := pyNonSpaces(line, 5)
	if j == 5 || j >= len(line) || line[j] != ' ' {
		return "", false
	}
	k := j + 1
	for n := 0; n < 3; n++ {
		if k >= len(line) || line[k] == '\n' {
			return "", false
		}
		_, size := utf8.DecodeRuneInString(line[k:])
		k += size
	}
	if !strings.HasPrefix(line[k:], " "+word) {
		return "", false
	}
	return line[5:j], true
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
		if name, ok := msweCargoLine(line, "ok"); ok {
			s.passed.add(name)
		}
		if name, ok := msweCargoLine(line, "FAILED"); ok {
			s.failed.add(name)
		}
		if name, ok := msweCargoLine(line, "ignored"); ok {
			s.skipped.add(name)
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
