package dataset

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestParseStringList(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"  ", []string{}},
		{"[]", []string{}},
		{"[ ]", []string{}},
		{"['a']", []string{"a"}},
		{"['a', 'b']", []string{"a", "b"}},
		{"['a', 'b',]", []string{"a", "b"}},
		{"['a', 'a']", []string{"a", "a"}},
		{`["it's", 'say "hi"']`, []string{"it's", `say "hi"`}},
		{`['it\'s']`, []string{"it's"}},
		{`['a\\b']`, []string{`a\b`}},
		{`['tab\there', 'nl\nx']`, []string{"tab\there", "nl\nx"}},
		{`['\x41\u00e9\U0001F600']`, []string{"Aé😀"}},
		{`['\101\0']`, []string{"A\x00"}},
		{`['keep\d']`, []string{`keep\d`}},
		{`[r'raw\d\'x']`, []string{`raw\d\'x`}},
		{`[u'uni']`, []string{"uni"}},
		{`['ab' 'cd']`, []string{"abcd"}},
		{"['''tri'ple''']", []string{"tri'ple"}},
		{"[\n  'multi',\n  'line'\n]", []string{"multi", "line"}},
		{`['test_x.py::TestA::test_b[param-1]']`, []string{"test_x.py::TestA::test_b[param-1]"}},
		{`["a", "b"]`, []string{"a", "b"}},           // JSON
		{`["a\/b", "\u00e9"]`, []string{"a/b", "é"}}, // JSON escapes
		{`["tests/test_a.py::test[\"x\"]"]`, []string{`tests/test_a.py::test["x"]`}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseStringList(tt.in)
			if err != nil {
				t.Fatalf("ParseStringList(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseStringList(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseStringListErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"['a'", "['a' 'b'", "['a\n']", "'a'", "[1, 2]", "['a'] x", "['\\x4']", "['\\N{DASH}']",
		"[None]", "['a',, 'b']", "['\\ud800']", "{'a': 1}",
	} {
		if got, err := ParseStringList(in); err == nil {
			t.Errorf("ParseStringList(%q) = %q, want an error", in, got)
		}
	}
}

// pyRepr writes s as Python's repr of a str would (enough of it: quotes
// chosen as Python does, escapes for backslash, quotes and controls).
func pyRepr(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteByte(q)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

func pyListRepr(l []string) string {
	parts := make([]string, len(l))
	for i, s := range l {
		parts[i] = pyRepr(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func TestParseStringListRoundTrip(t *testing.T) {
	t.Parallel()
	in := []string{"a'b", `a"b`, `both ' and "`, "back\\slash", "ctl\x01\x7f", "ünï", "", "[x, 'y']"}
	got, err := ParseStringList(pyListRepr(in))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("round trip of %s (-want +got):\n%s", pyListRepr(in), diff)
	}
}

// FuzzParseStringList checks that the parser never panics, and that any
// list of valid strings survives a round trip through Python's repr.
func FuzzParseStringList(f *testing.F) {
	for _, s := range []string{"[]", "['a', \"b\"]", `['\x41\n']`, `[r'\d']`, "['a' 'b',]", `["j\u00e9"]`, "['''x'''] "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseStringList(s)
		if err != nil {
			return
		}
		for _, e := range l {
			if !utf8.ValidString(e) {
				return // invalid input bytes pass through a raw literal
			}
		}
		back, err := ParseStringList(pyListRepr(l))
		if err != nil {
			t.Fatalf("repr %s of parsed %q does not parse: %v", pyListRepr(l), s, err)
		}
		if diff := cmp.Diff(l, back); diff != "" {
			t.Fatalf("round trip of %q (-first +second):\n%s", s, diff)
		}
	})
}
