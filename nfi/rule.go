// Package nfi is the non-functional-improvement rule engine of SWE-NFI
// (arXiv 2607.27409): rules over Python files grouped in five aspects, the
// per-aspect score S_p of a file (Eq. 1) and the improvement I_p of a change
// (Eq. 2, 3).
//
// The engine parses each file once and runs every selected rule in one
// preorder traversal of the tree, dispatching each node to the rules that
// registered its kind. The rules themselves live in nfi/rules/...; the
// polynfi-92 catalog is assembled in nfi/catalog. This package never prints.
package nfi

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi/aspect"
	"github.com/polynfi/polynfi/syntax"
)

// Aspect is one of SWE-NFI's five non-functional aspects (package
// nfi/aspect, re-exported here). Source: SWE-NFI Table 1.
type Aspect = aspect.Aspect

// The five aspects, in the paper's order.
const (
	Documentation      = aspect.Documentation
	ErrorHandling      = aspect.ErrorHandling
	LibraryConstraints = aspect.LibraryConstraints
	CodingStyle        = aspect.CodingStyle
	LogicPatterns      = aspect.LogicPatterns
	numAspects         = aspect.Count
)

// Aspects lists the five aspects in report order.
var Aspects = aspect.All

// ParseAspect accepts a code ("DOC") or a name ("documentation"), case-insensitively.
func ParseAspect(s string) (Aspect, error) { return aspect.Parse(s) }

// Kind is how a rule judges a file. Source: SWE-NFI §3 (rule types).
type Kind int

const (
	// Required: every target node must meet the requirement.
	Required Kind = iota
	// Prohibited: no target node may show the pattern.
	Prohibited
	// Threshold: a measured value must stay within a configurable limit.
	Threshold
)

var kindNames = [...]string{"required", "prohibited", "threshold"}

// String returns "required", "prohibited" or "threshold".
func (k Kind) String() string { return kindNames[k] }

// MarshalText writes the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Comparison says how a threshold rule compares its measured value with its limit.
type Comparison int

const (
	// AtMost passes when value ≤ limit (counts, max-over-blocks).
	AtMost Comparison = iota
	// AtLeast passes when value ≥ limit (coverages).
	AtLeast
	// Above passes when value > limit (maintainability index).
	Above
)

// Symbol returns "<=", ">=" or ">".
func (c Comparison) Symbol() string { return [...]string{"<=", ">=", ">"}[c] }

// Holds reports whether value satisfies the comparison against limit.
func (c Comparison) Holds(value, limit float64) bool {
	switch c {
	case AtLeast:
		return value >= limit
	case Above:
		return value > limit
	}
	return value <= limit
}

// Limit is a threshold rule's default limit and how it compares.
type Limit struct {
	Default float64    // the catalog default
	Cmp     Comparison // how the measured value is compared
	Unit    string     // what is measured, e.g. "lines", "ratio", "branches"
}

// Doc is a rule's structured documentation, in Ruff's shape. Bad and Good are
// Python sources: a registry test checks that the rule fails Bad and passes Good.
type Doc struct {
	Summary string // one line, lower case, no final period
	What    string // what it checks, precisely
	Why     string // why it matters
	Bad     string // code that fails the rule
	Good    string // code that passes the rule
	Exempt  string // exemptions and vacuous cases
	Source  string // where the rule comes from (PEP, paper, tool)
	Oracle  string // the closest reference tool check and any documented differences
}

// The oracle versions the catalog's claims are measured against: the tests
// run exactly these (requirements-dev.txt pins them and the oracle tests
// check the installed tools' versions), and every Invocation names them.
const (
	RuffVersion  = "0.17.6"
	RadonVersion = "6.0.1"
)

