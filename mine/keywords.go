package mine

import (
	"regexp"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/nfi"
)

// Keyword is one entry of the aspect keyword lists used to tag a merged
// change with the aspects its author says it improves. Pattern is lower case;
// a trailing "*" matches any word ending ("docstring*" matches "docstrings");
// spaces match any run of spaces, "-" or "_". Matching is case-insensitive and
// bounded by word boundaries, on the subject and body of the change.
type Keyword struct {
	Aspect    nfi.Aspect
	Pattern   string
	Rationale string // which rules of the catalog the word points at, or why it is here
}

// Keywords is polynfi's documented keyword table, one row per pattern.
//
// Source: SWE-NFI §3.2 Stage 2 matches "aspect-specific keywords" in PR titles
// and descriptions but does not publish its lists; these are polynfi's own,
// drawn from the vocabulary of the polynfi-92 rules (shared/spec/nfi-rules.md)
// and the tools they cite (PEP 8, PEP 257, PEP 484/585, pyupgrade, Ruff,
// radon). A keyword match is a tag for reviewers, never a filter: pairs are
// classified by their scores alone.
var Keywords = []Keyword{
	{nfi.Documentation, "docstring*", "DOC-R01..R05, R08..R12, P01, P03, T01: docstrings"},
	{nfi.Documentation, "doc string*", "spelling variant of docstring"},
	{nfi.Documentation, "document*", "documenting code (docstring coverage DOC-T01)"},
	{nfi.Documentation, "docs", "common PR tag for documentation work"},
	{nfi.Documentation, "doc", "common PR tag ('doc: ...')"},
	{nfi.Documentation, "comment*", "DOC-P02, P04, T03: comments"},
	{nfi.Documentation, "type hint*", "DOC-R06, R07, T02: annotations"},
	{nfi.Documentation, "typehint*", "spelling variant of type hint"},
	{nfi.Documentation, "type annotation*", "DOC-R06, R07, T02: annotations"},
	{nfi.Documentation, "annotat*", "DOC-R06, R07, T02: annotations"},
	{nfi.Documentation, "typing", "PEP 484 typing work (DOC-T02)"},
	{nfi.Documentation, "mypy", "type checking work adds annotations (DOC-T02)"},
	{nfi.Documentation, "todo*", "DOC-P02: task comments resolved"},
	{nfi.Documentation, "pydocstyle", "PEP 257 checker behind DOC-R rules"},

	{nfi.ErrorHandling, "exception*", "ERR-R01..R04, P02, P04: exception classes and raising"},
	{nfi.ErrorHandling, "error handling", "the aspect's name"},
	{nfi.ErrorHandling, "handle error*", "error handling"},
	{nfi.ErrorHandling, "except*", "ERR-P01..P03, T02: except clauses"},
	{nfi.ErrorHandling, "bare except", "ERR-P01"},
	{nfi.ErrorHandling, "raise*", "ERR-R01, P04, P05: raising"},
	{nfi.ErrorHandling, "try", "ERR-T01: try blocks"},
	{nfi.ErrorHandling, "catch*", "ERR-P01..P03: catching"},
	{nfi.ErrorHandling, "traceback*", "ERR-R01: exception chaining keeps tracebacks"},
	{nfi.ErrorHandling, "swallow*", "ERR-P03: silently dropped exceptions"},
	{nfi.ErrorHandling, "finally", "ERR-P06: jumps out of finally"},
	{nfi.ErrorHandling, "oserror", "ERR-R04: OSError aliases"},

	{nfi.LibraryConstraints, "deprecat*", "LIB-P01..P19, T01: deprecated APIs"},
	{nfi.LibraryConstraints, "pathlib", "LIB-R01"},
	{nfi.LibraryConstraints, "pyupgrade", "LIB-T02: outdated constructs"},
	{nfi.LibraryConstraints, "modernize*", "LIB-T02, P02, P03"},
	{nfi.LibraryConstraints, "f-string*", "LIB-T02: %-format and .format()"},
	{nfi.LibraryConstraints, "fstring*", "LIB-T02"},
	{nfi.LibraryConstraints, "python 2", "dropping Python 2 idioms (LIB-T02, P17)"},
	{nfi.LibraryConstraints, "py2", "dropping Python 2 idioms"},
	{nfi.LibraryConstraints, "removed api", "LIB-P: removed APIs"},
	{nfi.LibraryConstraints, "distutils", "LIB-P17"},
	{nfi.LibraryConstraints, "utcnow", "LIB-P15"},
	{nfi.LibraryConstraints, "numpy 2*", "LIB-P04..P07"},
	{nfi.LibraryConstraints, "pandas 2*", "LIB-P08..P11"},
	{nfi.LibraryConstraints, "tensorflow 2", "LIB-P12..P14"},
	{nfi.LibraryConstraints, "pep 585", "LIB-P02, P03"},
	{nfi.LibraryConstraints, "futurewarning*", "deprecations surface as FutureWarning"},
	{nfi.LibraryConstraints, "deprecationwarning*", "deprecations surface as DeprecationWarning"},

	{nfi.CodingStyle, "style", "the aspect's name"},
	{nfi.CodingStyle, "pep 8", "STY rules follow PEP 8"},
	{nfi.CodingStyle, "pep8", "spelling variant"},
	{nfi.CodingStyle, "flake8", "PEP 8 checker"},
	{nfi.CodingStyle, "pycodestyle", "PEP 8 checker"},
	{nfi.CodingStyle, "pylint", "style checker"},
	{nfi.CodingStyle, "ruff", "style checker"},
	{nfi.CodingStyle, "lint*", "linter fixes"},
	{nfi.CodingStyle, "format*", "STY-P01, R07, T01, T07: layout"},
	{nfi.CodingStyle, "whitespace", "STY-P01, P02, T07"},
	{nfi.CodingStyle, "indent*", "STY-R07, P02"},
	{nfi.CodingStyle, "line length", "STY-T01"},
	{nfi.CodingStyle, "naming", "STY-R01..R05, P06"},
	{nfi.CodingStyle, "rename*", "STY-R01..R05: naming"},
	{nfi.CodingStyle, "snake case", "STY-R01, R04, R05"},
	{nfi.CodingStyle, "camelcase", "STY-R02"},
	{nfi.CodingStyle, "wildcard import*", "STY-P07"},
	{nfi.CodingStyle, "magic number*", "STY-T02"},
	{nfi.CodingStyle, "cosmetic*", "style-only changes"},
	{nfi.CodingStyle, "black", "code formatter"},
	{nfi.CodingStyle, "isort", "import ordering"},

	{nfi.LogicPatterns, "refactor*", "LOG-T01..T06: structure"},
	{nfi.LogicPatterns, "simplif*", "LOG-P03, P07, P08, T01..T05"},
	{nfi.LogicPatterns, "complexity", "LOG-T01, T06"},
	{nfi.LogicPatterns, "cyclomatic", "LOG-T01"},
	{nfi.LogicPatterns, "nest*", "LOG-P08, T02: nesting depth"},
	{nfi.LogicPatterns, "dead code", "LOG-P06: unreachable code"},
	{nfi.LogicPatterns, "unreachable", "LOG-P06"},
	{nfi.LogicPatterns, "redundant", "LOG-P03, P07: redundant branches"},
	{nfi.LogicPatterns, "mutable default*", "LOG-P01"},
	{nfi.LogicPatterns, "global*", "LOG-P05"},
	{nfi.LogicPatterns, "closure*", "LOG-P04: late-binding closures"},
	{nfi.LogicPatterns, "clean up", "general code-quality cleanup"},
	{nfi.LogicPatterns, "cleanup", "general code-quality cleanup"},
	{nfi.LogicPatterns, "maintainab*", "LOG-T06: maintainability index"},
	{nfi.LogicPatterns, "readab*", "structure and readability"},
	{nfi.LogicPatterns, "code smell*", "general code-quality work"},
	{nfi.LogicPatterns, "extract method", "refactoring that lowers LOG-T01/T03"},
}

