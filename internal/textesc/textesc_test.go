package textesc

import (
	"strings"
	"testing"
)

func TestTerminal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain name-1.2_x", "plain name-1.2_x"},
		{"gpt\nresolved 8/8", `gpt\nresolved 8/8`},
		{"a\x1b[2J\x1b]0;title\x07b", `a\x1b[2J\x1b]0;title\x07b`},
		{"cr\rover", `cr\rover`},
		{"tab\tx\x7f", `tab\tx\x7f`},
		{"c1\u009b31m", `c1\u009b31m`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"ünïcode ✓ 日本", "ünïcode ✓ 日本"},
		{`back\slash`, `back\slash`},
	} {
		if got := Terminal(tc.in); got != tc.want {
			t.Errorf("Terminal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := TerminalBlock("line 1\n\tline 2\r\x1b[31m"), "line 1\n\tline 2\\r\\x1b[31m"; got != want {
		t.Errorf("TerminalBlock = %q, want %q", got, want)
	}
}

func TestCheckName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"org/model-v1.2", "ünïcode", `a\b`, "with space"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("CheckName(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []string{"a\nb", "a\x1b[31m", "a\rb", "a\tb", "\u009b", "x\u202e", "\xff", "nul\x00"} {
		err := CheckName(bad)
		if err == nil {
			t.Errorf("CheckName(%q) = nil, want an error", bad)
			continue
		}
		if strings.ContainsAny(err.Error(), "\n\r\x1b\t") {
			t.Errorf("CheckName(%q) error %q carries the control character itself", bad, err)
		}
	}
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain model", "plain model"},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{`<img src=x onerror="alert(1)">`, `&lt;img src=x onerror="alert(1)"&gt;`},
		{"[click](javascript:alert(1))", `\[click\](javascript:alert(1))`},
		{"![i](http://x/y.png)", `!\[i\](http://x/y.png)`},
		{"a|b", `a\|b`},
		{"`code`", "\\`code\\`"},
		{"&lt;", "&amp;lt;"},
		{"x\n| forged | row |", `x\\n\| forged \| row \|`},
		{"*em* _em_ ~~s~~", `\*em\* \_em\_ \~\~s\~\~`},
		{"django__django-11099 patch_failed __init__ x_", `django__django-11099 patch_failed \_\_init\_\_ x\_`},
	} {
		if got := Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := MarkdownCode("a`b|c\nd"), `a'b\|c\nd`; got != want {
		t.Errorf("MarkdownCode = %q, want %q", got, want)
	}
}

func TestCSV(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"plain", "plain"},
		{"", ""},
		{"a=b", "a=b"},
	} {
		if got := CSV(tc.in); got != tc.want {
			t.Errorf("CSV(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestGitHub(t *testing.T) {
	t.Parallel()
	if got, want := GitHubData("50%\r\n::error::x\x1b[31m"), `50%25%0D%0A::error::x\x1b[31m`; got != want {
		t.Errorf("GitHubData = %q, want %q", got, want)
	}
	if got, want := GitHubProperty("a:b,c%\n"), "a%3Ab%2Cc%25%0A"; got != want {
		t.Errorf("GitHubProperty = %q, want %q", got, want)
	}
}

func BenchmarkTerminalClean(b *testing.B) {
	s := strings.Repeat("django__django-11099 ", 10)
	for b.Loop() {
		_ = Terminal(s)
	}
}

func BenchmarkMarkdownRow(b *testing.B) {
	s := "django__django-11099 | resolved | <unit> [x](y) " + strings.Repeat("text ", 10)
	for b.Loop() {
		_ = Markdown(s)
	}
}
