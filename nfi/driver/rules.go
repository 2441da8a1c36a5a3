package driver

import (
	"fmt"
	"io"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// RuleJSON is the JSON shape of one rule in `polynfi rules --format json`.
type RuleJSON struct {
	ID        string      `json:"id"`
	Name      string      `json:"name"`
	Aspect    string      `json:"aspect"`
	Kind      string      `json:"kind"`
	Threshold *float64    `json:"threshold,omitempty"`
	Compare   string      `json:"compare,omitempty"`
	Unit      string      `json:"unit,omitempty"`
	Summary   string      `json:"summary"`
	Source    string      `json:"source"`
	Oracle    *RuleOracle `json:"oracle,omitempty"`
	Doc       *nfi.Doc    `json:"doc,omitempty"`
	// Languages are the grammars whose files the rule judges.
	Languages []string `json:"languages"`
}

// RuleOracle is a rule's oracle: the Ruff codes, whether the catalog claims
// the rule is exactly the tool's check, and each oracle run's full
// invocation (tool, pinned version, codes, Ruff settings including the
// limit, preview, argv, how the verdict is read), enough to rerun the
// comparison (README "Rule oracles").
type RuleOracle struct {
	Ruff        []string         `json:"ruff,omitempty"`
	ESLint      []string         `json:"eslint,omitempty"`
	PMD         []string         `json:"pmd,omitempty"`        // PMD rule references
	Checkstyle  []string         `json:"checkstyle,omitempty"` // Checkstyle modules
	Exact       bool             `json:"exact"`
	Invocations []nfi.Invocation `json:"invocations,omitempty"`
}

// NewRuleJSON is r's RuleJSON; withDoc adds its documentation (rules
// explain).
func NewRuleJSON(r *nfi.Rule, withDoc bool) RuleJSON {
	j := RuleJSON{ID: r.ID, Name: r.Name, Aspect: r.Aspect.Code(), Kind: r.Kind.String(), Summary: r.Doc.Summary, Source: r.Doc.Source}
	for _, l := range r.Langs() {
		j.Languages = append(j.Languages, l.String())
	}
	if r.Limit != nil {
		v := r.Limit.Default
		j.Threshold, j.Compare, j.Unit = &v, r.Limit.Cmp.Symbol(), r.Limit.Unit
	}
	if inv := r.Invocations(); len(inv) > 0 {
		j.Oracle = &RuleOracle{Ruff: r.Oracle.Ruff, ESLint: r.Oracle.ESLint, PMD: r.Oracle.PMD, Checkstyle: r.Oracle.Checkstyle, Exact: r.Oracle.Exact, Invocations: inv}
	}
	if withDoc {
		d := r.Doc
		j.Doc = &d
	}
	return j
}

// WriteRuleText writes r's documentation as rules explain prints it.
func WriteRuleText(w io.Writer, r *nfi.Rule) {
	fmt.Fprintf(w, "%s (%s): %s\n", r.ID, r.Name, r.Doc.Summary)
	fmt.Fprintf(w, "Aspect: %s (%s)   Kind: %s", r.Aspect, r.Aspect.Code(), r.Kind)
	if r.Limit != nil {
		fmt.Fprintf(w, "   Threshold: %s %g %s", r.Limit.Cmp.Symbol(), r.Limit.Default, r.Limit.Unit)
	}
	fmt.Fprintln(w)
	sec := func(title, body string) {
		if strings.TrimSpace(body) == "" {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", title)
		for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	sec("What it does", r.Doc.What)
	sec("Why", r.Doc.Why)
	sec("Bad", compactExampleFor(r, r.Doc.Bad))
	sec("Good", compactExampleFor(r, r.Doc.Good))
	sec("Exemptions", r.Doc.Exempt)
	sec("Source", r.Doc.Source)
	sec("Oracle", r.Doc.Oracle)
	for _, inv := range r.Invocations() {
		sec("Oracle run ("+inv.Tool+" "+inv.Version+")", strings.Join(inv.Argv, " ")+" FILE...\n"+inv.Verdict)
	}
}

// WriteRuleMarkdown writes r's documentation as one section of
// docs/rules.md.
func WriteRuleMarkdown(w io.Writer, r *nfi.Rule) {
	fmt.Fprintf(w, "### %s `%s`\n\n%s.\n\n", r.ID, r.Name, capitalize(r.Doc.Summary))
	fmt.Fprintf(w, "- Aspect: %s (%s)\n- Kind: %s\n", r.Aspect, r.Aspect.Code(), r.Kind)
	if r.Limit != nil {
		fmt.Fprintf(w, "- Threshold: %s %g %s\n", r.Limit.Cmp.Symbol(), r.Limit.Default, r.Limit.Unit)
	}
	if len(r.Oracle.Ruff) > 0 {
		exact := "closest"
		if r.Oracle.Exact {
			exact = "exact, tested on the standard library"
		}
		fmt.Fprintf(w, "- Oracle: Ruff %s (%s)\n", strings.Join(r.Oracle.Ruff, ", "), exact)
	}
	if len(r.Oracle.ESLint) > 0 {
		exact := "closest"
		if r.Oracle.Exact {
			exact = "exact, tested on npm package sources"
		}
		fmt.Fprintf(w, "- Oracle: ESLint %s (%s)\n", strings.Join(r.Oracle.ESLint, ", "), exact)
	}
	if len(r.Oracle.PMD)+len(r.Oracle.Checkstyle) > 0 {
		exact := "closest"
		if r.Oracle.Exact {
			exact = "exact, tested on Maven Central source jars"
		}
		fmt.Fprintf(w, "- Oracle: %s (%s)\n", strings.Join(r.LinterNames(), ", "), exact)
	}
	for _, inv := range r.Invocations() {
		fmt.Fprintf(w, "- Oracle run (%s %s): `%s FILE...`\n", inv.Tool, inv.Version, strings.Join(inv.Argv, " "))
	}
	fmt.Fprintln(w)
	para := func(title, body string) {
		if strings.TrimSpace(body) != "" {
			fmt.Fprintf(w, "**%s.** %s\n\n", title, strings.TrimSpace(body))
		}
	}
	code := func(title, body string) {
		if strings.TrimSpace(body) != "" {
			fmt.Fprintf(w, "**%s:**\n\n```%s\n%s\n```\n\n", title, exampleLanguage(r), strings.TrimRight(body, "\n"))
		}
	}
	para("What it does", r.Doc.What)
	para("Why", r.Doc.Why)
	code("Bad", compactExampleFor(r, r.Doc.Bad))
	code("Good", compactExampleFor(r, r.Doc.Good))
	para("Exemptions", r.Doc.Exempt)
	para("Source", r.Doc.Source)
	para("Oracle", r.Doc.Oracle)
}

// exampleLanguage is the Markdown code-fence language of r's examples.
func exampleLanguage(r *nfi.Rule) string {
	switch l := r.Langs()[0]; l {
	case syntax.JavaScript, syntax.TypeScript, syntax.TSX:
		if r.Judges(syntax.JavaScript) {
			return "javascript"
		}
		return "typescript"
	default:
		return l.String()
	}
}

// compactExampleFor is compactExample with the comment of r's language.
func compactExampleFor(r *nfi.Rule, code string) string {
	out := compactExample(code)
	if !r.Judges(syntax.Python) {
		out = strings.ReplaceAll(out, "# ... the line above", "// ... the line above")
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// RulesMarkdown renders the whole catalog as docs/rules.md.
func RulesMarkdown(w io.Writer, c *nfi.Catalog) {
	fmt.Fprintf(w, "# Rule catalog %s\n\n", c.Version)
	fmt.Fprintf(w, "Generated by `polynfi rules --format markdown`; do not edit. %d rules.\n\n", len(c.Rules))
	fmt.Fprintln(w, "| ID | Name | Aspect | Kind | Threshold | Summary |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range c.Rules {
		lim := "–"
		if r.Limit != nil {
			lim = fmt.Sprintf("%s %g", r.Limit.Cmp.Symbol(), r.Limit.Default)
		}
		fmt.Fprintf(w, "| [%s](#%s) | %s | %s | %s | %s | %s |\n", r.ID, strings.ToLower(r.ID+"-"+r.Name), r.Name, r.Aspect.Code(), r.Kind, lim, r.Doc.Summary)
	}
	fmt.Fprintln(w)
	last := nfi.Aspect(-1)
	for _, r := range c.Rules {
		if r.Aspect != last {
			fmt.Fprintf(w, "## %s (%s)\n\n", r.Aspect, r.Aspect.Code())
			last = r.Aspect
		}
		WriteRuleMarkdown(w, r)
	}
}

// compactExample shortens a documented example for display: a run of more
// than three identical lines (STY-T05's 1,001-line module) is shown as its
// first line and a comment giving the count. The rule's tests use the full text.
func compactExample(code string) string {
	lines := strings.Split(code, "\n")
	var out []string
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && lines[j] == lines[i] {
			j++
		}
		if n := j - i; n > 3 && lines[i] != "" {
			indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
			out = append(out, lines[i], fmt.Sprintf("%s# ... the line above %d more times", indent, n-1))
		} else {
			out = append(out, lines[i:j]...)
		}
		i = j
	}
	return strings.Join(out, "\n")
}