// Matcher tags text with the aspects whose keywords occur in it. It is
// immutable and safe for concurrent use.
type Matcher struct {
	res []*regexp.Regexp
	kws []Keyword
}

// NewMatcher compiles kws. It panics on nothing: every pattern is quoted.
func NewMatcher(kws []Keyword) *Matcher {
	m := &Matcher{kws: kws}
	for _, k := range kws {
		p := strings.ToLower(strings.TrimSpace(k.Pattern))
		star := strings.HasSuffix(p, "*")
		p = strings.TrimSuffix(p, "*")
		var b strings.Builder
		b.WriteString(`(?i)(^|[^\pL\pN_])`)
		for i, w := range strings.Fields(p) {
			if i > 0 {
				b.WriteString(`[\s_\-]+`)
			}
			b.WriteString(regexp.QuoteMeta(w))
		}
		if star {
			b.WriteString(`[\pL\pN_-]*`)
		}
		b.WriteString(`($|[^\pL\pN_])`)
		m.res = append(m.res, regexp.MustCompile(b.String()))
	}
	return m
}

// Match returns, per aspect code, the sorted distinct patterns found in
// text. The map is nil when nothing matched.
func (m *Matcher) Match(text string) map[string][]string {
	var out map[string][]string
	for i, re := range m.res {
		if !re.MatchString(text) {
			continue
		}
		if out == nil {
			out = map[string][]string{}
		}
		code := m.kws[i].Aspect.Code()
		out[code] = append(out[code], m.kws[i].Pattern)
	}
	for k := range out {
		sort.Strings(out[k])
		out[k] = compactStrings(out[k])
	}
	return out
}

func compactStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