// Oracle names an external tool check that the rule is compared with, and
// how that tool is run: Invocations turns it into the full command line.
type Oracle struct {
	// Ruff lists the Ruff codes whose absence is the rule's pass verdict.
	Ruff []string
	// Preview runs Ruff with --preview (codes that are preview rules in
	// Ruff 0.17.6, or preview behaviour of stable ones).
	Preview bool
	// RuffConfig are Ruff settings of the oracle run other than the rule's
	// limit, each passed as `--config KEY=VALUE` (a TOML value).
	RuffConfig []RuffSetting
	// RuffLimit is the Ruff setting that carries the rule's limit (e.g.
	// "lint.pylint.max-statements"); the run sets it to Limit.Default.
	// Empty when Ruff's check has no such setting or the rule has no limit.
	RuffLimit string
	// Radon is the radon command whose output decides the verdict
	// (e.g. RadonRun{Command: "cc"}); nil when radon is not the oracle.
	Radon *RadonRun
	// ESLint names the ESLint rules (core, or typescript-eslint's with
	// their "@typescript-eslint/" prefix) whose absence is the rule's pass
	// verdict, for JavaScript and TypeScript rules.
	ESLint []string
	// ESLintOptions is the JSON array of the ESLint rule's options after
	// its severity (e.g. `[{"max": 10}]`), "" for none; the oracle run
	// configures the rule as ["error", ...options].
	ESLintOptions string
	// PMD names the PMD rules, as rule references
	// ("category/java/errorprone.xml/EmptyCatchBlock"), whose absence is
	// the rule's pass verdict, for Java rules; each runs with its default
	// properties.
	PMD []string
	// Checkstyle names the Checkstyle modules (checks of the TreeWalker,
	// e.g. "MissingJavadocMethod") whose absence is the rule's pass
	// verdict, for Java rules; each runs with its default properties.
	Checkstyle []string
	// Exact is true when the catalog says the rule's semantics are exactly
	// the tool's; the agreement test then applies.
	Exact bool
}

// The Java oracle versions (Maven Central), pinned as RuffVersion is;
// .ci/pmd-oracle.sh installs them.
const (
	PMDVersion        = "7.27.0"
	CheckstyleVersion = "12.3.1"
)

// The JavaScript and TypeScript oracle versions (npm), pinned as
// RuffVersion is.
const (
	ESLintVersion           = "10.15.0"
	TypeScriptESLintVersion = "8.73.0"
	TypeScriptVersion       = "6.0.3"
)

// RuffSetting is one Ruff configuration value, `--config KEY=VALUE`.
type RuffSetting struct {
	Key   string // e.g. "lint.pycodestyle.max-doc-length"
	Value string // a TOML value, e.g. "72"
}

// RadonRun is a radon subcommand and its flags; the JSON output flag -j is
// always added.
type RadonRun struct {
	Command string   // "cc", "mi", "raw" or "hal"
	Flags   []string // further flags, e.g. "-s"
	// Verdict says how the rule's verdict follows from radon's output.
	Verdict string
}

// LinterNames returns the names the rule's ESLint, PMD and Checkstyle
// oracles give it (eqeqeq, EmptyCatchBlock, MagicNumber): PMD's rule name
// is its reference's last element. Selectors, suppressions and rules
// explain accept them for the rule.
func (r *Rule) LinterNames() []string {
	out := append([]string(nil), r.Oracle.ESLint...)
	for _, ref := range r.Oracle.PMD {
		out = append(out, ref[strings.LastIndexByte(ref, '/')+1:])
	}
	return append(out, r.Oracle.Checkstyle...)
}

// Invocation is one oracle run of a rule, complete enough to rerun the
// comparison: Argv followed by the files to check, then the verdict read
// as Verdict says.
type Invocation struct {
	Tool    string            `json:"tool"`    // "ruff", "radon", "eslint", "pmd" or "checkstyle"
	Version string            `json:"version"` // RuffVersion or RadonVersion
	Codes   []string          `json:"codes,omitempty"`
	Options map[string]string `json:"options,omitempty"` // Ruff --config settings, limit included
	Preview bool              `json:"preview"`
	Argv    []string          `json:"argv"` // the command line; the files follow it
	Verdict string            `json:"verdict"`
}

// RuffBaseArgs are the arguments of every Ruff oracle run before the rule's
// own (--select, --preview, --config): no configuration file, no cache, no
// fixes, exit status 0 with findings, `# noqa` comments not honoured (polynfi
// scores with --ignore-noqa the same way), JSON output.
var RuffBaseArgs = []string{"check", "--isolated", "--no-cache", "--no-fix", "--exit-zero", "--ignore-noqa", "--output-format", "json"}

