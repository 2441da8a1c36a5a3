package report

import (
	"strings"
	"testing"
)

// TestPageEscapesAttackerText: a model name or instance id read from an
// older or edited run directory, rendered as text, Markdown and HTML,
// cannot add a line, send an escape sequence, inject HTML or a
// javascript: link.
func TestPageEscapesAttackerText(t *testing.T) {
	t.Parallel()
	evil := "m\nresolved 8/8\x1b[2J<script>alert(1)</script><img src=x onerror=alert(1)>[x](javascript:alert(1))`|"
	p := Page{Title: "run " + evil, Notice: evil, Lines: []string{"model " + evil, "  " + evil}, Footer: evil,
		Tables: []Table{{Title: evil, Header: []string{"unit", "log"}, Rows: [][]string{{evil, "x"}},
			Links: [][]string{{"", "javascript:alert(1)"}}, Notes: []string{evil}}},
		Sections: []Page{{Title: evil, Lines: []string{evil}}}}
	var text, md, html strings.Builder
	if err := WritePageText(&text, p); err != nil {
		t.Fatal(err)
	}
	if err := WritePageMarkdown(&md, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, p); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": html.String()} {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, "-#* "), "resolved 8/8") {
				t.Errorf("%s: forged line %q", name, l)
			}
		}
		if strings.ContainsRune(out, '\x1b') {
			t.Errorf("%s: raw ESC in the output", name)
		}
	}
	for name, out := range map[string]string{"markdown": md.String(), "html": html.String()} {
		for _, bad := range []string{"<script", "<img", `href="javascript:`} {
			if strings.Contains(out, bad) {
				t.Errorf("%s holds %q:\n%s", name, bad, out)
			}
		}
	}
	// a Markdown link needs an unescaped "](": every one left is escaped,
	// and the table's link is made relative
	if n, esc := strings.Count(md.String(), "]("), strings.Count(md.String(), `\](`); n != esc+1 || !strings.Contains(md.String(), "](javascript%3Aalert%281%29)") {
		t.Errorf("markdown has %d links, want 1, made relative:\n%s", n-esc, md.String())
	}
	if !strings.Contains(md.String(), `&lt;script&gt;`) || !strings.Contains(text.String(), `m\nresolved 8/8\x1b[2J`) {
		t.Errorf("the text is not shown escaped:\n%s\n%s", text.String(), md.String())
	}
	// a Markdown table row stays one row of two cells
	for _, l := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(l, "| m") && strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") != 3 {
			t.Errorf("markdown row split: %q", l)
		}
	}
}
