package testlog

import (
	"regexp"
	"strings"
	"sync"
)

var (
	// reTAPPoint matches a test point (after indentation is removed):
	// "ok 3 - description # SKIP reason".
	reTAPPoint = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(not ok|ok)\b(?:\s+\d+)?(?:\s+-)?\s*(.*)$`) })
	// reTAPDirective matches an unescaped trailing "# SKIP ..." / "# TODO ...".
	reTAPDirective = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)(?:^|[^\\])#\s*(SKIP|TODO)\S*(?:\s.*)?$`) })
	reTAPSubtest   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^# Subtest:\s*(.*)$`) })
)

type tapParent struct {
	indent int
	name   string
}

// parseTAP reads a TAP 13 or 14 stream (node --test, node-tap, tape, Bats).
// Each test point is one Result; its id is its description (number and
// leading "- " removed, a trailing directive removed, "\#" unescaped),
// prefixed by the names of the enclosing "# Subtest:" blocks joined with
// " > " (TAP 14 nests subtests by four-space indentation). YAML diagnostic
// blocks ("---" ... "...") are skipped. "ok" is Passed, "not ok" Failed,
// "# SKIP" Skipped, "not ok # TODO" XFail and "ok # TODO" Passed.
//
// Source: TAP 14 specification (testanything.org/tap-version-14-specification).
func parseTAP(log []byte) []Result {
	var out []Result
	var stack []tapParent
	yamlIndent := -1
	for _, raw := range splitLines(log) {
		line := strings.TrimRight(stripANSI(raw), " \t\r")
		body := strings.TrimLeft(line, " \t")
		indent := len(line) - len(body)
		if yamlIndent >= 0 {
			if body == "..." && indent >= yamlIndent {
				yamlIndent = -1
			}
			continue
		}
		if body == "---" {
			yamlIndent = indent
			continue
		}
		if m := reTAPSubtest().FindStringSubmatch(body); m != nil {
			stack = popTAP(stack, indent)
			stack = append(stack, tapParent{indent: indent, name: m[1]})
			continue
		}
		m := reTAPPoint().FindStringSubmatch(body)
		if m == nil {
			continue
		}
		desc, status := m[2], Passed
		if m[1] == "not ok" {
			status = Failed
		}
		if d := reTAPDirective().FindStringSubmatchIndex(desc); d != nil {
			dir := strings.ToUpper(desc[d[2]:d[3]])
			cut := d[0]
			if desc[cut] != '#' {
				cut++
			}
			desc = desc[:cut]
			switch {
			case dir == "SKIP":
				status = Skipped
			case dir == "TODO" && status == Failed:
				status = XFail
			}
		}
		desc = strings.ReplaceAll(strings.TrimSpace(desc), `\#`, "#")
		var names []string
		for _, p := range stack {
			if p.indent < indent {
				names = append(names, p.name)
			}
		}
		stack = popTAP(stack, indent)
		out = append(out, Result{ID: strings.Join(append(names, desc), " > "), Status: status})
	}
	return out
}

// popTAP drops the subtest headers at indentation indent or deeper.
func popTAP(stack []tapParent, indent int) []tapParent {
	for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
		stack = stack[:len(stack)-1]
	}
	return stack
}