// RuffArgs returns the rule's Ruff arguments after RuffBaseArgs: --select
// with its codes, --preview when set, then one `--config KEY=VALUE` per
// setting (the limit setting last). nil when the rule has no Ruff oracle.
func (r *Rule) RuffArgs() []string {
	if len(r.Oracle.Ruff) == 0 {
		return nil
	}
	args := []string{"--select", strings.Join(r.Oracle.Ruff, ",")}
	if r.Oracle.Preview {
		args = append(args, "--preview")
	}
	for _, s := range r.ruffSettings() {
		args = append(args, "--config", s.Key+"="+s.Value)
	}
	return args
}

func (r *Rule) ruffSettings() []RuffSetting {
	out := append([]RuffSetting(nil), r.Oracle.RuffConfig...)
	if r.Oracle.RuffLimit != "" && r.Limit != nil {
		out = append(out, RuffSetting{Key: r.Oracle.RuffLimit, Value: strconv.FormatFloat(r.Limit.Default, 'f', -1, 64)})
	}
	return out
}

// Invocations returns the rule's oracle runs (none, one Ruff run, one radon
// run), with the pinned versions and the full command lines.
func (r *Rule) Invocations() []Invocation {
	var out []Invocation
	if len(r.Oracle.Ruff) > 0 {
		inv := Invocation{Tool: "ruff", Version: RuffVersion, Codes: r.Oracle.Ruff, Preview: r.Oracle.Preview,
			Argv:    append(append([]string{"ruff"}, RuffBaseArgs...), r.RuffArgs()...),
			Verdict: "the rule fails a file exactly when ruff reports one of the codes in it"}
		for _, s := range r.ruffSettings() {
			if inv.Options == nil {
				inv.Options = map[string]string{}
			}
			inv.Options[s.Key] = s.Value
		}
		out = append(out, inv)
	}
	if len(r.Oracle.ESLint) > 0 {
		inv := Invocation{Tool: "eslint", Version: ESLintVersion, Codes: r.Oracle.ESLint,
			Argv:    []string{"eslint", "--no-config-lookup", "--no-inline-config", "--format", "json"},
			Verdict: "the rule fails a file exactly when eslint (typescript-eslint " + TypeScriptESLintVersion + " as the parser of .ts/.tsx) reports one of the rules in it, each configured as [\"error\"" + optsSuffix(r.Oracle.ESLintOptions) + "]"}
		if r.Oracle.ESLintOptions != "" {
			inv.Options = map[string]string{"options": r.Oracle.ESLintOptions}
		}
		out = append(out, inv)
	}
	if len(r.Oracle.PMD) > 0 {
		out = append(out, Invocation{Tool: "pmd", Version: PMDVersion, Codes: r.Oracle.PMD,
			Argv:    []string{"pmd", "check", "--no-cache", "--no-progress", "--format", "json", "--suppress-marker", "POLYNFI-NEVER-SUPPRESS", "--rulesets", strings.Join(r.Oracle.PMD, ","), "--dir"},
			Verdict: "the rule fails a file exactly when pmd reports one of the rules in it (default properties; NOPMD comments not honoured, as polynfi scores without suppressions by default)"})
	}
	if len(r.Oracle.Checkstyle) > 0 {
		out = append(out, Invocation{Tool: "checkstyle", Version: CheckstyleVersion, Codes: r.Oracle.Checkstyle,
			Argv:    []string{"checkstyle", "-f", "xml", "-c", "<a configuration of a TreeWalker with the modules, default properties>"},
			Verdict: "the rule fails a file exactly when checkstyle reports one of the modules in it"})
	}
	if rd := r.Oracle.Radon; rd != nil {
		out = append(out, Invocation{Tool: "radon", Version: RadonVersion,
			Argv:    append(append([]string{"radon", rd.Command}, rd.Flags...), "-j"),
			Verdict: rd.Verdict})
	}
	return out
}

func optsSuffix(opts string) string {
	if opts == "" || opts == "[]" {
		return ""
	}
	return ", " + strings.TrimSuffix(strings.TrimPrefix(opts, "["), "]")
}

