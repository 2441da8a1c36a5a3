package pyast

import (
	"strings"

	"github.com/polynfi/polynfi/syntax"
)

// Comment is one `#` comment token of a file. Text inside string literals is
// never a comment.
type Comment struct {
	Node syntax.NodeID
	// Line is 1-based; Column is the 0-based UTF-8 byte column of the `#`.
	Line, Column int
	// Text is the token from `#` to the end of the line, without the line
	// break (a trailing "\r" is removed).
	Text string
	// OwnLine is true when only whitespace precedes the comment on its line
	// (a standalone comment rather than a trailing one).
	OwnLine bool
}

// Comments returns every comment token in source order (the shebang and
// encoding lines included), computed once per file.
func (m *Module) Comments() []Comment {
	if m.comments == nil {
		out := buildComments(m.Tree, m.index().lists[listComment])
		m.comments = &out
	}
	return *m.comments
}

// buildComments reads the comments among nodes ids (the file's comment
// nodes, in preorder). The comments' texts share one allocation.
func buildComments(t *syntax.Tree, ids []syntax.NodeID) []Comment {
	if len(ids) == 0 {
		return nil
	}
	size := 0
	for _, i := range ids {
		size += int(t.Nodes[i].EndByte - t.Nodes[i].StartByte)
	}
	var texts strings.Builder
	texts.Grow(size)
	out := make([]Comment, 0, len(ids))
	rc := t.NewRowCursor()
	for _, i := range ids {
		n := &t.Nodes[i]
		if !n.Extra || n.Kind() != "comment" {
			continue
		}
		texts.Write(commentText(t, n))
		row := rc.Row(n.StartByte)
		c := Comment{Node: syntax.NodeID(i), Line: int(row) + 1, Column: int(n.StartByte - t.LineStarts()[row]), OwnLine: true}
		for j := int(n.StartByte) - 1; j >= 0 && t.Source[j] != '\n' && t.Source[j] != '\r'; j-- {
			if b := t.Source[j]; b != ' ' && b != '\t' && b != '\f' {
				c.OwnLine = false
				break
			}
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil // as when nothing was appended
	}
	all, off := texts.String(), 0
	for k := range out {
		end := off + len(commentText(t, &t.Nodes[out[k].Node]))
		out[k].Text = all[off:end]
		off = end
	}
	return out
}

// commentText returns comment node n's text without a trailing "\r".
func commentText(t *syntax.Tree, n *syntax.Node) []byte {
	text := t.Source[n.StartByte:n.EndByte]
	if k := len(text); k > 0 && text[k-1] == '\r' {
		text = text[:k-1]
	}
	return text
}

// PragmaStart returns the byte offset in comment (which starts with `#`) of
// its trailing pragma: the first `#`, the comment's own or a later one, from
// which the rest is a pragma comment (see IsPragmaComment); -1 when there is
// none. `# see the URL  # noqa: E501` has its pragma at the second `#`.
//
// Source: measured against Ruff 0.17.6's E501 and W505, which strip such a
// trailing pragma before measuring a line (issue #18).
func PragmaStart(comment string) int {
	for i := 0; i < len(comment); i++ {
		if comment[i] == '#' && IsPragmaComment(comment[i:]) {
			return i
		}
	}
	return -1
}

// IsPragmaComment reports a `# noqa` (any case, no colon needed), `# nosec`
// or tool-directive comment (`# type:`, `# pyright:`, `# pylint:`,
// `# flake8:`, `# ruff:`, `# ty:`, `# isort:`, `# pyrefly:`), whitespace
// allowed after the `#`. Source: Ruff ruff_python_trivia pragmas.rs
// is_pragma_comment, checked against Ruff 0.17.6.
func IsPragmaComment(c string) bool {
	rest, ok := strings.CutPrefix(c, "#")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, " \t\f")
	if len(rest) >= 4 && strings.EqualFold(rest[:4], "noqa") {
		return true
	}
	if strings.HasPrefix(rest, "nosec") {
		return true
	}
	head, _, found := strings.Cut(rest, ":")
	if !found {
		return false
	}
	switch head {
	case "isort", "type", "pyright", "pylint", "flake8", "ruff", "ty", "pyrefly":
		return true
	}
	return false
}
