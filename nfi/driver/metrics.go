package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"
	"unicode/utf8"

	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/nfi"
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
	// Halstead volume and MI are radon's, for Python files only (omitted
	// for JavaScript, TypeScript and Java files).
	HalsteadVolume *float64 `json:"halstead_volume,omitempty"`
	MI             *float64 `json:"mi,omitempty"`
	MIRank         string   `json:"mi_rank,omitempty"`
	// Language is the file's language when it is not Python
	// ("javascript", "typescript", "tsx", "java").
	Language string `json:"language,omitempty"`
}

// MetricsResult is the radon-style analysis of one file (polynfi
// metrics), or why there is none. For a JavaScript, TypeScript or Java
// file (Lang not Python) File holds CLikeRaw's line counts and the
// complexity of every code path (ECMAScriptComplexity: ESLint's
// complexity; JavaComplexity: PMD's CYCLO), and no Halstead measures or
// MI (zero).
type MetricsResult struct {
	Path  string          // the file as given
	Lang  syntax.Language // the file's language (nfi.SourceLanguage)
	File  metrics.File    // its measures; zero when Err is set
	Lines int             // number of lines (a last line without newline counts)
	Err   error           // unreadable, undecodable or unparsable file
}

// AnalyzeMetrics measures files (radon cc, raw, Halstead, mi) on all cores,
// one parser per worker, parsing as Python 3.minor (the checks and messages
// of ScoreFile); the results keep the order of files. When ctx is done it
// stops handing out files: the results of files not reached are zero.
func AnalyzeMetrics(ctx context.Context, files []string, minor int) []MetricsResult {
	results := make([]MetricsResult, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := syntax.NewParser()
			defer p.Close()
			for i := range next {
				results[i] = analyzeMetricsFile(p, files[i], minor)
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

func analyzeMetricsFile(p *syntax.Parser, path string, minor int) MetricsResult {
	r := MetricsResult{Path: path, Lang: nfi.SourceLanguage(path)}
	src, err := nfi.ReadSource(path)
	if err != nil {
		r.Err = err
		return r
	}
	if r.Lang != syntax.Python {
		return analyzeCLike(p, r, src)
	}
	// the same checks and messages as polynfi score
	raw := src
	src, status, ferr := nfi.DecodeSource(src)
	if ferr != nil {
		r.Err = fmt.Errorf("%s at %v", status, ferr)
		return r
	}
	t, ferr := nfi.ParsePython(p, src, !utf8.Valid(raw), minor)
	if ferr != nil {
		r.Err = fmt.Errorf("%s at %v", nfi.StatusSyntaxError, ferr)
		return r
	}
	r.Lines = bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		r.Lines++
	}
	r.File, r.Err = metrics.Analyze(t)
	return r
}

// analyzeCLike measures a JavaScript, TypeScript or Java file: valid when
// it is UTF-8 text without NUL bytes that its tree-sitter grammar parses
// without error (the checks and messages of polynfi score).
func analyzeCLike(p *syntax.Parser, r MetricsResult, src []byte) MetricsResult {
	if i := bytes.IndexByte(src, 0); i >= 0 {
		r.Err = fmt.Errorf("%s: NUL byte at offset %d: not a text file", nfi.StatusBinary, i)
		return r
	}
	if !utf8.Valid(src) {
		r.Err = fmt.Errorf("%s: not UTF-8", nfi.StatusEncoding)
		return r
	}
	t, err := p.Parse(r.Lang, src)
	if err != nil {
		r.Err = fmt.Errorf("%s at 1:1: %v", nfi.StatusSyntaxError, err)
		return r
	}
	defer t.Release()
	if ferr := nfi.SyntaxError(t); ferr != nil {
		r.Err = fmt.Errorf("%s at %v", nfi.StatusSyntaxError, ferr)
		return r
	}
	r.Lines = bytes.Count(src, []byte{'\n'})
	if len(src) > 0 && src[len(src)-1] != '\n' {
		r.Lines++
	}
	r.File.Raw = metrics.CLikeRaw(t)
	if r.Lang == syntax.Java {
		r.File.Complexity = metrics.JavaComplexity(t)
	} else {
		r.File.Complexity = metrics.ECMAScriptComplexity(t)
	}
	// the tree goes back to the parser: the blocks keep no node
	for i := range r.File.Complexity.Functions {
		r.File.Complexity.Functions[i].Node = 0
	}
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

func moduleBlock(r MetricsResult) metricsModule {
	f := &r.File
	m := metricsModule{Type: "module", Name: "<module>", Lineno: 1, Endline: r.Lines,
		Complexity: f.Complexity.Module, Rank: metrics.Rank(f.Complexity.Module), Raw: f.Raw}
	if r.Lang != syntax.Python {
		// the sum over every code path, each counted once
		m.TotalComplexity = f.Complexity.Module
		for _, b := range f.Complexity.Functions {
			m.TotalComplexity += b.Complexity - 1
		}
		m.Language = r.Lang.String()
		return m
	}
	vol, mi := f.Halstead.Total.Volume, f.MI
	m.TotalComplexity, m.HalsteadVolume, m.MI, m.MIRank = f.Complexity.Total(), &vol, &mi, f.MIRank()
	return m
}

// WriteMetricsJSON writes results as one JSON object shaped like
// "radon cc -j", keys in file order, each list ending with polynfi's
// "module" block (see polynfi metrics --help); a failed file maps to
// {"error": "..."}.
func WriteMetricsJSON(w io.Writer, results []MetricsResult) error {
	var buf bytes.Buffer
	buf.WriteString("{")
	for i, r := range results {
		if i > 0 {
			buf.WriteString(",")
		}
		buf.WriteString("\n  ")
		key, _ := json.Marshal(r.Path)
		buf.Write(key)
		buf.WriteString(": ")
		var val any
		if r.Err != nil {
			val = map[string]string{"error": r.Err.Error()}
		} else {
			list := []any{}
			for _, b := range r.File.Complexity.Blocks() {
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

// WriteMetricsText writes results in radon's text style, one line per
// block and a "module" line of file-level measures per file.
func WriteMetricsText(w io.Writer, results []MetricsResult) error {
	var buf bytes.Buffer
	for _, r := range results {
		buf.WriteString(textesc.Terminal(r.Path))
		buf.WriteByte('\n')
		if r.Err != nil {
			fmt.Fprintf(&buf, "    ERROR: %s\n", textesc.Terminal(r.Err.Error()))
			continue
		}
		for _, b := range r.File.Complexity.Blocks() {
			writeBlockText(&buf, b, "")
		}
		m := moduleBlock(r)
		if m.MI == nil {
			fmt.Fprintf(&buf, "    module: loc %d, lloc %d, sloc %d, comments %d, multi %d, blank %d, complexity %d (%s: no Halstead volume or mi)\n",
				m.LOC, m.LLOC, m.SLOC, m.Comments, m.Multi, m.Blank, m.TotalComplexity, m.Language)
			continue
		}
		fmt.Fprintf(&buf, "    module: loc %d, lloc %d, sloc %d, comments %d, multi %d, blank %d, complexity %d, halstead volume %.2f, mi %.2f (%s)\n",
			m.LOC, m.LLOC, m.SLOC, m.Comments, m.Multi, m.Blank, m.TotalComplexity, *m.HalsteadVolume, *m.MI, m.MIRank)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func writeBlockText(buf *bytes.Buffer, b metrics.Block, outer string) {
	letter := map[string]string{metrics.TypeFunction: "F", metrics.TypeMethod: "M", metrics.TypeClass: "C",
		metrics.TypeConstructor: "M", metrics.TypeInitializer: "I", metrics.TypeStaticBlock: "S"}[b.Type]
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
