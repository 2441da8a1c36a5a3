// Package textesc makes untrusted text safe for the reader of each output
// format polynfi writes: a model name, an instance id, a file name of a
// pull request, an agent's output. There is one function per format and
// every writer of that format uses it; JSON and SARIF need none (their
// encoders escape).
//
// Control characters are shown, never passed on. A control character is
// a C0 control (U+0000–U+001F), DEL (U+007F), a C1 control
// (U+0080–U+009F), a bidirectional formatting character (U+061C,
// U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, the "Trojan Source"
// set), the line and paragraph separators U+2028 and U+2029, or a byte
// that is not UTF-8. Terminal writes each as a visible Go-style escape:
// "\n", "\r", "\t", "\x1b" for the other C0 controls and DEL, "\u009b"
// for C1 and the Unicode ones, "\xff" for a byte that is not UTF-8. A
// backslash already in the text is left as it is (names and test ids
// hold backslashes), so the escape is for the eye, not reversible.
//
// Source: OWASP "CSV Injection" (formula-leading characters); GitHub
// Actions toolkit, command.ts (escapeData, escapeProperty); CommonMark
// 0.31 §2.4 "Backslash escapes"; Boucher and Anderson, "Trojan Source"
// (2021), for the bidirectional controls.
package textesc

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// IsControl reports whether r is a control character in the sense of
// the package comment (utf8.RuneError stands for a byte that is not
// UTF-8 only when the caller decoded it so).
func IsControl(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// CheckName returns an error when s, a name or id read from an input
// (instance_id, repo, model_name_or_path, ...), holds a control
// character or is not UTF-8, naming the first such character and its
// byte offset; nil otherwise. Names are shown on terminals, in headings
// and in tables: one with a newline or an escape sequence could forge
// or hide a line of a report.
func CheckName(s string) error {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return fmt.Errorf("byte %d is not UTF-8 (%s)", i, Terminal(s[i:i+1]))
		}
		if IsControl(r) {
			return fmt.Errorf("holds a control character %s at byte %d", Terminal(string(r)), i)
		}
		i += n
	}
	return nil
}

// escapeControls writes s with every control character replaced by its
// visible escape; keep reports the controls to pass unchanged.
func escapeControls(s string, keep func(rune) bool) string {
	if clean(s, keep) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !IsControl(r) || keep != nil && keep(r):
			b.WriteString(s[i : i+n])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
		i += n
	}
	return b.String()
}

// clean reports that s needs no escaping (the common case, no allocation).
func clean(s string, keep func(rune) bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || IsControl(r) && (keep == nil || !keep(r)) {
			return false
		}
		i += n
	}
	return true
}

// Terminal returns s as one line of plain text for a terminal or a text
// file: every control character, the newline and tab included, becomes
// its visible escape (package comment), so s can neither end the line
// nor move the cursor, recolour or retitle the terminal.
func Terminal(s string) string { return escapeControls(s, nil) }

// TerminalBlock is Terminal for text of several lines (an agent's
// output, an error message): newlines and tabs are kept, every other
// control character (a carriage return, ESC) is escaped.
func TerminalBlock(s string) string {
	return escapeControls(s, func(r rune) bool { return r == '\n' || r == '\t' })
}

// markdownReplacer escapes what CommonMark and GitHub-flavoured Markdown
// would read as markup: raw HTML and entities (as entities, so that
// "<script>" or "&lt;" show as typed), link and image brackets, code
// spans, emphasis ("*"; "_" by escapeUnderscores), strikethrough, table
// cell separators and the backslash itself.
var markdownReplacer = strings.NewReplacer(
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "`", "\\`", "[", `\[`, "]", `\]`, "|", `\|`,
	"*", `\*`, "~", `\~`,
)

// escapeUnderscores backslash-escapes each run of "_" that could open or
// close emphasis: one not between two letters or digits. A run inside a
// word ("django__django", "patch_failed") cannot (CommonMark 0.31 §6.2,
// rules 2 and 4 for "_") and is left as typed.
func escapeUnderscores(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '_' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '_' {
			j++
		}
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[j:])
		if i > 0 && j < len(s) && word(before) && word(after) {
			b.WriteString(s[i:j])
		} else {
			b.WriteString(strings.Repeat(`\_`, j-i))
		}
		i = j
	}
	return b.String()
}

// Markdown returns s as inline Markdown text that shows s as typed, safe
// in a paragraph, a list item, a heading or a table cell: control
// characters escaped as by Terminal (a newline cannot end a table row or
// start a block), HTML as entities, and link, image, code, emphasis and
// table syntax backslash-escaped, so "<script>", "<img onerror=...>"
// and "[x](javascript:...)" render as text.
func Markdown(s string) string { return escapeUnderscores(markdownReplacer.Replace(Terminal(s))) }

// MarkdownCode returns s for the inside of a Markdown code span in a
// table cell: backslash escapes are not processed in code spans, so a
// backtick (which would end the span) becomes "'", "|" becomes "\|"
// (GitHub splits table cells before code spans) and control characters
// are escaped as by Terminal.
func MarkdownCode(s string) string {
	return strings.NewReplacer("`", "'", "|", `\|`).Replace(Terminal(s))
}

// CSV returns s for a cell of a CSV file opened in a spreadsheet: a cell
// that starts with "=", "+", "-", "@", a tab or a carriage return (a
// formula, or a way to start one) gets a leading "'" so the spreadsheet
// shows it as text. Give it text cells only: a number written by
// polynfi ("-0.5") stays a number. The CSV writer quotes the rest.
//
// Source: OWASP, "CSV Injection".
func CSV(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// UnCSV undoes CSV on a cell read back from a sheet polynfi wrote: a
// leading "'" before a formula-leading character is dropped.
func UnCSV(s string) string {
	if len(s) >= 2 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
		return s[1:]
	}
	return s
}

// GitHubData returns s for the message of a GitHub Actions workflow
// command ("::warning ...::MESSAGE"): "%", CR and LF percent-encoded as
// the Actions toolkit does (so the message cannot end the command or
// start another), other control characters escaped as by TerminalBlock.
func GitHubData(s string) string {
	return ghData.Replace(escapeControls(s, func(r rune) bool { return r == '\n' || r == '\r' }))
}

// GitHubProperty returns s for a property value of a workflow command
// ("file=", "title="): GitHubData plus ":" and "," percent-encoded.
func GitHubProperty(s string) string {
	return ghProp.Replace(escapeControls(s, func(r rune) bool { return r == '\n' || r == '\r' }))
}

var (
	ghData = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProp = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)
