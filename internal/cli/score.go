package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/nfi"
)

func newScoreCmd(e *env) *cobra.Command {
	var (
		format  string
		workers int
		quiet   bool
		ef      engineFlags
	)
	cmd := &cobra.Command{
		Use:   "score PATH...",
		Short: "Score Python files on the five non-functional aspects (SWE-NFI)",
		Long: `Score Python files (directories are searched recursively for *.py) with the
rule catalog: per file its validity, S_p per aspect (passed/total rules,
SWE-NFI Eq. 1) and every rule's verdict with its diagnostics.

A file that does not parse, is binary, or is not UTF-8 (without a PEP 263
coding declaration it can be decoded with) is reported invalid with its
status and the first problem's position, and is never scored.

Formats: text (scores and diagnostics), json (streamed: catalog, settings,
files[], summary), sarif (SARIF 2.1.0 for code-scanning tools).

Exit status: 0 when every file was read, whether valid or invalid (invalid
files are results, with their status: syntax_error, binary, encoding_error,
too_large); 3 when a PATH does not exist or a file cannot be read (the other
files are still scored and reported); 2 for a usage error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json", "sarif"); err != nil {
				return err
			}
			eng, err := ef.engine(args[0])
			if err != nil {
				return err
			}
			if workers < 0 {
				return usagef("--workers %d: want 0 (all cores) or more", workers)
			}
			files, missing, err := pythonFiles(args)
			if err != nil {
				return err
			}
			if len(files) == 0 {
				fmt.Fprintf(e.stderr, "polynfi: no Python files under %s\n", strings.Join(args, ", "))
			}
			start := time.Now()
			var sink scoreSink
			switch format {
			case "json":
				sink = newJSONScoreSink(e.stdout, eng)
			case "sarif":
				sink = newSARIFSink(e.stdout, eng)
			default:
				sink = &textScoreSink{w: bufio.NewWriter(e.stdout), quiet: quiet}
			}
			prog := newBar(e.stderr, len(files), "scoring")
			var sum scoreSummary
			var unreadable []string
			err = eng.ScoreFiles(e.ctx, files, workers, func(fs nfi.FileScore) error {
				sum.add(fs)
				if fs.Status == nfi.StatusReadError {
					unreadable = append(unreadable, fs.Path)
				}
				prog.add(1)
				return sink.file(fs)
			})
			prog.finish()
			if err != nil {
				return err
			}
			sum.finish(eng, time.Since(start))
			if err := sink.close(sum); err != nil {
				return err
			}
			fmt.Fprintf(e.stderr, "scored %s (%d invalid) in %.2fs, %.1f MB/s\n",
				plural(sum.Files, "file"), sum.Invalid, sum.Seconds, sum.MBPerSecond)
			if len(missing) > 0 {
				return fmt.Errorf("no such file or directory: %s", strings.Join(missing, ", "))
			}
			if len(unreadable) > 0 {
				return fmt.Errorf("cannot read %s", strings.Join(unreadable, ", "))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, sarif")
	cmd.Flags().IntVarP(&workers, "workers", "j", 0, "parallel workers (default: all cores)")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "text format: scores only, no diagnostics")
	ef.register(cmd)
	return cmd
}

// scoreSummary aggregates a score run.
type scoreSummary struct {
	Files       int            `json:"files"`
	Valid       int            `json:"valid"`
	Invalid     int            `json:"invalid"`
	ByStatus    map[string]int `json:"by_status"`
	MeanScores  nfi.Scores     `json:"mean_scores"`
	Bytes       int64          `json:"bytes"`
	Seconds     float64        `json:"seconds"`
	MBPerSecond float64        `json:"mb_per_second"`

	sums [5]float64
	ns   [5]int
}

func (s *scoreSummary) add(fs nfi.FileScore) {
	s.Files++
	s.Bytes += int64(fs.Bytes)
	if s.ByStatus == nil {
		s.ByStatus = map[string]int{}
	}
	s.ByStatus[fs.Status]++
	if !fs.Valid {
		s.Invalid++
		return
	}
	s.Valid++
	for i, a := range nfi.Aspects {
		if v, ok := fs.Scores.Get(a); ok {
			s.sums[i] += v
			s.ns[i]++
		}
	}
}

func (s *scoreSummary) finish(_ *nfi.Engine, d time.Duration) {
	m := map[nfi.Aspect]float64{}
	for i, a := range nfi.Aspects {
		if s.ns[i] > 0 {
			m[a] = s.sums[i] / float64(s.ns[i])
		}
	}
	s.MeanScores = nfi.NewScores(m)
	s.Seconds = d.Seconds()
	if s.Seconds > 0 {
		s.MBPerSecond = float64(s.Bytes) / 1e6 / s.Seconds
	}
}

// plural returns "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

type scoreSink interface {
	file(nfi.FileScore) error
	close(scoreSummary) error
}

type textScoreSink struct {
	w     *bufio.Writer
	quiet bool
}

func formatScores(s nfi.Scores) string {
	out := ""
	for _, a := range nfi.Aspects {
		if v, ok := s.Get(a); ok {
			out += fmt.Sprintf("  %s %.3f", a.Code(), v)
		}
	}
	return out
}

func (t *textScoreSink) file(fs nfi.FileScore) error {
	if !fs.Valid {
		fmt.Fprintf(t.w, "%s: invalid (%s", fs.Path, fs.Status)
		switch {
		case fs.Error != nil && fs.Error.Line > 0:
			fmt.Fprintf(t.w, " at %d:%d: %s", fs.Error.Line, fs.Error.Column, fs.Error.Message)
		case fs.Error != nil:
			fmt.Fprintf(t.w, ": %s", fs.Error.Message)
		}
		fmt.Fprintln(t.w, ")")
		return nil
	}
	fmt.Fprintf(t.w, "%s:%s\n", fs.Path, formatScores(fs.Scores))
	if !t.quiet {
		for _, r := range fs.Rules {
			for _, d := range r.Diagnostics {
				fmt.Fprintf(t.w, "  %s:%d:%d: %s %s\n", fs.Path, d.Line, d.Column, d.RuleID, d.Message)
			}
		}
	}
	return nil
}

func (t *textScoreSink) close(s scoreSummary) error {
	mean := formatScores(s.MeanScores)
	if s.Valid == 0 {
		mean = " none (no valid file)"
	}
	fmt.Fprintf(t.w, "\n%s: %d valid, %d invalid; mean S_p:%s\n", plural(s.Files, "file"), s.Valid, s.Invalid, mean)
	return t.w.Flush()
}

// jsonScoreSink streams {"catalog":..., "files":[...], "summary":...}.
type jsonScoreSink struct {
	w     *bufio.Writer
	first bool
}

func newJSONScoreSink(w io.Writer, e *nfi.Engine) *jsonScoreSink {
	s := &jsonScoreSink{w: bufio.NewWriter(w), first: true}
	hdr, _ := marshalPlain(summarizeSettings(e))
	// open the object with the settings summary's fields, then the files array
	fmt.Fprintf(s.w, "{\"run\": %s,\n\"files\": [\n", hdr)
	return s
}

// marshalPlain is json.Marshal without HTML escaping ("<" stays "<").
func marshalPlain(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (s *jsonScoreSink) file(fs nfi.FileScore) error {
	b, err := marshalPlain(fs)
	if err != nil {
		return err
	}
	if !s.first {
		s.w.WriteString(",\n")
	}
	s.first = false
	s.w.Write(b)
	return nil
}

func (s *jsonScoreSink) close(sum scoreSummary) error {
	b, err := marshalPlain(sum)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.w, "\n],\n\"summary\": %s}\n", b)
	return s.w.Flush()
}