// Rule is one executable check: data plus the functions that implement it.
//
// Execution: for every node whose Kind is in Kinds, the engine calls Visit
// during its single preorder traversal; afterwards it calls Finish (when set).
// A rule whose Kinds is empty only has Finish (file-level rules: lines,
// comments, whole-file measures). A rule passes a file exactly when it
// reports no Diagnostic.
type Rule struct {
	ID     string // catalog ID, e.g. "LOG-P01"
	Name   string // kebab-case name, e.g. "mutable-default-argument"
	Aspect Aspect
	Kind   Kind
	Limit  *Limit // non-nil exactly for Threshold rules
	Doc    Doc
	Oracle Oracle
	// Languages lists the grammars whose files the rule judges; nil means
	// Python only (the polynfi-92 rules). A file is judged by the rules of
	// its language only (see SourceLanguage), so that S_p and T_p of a
	// file count those rules.
	Languages []Language
	// Kinds are node types of every grammar in Languages.
	Kinds  []string
	Visit  func(p *Pass, n syntax.NodeID)
	Finish func(p *Pass)
	// Options declares the settings the rule reads with Pass.Option /
	// BoolOption: name → its kind. Settings naming anything else, or a value
	// of another kind, are rejected.
	Options map[string]OptionKind
}

// Language is a grammar (package syntax, re-exported here).
type Language = syntax.Language

// Langs returns the grammars whose files the rule judges: Languages, or
// Python when that is nil.
func (r *Rule) Langs() []Language {
	if len(r.Languages) == 0 {
		return []Language{syntax.Python}
	}
	return r.Languages
}

// Judges reports whether the rule judges files of language l.
func (r *Rule) Judges(l Language) bool {
	for _, x := range r.Langs() {
		if x == l {
			return true
		}
	}
	return false
}

// LanguagePrefix returns the prefix of the IDs of rules judging language
// l: "" for Python (DOC-R01), "JS-" for JavaScript and TypeScript
// (JS-DOC-R01), "JAVA-" for Java.
func LanguagePrefix(l Language) string {
	switch l {
	case syntax.JavaScript, syntax.TypeScript, syntax.TSX:
		return "JS-"
	case syntax.Java:
		return "JAVA-"
	}
	return ""
}

// OptionKind is the type of a rule option's value in polynfi.toml.
type OptionKind int

// Option kinds.
const (
	BoolOpt OptionKind = iota
	NumberOpt
	StringOpt
)

func (k OptionKind) String() string { return [...]string{"a boolean", "a number", "a string"}[k] }

// accepts reports whether a decoded TOML value has this kind.
func (k OptionKind) accepts(v any) bool {
	switch v.(type) {
	case bool:
		return k == BoolOpt
	case int64, float64, int:
		return k == NumberOpt
	case string:
		return k == StringOpt
	}
	return false
}

// Validate checks the rule's own data: ID shape, aspect and kind matching the
// ID, a limit exactly for threshold rules, docs present, something to run.
func (r *Rule) Validate() error {
	var errs []string
	prefix := LanguagePrefix(r.Langs()[0])
	for _, l := range r.Langs() {
		if LanguagePrefix(l) != prefix {
			errs = append(errs, fmt.Sprintf("languages %v have different ID prefixes", r.Langs()))
		}
	}
	parts := strings.Split(strings.TrimPrefix(r.ID, prefix), "-")
	if !strings.HasPrefix(r.ID, prefix) || len(parts) != 2 || len(parts[1]) != 3 {
		errs = append(errs, "ID must look like "+prefix+"DOC-R01")
	} else {
		if parts[0] != r.Aspect.Code() {
			errs = append(errs, fmt.Sprintf("ID prefix %s does not match aspect %s", parts[0], r.Aspect.Code()))
		}
		if want := strings.ToUpper(r.Kind.String()[:1]); parts[1][:1] != want {
			errs = append(errs, fmt.Sprintf("ID letter %s does not match kind %s", parts[1][:1], r.Kind))
		}
	}
	if (r.Kind == Threshold) != (r.Limit != nil) {
		errs = append(errs, "Limit must be set exactly for threshold rules")
	}
	if r.Name == "" || r.Doc.Summary == "" || r.Doc.Why == "" || r.Doc.Bad == "" || r.Doc.Good == "" || r.Doc.Source == "" {
		errs = append(errs, "Name, Doc.Summary, Doc.Why, Doc.Bad, Doc.Good and Doc.Source are required")
	}
	if r.Visit == nil && r.Finish == nil {
		errs = append(errs, "Visit or Finish is required")
	}
	if len(r.Kinds) > 0 && r.Visit == nil {
		errs = append(errs, "Kinds set without Visit")
	}
	if len(errs) > 0 {
		return fmt.Errorf("rule %s: %s", r.ID, strings.Join(errs, "; "))
	}
	return nil
}
