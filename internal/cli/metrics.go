package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/driver"
	"github.com/polynfi/polynfi/nfi/metrics"
	"github.com/polynfi/polynfi/syntax"
)

// metricsBlock is one block of `polynfi metrics --format json`, with the
// fields and nesting of `radon cc -j`.
type metricsBlock struct {
	Type       string `json:"type"`
	Name       string `json:"name"`
	Lineno     int    `json:"lineno"`
	Endline    int    `json:"endline"`
	ColOffset  int    `json:"col_offset"`
	Complexity int    `json:"complexity"`
	Rank       string `json:"rank"`
	Classname  string `json:"classname,omitempty"`
	// Closures is set (possibly empty) for functions and methods, Methods
	// for classes, as radon does.
	Closures *[]metricsBlock `json:"closures,omitempty"`
	Methods  *[]metricsBlock `json:"methods,omitempty"`
}

// metricsModule is the trailing "module" block of each file: module-level
// code's complexity plus the file-level measures.
type metricsModule struct {
	Type            string `json:"type"`
	Name            string `json:"name"`
	Lineno          int    `json:"lineno"`
	Endline         int    `json:"endline"`
	ColOffset       int    `json:"col_offset"`
	Complexity      int    `json:"complexity"`
	Rank            string `json:"rank"`
	TotalComplexity int    `json:"total_complexity"`
	metrics.Raw
	HalsteadVolume float64 `json:"halstead_volume"`
	MI             float64 `json:"mi"`
	MIRank         string  `json:"mi_rank"`
}

// metricsResult is the analysis of one file, or why there is none.
type metricsResult struct {
	path  string
	file  metrics.File
	lines int
	err   error
}

const metricsLong = `Measure Python files with radon's exact semantics: cyclomatic complexity per
function, method, class and closure (radon cc), raw line counts (radon raw),
Halstead volume and the maintainability index (radon mi, multi-line strings
counted as comments). PATH is a file or a directory searched recursively for
*.py (hidden directories, __pycache__ and node_modules skipped). Files are
analysed in parallel on all cores; output follows the order of the files.

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
			results := analyzeFiles(e, files, minor)
			if err := e.ctx.Err(); err != nil {
				return err
			}
			if format == "json" {
				err = writeMetricsJSON(e.stdout, results)
			} else {
				err = writeMetricsText(e.stdout, results)
			}
			if err != nil {
				return err
			}
			failed := 0
			for _, r := range results {
				if r.err != nil {
					failed++
					fmt.Fprintf(e.stderr, "polynfi: %s: %s\n", textesc.Terminal(r.path), textesc.Terminal(r.err.Error()))
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

// analyzeFiles measures files on all cores, one parser per worker; the
// results keep the order of files.
func analyzeFiles(e *env, files []string, minor int) []metricsResult {
	results := make([]metricsResult, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := syntax.NewParser()
			defer p.Close()
			for i := range next {
				results[i] = analyzeFile(p, files[i], minor)
			}
		}()
	}
	for i := range files {
		if e.ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func analyzeFile(p *syntax.Parser, path string, minor int) metricsResult {
	r := metricsResult{path: path}
	src, err := nfi.ReadSource(path)
	if err != nil {
		r.err = err
		return r
	}
	// the same checks and messages as polynfi score
	raw := src
	src, status, ferr := nfi.DecodeSource(src)
	if ferr != nil {
		r.err = fmt.Errorf("%s at %v", status, ferr)
		return r
	}
	t, ferr := nfi.ParsePython(p, src, !utf8.Valid(raw), minor)
	if ferr != nil {
		r.err = fmt.Errorf("%s at %v", nfi.StatusSyntaxError, ferr)
		return r
	}
	r.lines = bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		r.lines++
	}
	r.file, r.err = metrics.Analyze(t)
	return r
}

func toMetricsBlock(b metrics.Block) metricsBlock {
	out := metricsBlock{Type: b.Type, Name: b.Name, Lineno: b.Lineno, Endline: b.Endline, ColOffset: b.ColOffset,
		Complexity: b.Complexity, Rank: b.Rank(), Classname: b.Classname}
	switch b.Type {
	case metrics.TypeClass:
		ms := []metricsBlock{}
		for _, m := range b.Methods {
			ms = append(ms, toMetricsBlock(m))
		}
		out.Methods = &ms
	default:
		cs := []metricsBlock{}
		for _, c := range b.Closures {
			cs = append(cs, toMetricsBlock(c))
		}
		out.Closures = &cs
	}
	return out
}

func moduleBlock(r metricsResult) metricsModule {
	f := &r.file
	return metricsModule{Type: "module", Name: "<module>", Lineno: 1, Endline: r.lines,
		Complexity: f.Complexity.Module, Rank: metrics.Rank(f.Complexity.Module),
		TotalComplexity: f.Complexity.Total(), Raw: f.Raw, HalsteadVolume: f.Halstead.Total.Volume,
		MI: f.MI, MIRank: f.MIRank()}
}

// writeMetricsJSON writes the radon-shaped object, keys in file order.
func writeMetricsJSON(w io.Writer, results []metricsResult) error {
	var buf bytes.Buffer
	buf.WriteString("{")
	for i, r := range results {
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n  ")
		key, _ := json.Marshal(r.path)
		buf.Write(key)
		buf.WriteString(": ")
		var val any
		if r.err != nil {
			val = map[string]string{"error": r.err.Error()}
		} else {
			list := []any{}
			for _, b := range r.file.Complexity.Blocks() {
				list = append(list, toMetricsBlock(b))
			}
			val = append(list, moduleBlock(r))
		}
		var item bytes.Buffer
		enc := json.NewEncoder(&item)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(val); err != nil {
			return err
		}
		buf.Write(bytes.TrimSuffix(item.Bytes(), []byte("\n")))
	}
	buf.WriteString("\n}\n")
	_, err := w.Write(buf.Bytes())
	return err
}

func writeMetricsText(w io.Writer, results []metricsResult) error {
	var buf bytes.Buffer
	for _, r := range results {
		buf.WriteString(textesc.Terminal(r.path))
		buf.WriteByte('\n')
		if r.err != nil {
			fmt.Fprintf(&buf, "    ERROR: %s\n", textesc.Terminal(r.err.Error()))
			continue
		}
		for _, b := range r.file.Complexity.Blocks() {
			writeBlockText(&buf, b, "")
		}
		m := moduleBlock(r)
		fmt.Fprintf(&buf, "    module: loc %d, lloc %d, sloc %d, comments %d, multi %d, blank %d, complexity %d, halstead volume %.2f, mi %.2f (%s)\n",
			m.LOC, m.LLOC, m.SLOC, m.Comments, m.Multi, m.Blank, m.TotalComplexity, m.HalsteadVolume, m.MI, m.MIRank)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func writeBlockText(buf *bytes.Buffer, b metrics.Block, outer string) {
	letter := map[string]string{metrics.TypeFunction: "F", metrics.TypeMethod: "M", metrics.TypeClass: "C"}[b.Type]
	name := b.Name
	switch {
	case outer != "":
		name = outer + "." + b.Name
	case b.Classname != "":
		name = b.Classname + "." + b.Name
	}
	fmt.Fprintf(buf, "    %s %d:%d %s - %s (%d)\n", letter, b.Lineno, b.ColOffset, name, b.Rank(), b.Complexity)
	for _, c := range b.Closures {
		writeBlockText(buf, c, name)
	}
}
