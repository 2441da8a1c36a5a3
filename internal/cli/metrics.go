package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi/driver"
)

const metricsLong = `Measure Python files with radon's exact semantics: cyclomatic complexity per
function, method, class and closure (radon cc), raw line counts (radon raw),
Halstead volume and the maintainability index (radon mi, multi-line strings
counted as comments). JavaScript and TypeScript files get the complexity of
every code path as ESLint's complexity rule counts it (functions, methods,
field initializers "I", static blocks "S"), Java files that of every method
and constructor as PMD's CyclomaticComplexity (CYCLO) counts it, and both the
same raw line counts (see nfi/metrics.CLikeRaw); they have no Halstead volume
or MI. PATH is a file or a directory searched recursively for the source
files polynfi scores (hidden directories, __pycache__ and node_modules
skipped). Files are analysed in parallel on all cores; output follows the
order of the files.

--format text (default): per file, one line per block in radon's style
  "F 12:0 name - B (7)" (F function, M method, C class; closures as
  outer.inner), then a "module" line with loc, lloc, sloc, comments, multi,
  blank, total complexity, Halstead volume and MI with its rank.

--format json: one object mapping each path to a list, shaped like
  "radon cc -j": blocks with type ("function", "method", "class"), name,
  lineno, endline, col_offset, complexity, rank, classname (methods),
  closures (functions and methods) and methods (classes), in radon's order
  (descending complexity). The LAST element of every list is an extra block
  of type "module" (name "<module>", lineno 1, endline = number of lines)
  whose complexity and rank are those of module-level code, and which also
  carries the file-level measures: total_complexity (what MI uses), loc,
  lloc, sloc, comments, multi, blank, single_comments (radon raw),
  halstead_volume, mi and mi_rank (radon mi). Consumers that filter on
  type "function"/"method"/"class" read exactly radon's blocks. A file that
  cannot be analysed maps to {"error": "..."}, as in radon.

Exit status: 0, or 3 when a file could not be read or parsed (the other files
are still reported).`

func newMetricsCmd(e *env) *cobra.Command {
	var format, pyVersion string
	cmd := &cobra.Command{
		Use:   "metrics PATH...",
		Short: "Cyclomatic complexity, raw metrics, Halstead and maintainability index (radon semantics)",
		Long:  metricsLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			files, missing, err := driver.PythonFiles(args)
			if err != nil {
				return err
			}
			if len(missing) > 0 {
				return fmt.Errorf("no such file or directory: %s", strings.Join(missing, ", "))
			}
			minor, err := driver.ParsePythonVersion(pyVersion)
			if err != nil {
				return err
			}
			results := driver.AnalyzeMetrics(e.ctx, files, minor)
			if err := e.ctx.Err(); err != nil {
				return err
			}
			if format == "json" {
				err = driver.WriteMetricsJSON(e.stdout, results)
			} else {
				err = driver.WriteMetricsText(e.stdout, results)
			}
			if err != nil {
				return err
			}
			failed := 0
			for _, r := range results {
				if r.Err != nil {
					failed++
					fmt.Fprintf(e.stderr, "polynfi: %s: %s\n", textesc.Terminal(r.Path), textesc.Terminal(r.Err.Error()))
				}
			}
			if failed > 0 {
				return exitError{ExitError}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json")
	cmd.Flags().StringVar(&pyVersion, "python-version", "", pythonVersionHelp)
	return withResultFile(e, cmd)
}
