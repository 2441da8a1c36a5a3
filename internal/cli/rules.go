package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfi/driver"
)

func newRulesCmd(e *env) *cobra.Command {
	var format, cat string
	cmd := &cobra.Command{
		Use:   "rules [explain ID]",
		Short: "List the rule catalog, or explain one rule",
		Long: `List the rules of the catalog (default polynfi-92: 92 Python rules in five
aspects, DOC, ERR, LIB, STY, LOG, and the JavaScript/TypeScript rules
JS-DOC-R01 ...), or print one rule's documentation with
"polynfi rules explain ID". ID may also be a Ruff (flake8, pydocstyle,
pylint) code or an ESLint rule name that a rule emulates, e.g. E722 or
eqeqeq: the rule is explained and stderr says which. Formats: text, json, markdown (docs/rules.md is
generated with --format markdown).`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := catalog.Get(cat)
			if err != nil {
				return usageError{err}
			}
			if len(args) > 0 {
				if args[0] != "explain" || len(args) != 2 {
					return usagef("usage: polynfi rules [explain ID]")
				}
				if err := checkFormat(format, "text", "json", "markdown"); err != nil {
					return err
				}
				r, ok := c.Lookup(strings.ToUpper(args[1]))
				if !ok {
					// A Ruff (flake8, pydocstyle, pylint) code names the
					// rule that emulates it.
					code := strings.TrimSpace(args[1])
					var by []*nfi.Rule
					for _, cr := range c.Rules {
						for _, rc := range slices.Concat(cr.Oracle.Ruff, cr.LinterNames()) {
							if strings.EqualFold(rc, code) {
								by, code = append(by, cr), rc // the name as its tool spells it
								break
							}
						}
					}
					switch len(by) {
					case 0:
						return usagef("unknown rule %q: polynfi's rule ids look like ERR-R01 for Python, JS-LOG-P01 for JavaScript/TypeScript and JAVA-ERR-P01 for Java (aspect DOC, ERR, LIB, STY or LOG, then the rule); a Ruff code (E722), an ESLint rule name (eqeqeq) or a PMD or Checkstyle rule name (EmptyCatchBlock) finds the rule that emulates it; 'polynfi rules' lists them, 'polynfi rules --format json' gives each one's oracle", args[1])
					case 1:
						r = by[0]
						how := "approximates"
						if r.Oracle.Exact {
							how = "is exactly"
						}
						tool := "a Ruff code"
						if len(r.Oracle.ESLint) > 0 {
							tool = "an ESLint rule"
						} else if len(r.Oracle.PMD)+len(r.Oracle.Checkstyle) > 0 {
							tool = "a PMD or Checkstyle rule"
						}
						fmt.Fprintf(e.stderr, "polynfi: %s is %s; polynfi's rule %s %s it\n", code, tool, r.ID, how)
					default:
						ids := make([]string, len(by))
						for i, br := range by {
							ids[i] = br.ID
						}
						return usagef("%s is emulated by several rules: %s; explain one of them", code, strings.Join(ids, ", "))
					}
				}
				switch format {
				case "json":
					return writeJSON(e.stdout, driver.NewRuleJSON(r, true))
				case "markdown":
					driver.WriteRuleMarkdown(e.stdout, r)
					return nil
				}
				driver.WriteRuleText(e.stdout, r)
				return nil
			}
			if err := checkFormat(format, "text", "json", "markdown"); err != nil {
				return err
			}
			switch format {
			case "json":
				out := struct {
					Catalog string            `json:"catalog"`
					Rules   []driver.RuleJSON `json:"rules"`
				}{Catalog: c.Version}
				for _, r := range c.Rules {
					out.Rules = append(out.Rules, driver.NewRuleJSON(r, false))
				}
				return writeJSON(e.stdout, out)
			case "markdown":
				driver.RulesMarkdown(e.stdout, c)
				return nil
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tASPECT\tKIND\tLIMIT\tNAME\tSUMMARY")
			for _, r := range c.Rules {
				lim := "-"
				if r.Limit != nil {
					lim = fmt.Sprintf("%s %g", r.Limit.Cmp.Symbol(), r.Limit.Default)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Aspect.Code(), r.Kind, lim, r.Name, r.Doc.Summary)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, markdown")
	cmd.Flags().StringVar(&cat, "catalog", catalog.Default, "rule catalog")
	return withResultFile(e, cmd)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false) // "<=" stays "<=", not "\u003c="
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
