package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/grading"
	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/runtime"
)

// The bounds of one run of a SWE-bench Pro parser.py (RunProParser).
const (
	ProParserTimeout     = 2 * time.Minute
	ProParserMemoryBytes = 1 << 30
	ProParserPids        = 64
	// ProParserOutputBytes bounds the output.json read back, and the
	// disk the parser may fill.
	ProParserOutputBytes = 64 << 20
)

// ProParserOptions bound RunProParser; zero fields take the ProParser*
// defaults. Python is the interpreter ("" is python3 on PATH).
type ProParserOptions struct {
	Timeout     time.Duration
	MemoryBytes int64
	Python      string
}

// RunProParser runs parser, a SWE-bench Pro instance's parser.py (dataset
// code, hostile like the rest of a row), on a run's captured stdout and
// stderr, as the published harness does (`python parser.py stdout.log
// stderr.log output.json`), and reads the output.json it writes. It runs
// outside the tests' sandbox or container, never inside it, in a local
// bubblewrap sandbox of its own (runtime.Local): no network, the two logs
// and the parser read-only, an empty output directory its only writable
// tree besides a private /tmp, with the time, memory and process limits of
// opts. Without bubblewrap it refuses: the parse is an error, the parser
// is never run unsandboxed. Python runs isolated from the environment and
// user site (-I). Source: SWE-bench Pro swe_bench_pro_eval.py
// (create_entryscript, collect_outputs_local); its parsers' export_to_json.
func RunProParser(ctx context.Context, parser string, stdout, stderr []byte, opts ProParserOptions) grading.ProParse {
	start := time.Now()
	out := func(format string, a ...any) grading.ProParse {
		return grading.ProParse{Err: fmt.Sprintf(format, a...), DurationS: time.Since(start).Seconds()}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = ProParserTimeout
	}
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = ProParserMemoryBytes
	}
	if opts.Python == "" {
		opts.Python = "python3"
	}
	inDir, err := os.MkdirTemp("", "polynfi-pro-parser-in-")
	if err != nil {
		return out("parser.py not run: %v", err)
	}
	defer os.RemoveAll(inDir)
	outDir, err := os.MkdirTemp("", "polynfi-pro-parser-out-")
	if err != nil {
		return out("parser.py not run: %v", err)
	}
	defer os.RemoveAll(outDir)
	for _, f := range []struct {
		name string
		data []byte
	}{{"parser.py", []byte(parser)}, {"stdout.log", stdout}, {"stderr.log", stderr}} {
		if err := os.WriteFile(filepath.Join(inDir, f.name), f.data, 0o444); err != nil {
			return out("parser.py not run: %v", err)
		}
	}
	if err := os.Chmod(inDir, 0o555); err != nil {
		return out("parser.py not run: %v", err)
	}
	defer os.Chmod(inDir, 0o700) // so that RemoveAll can empty it
	local := runtime.NewLocal(ctx, runtime.LocalOptions{MaxOutput: 1 << 20,
		Limits: runtime.Limits{MemoryBytes: opts.MemoryBytes, Pids: ProParserPids, DiskBytes: ProParserOutputBytes}})
	defer local.Close()
	if local.Refuses() {
		return out("parser.py not run: it runs only in a sandbox, and there is none here (%s)", local.Note())
	}
	res, err := local.Run(ctx, runtime.Command{
		Args: []string{opts.Python, "-I", filepath.Join(inDir, "parser.py"), filepath.Join(inDir, "stdout.log"),
			filepath.Join(inDir, "stderr.log"), filepath.Join(outDir, "output.json")},
		Dir: outDir, Visible: []string{inDir}, Timeout: opts.Timeout,
	})
	if err != nil {
		return out("parser.py did not run: %v", err)
	}
	tail := stderrTail(res.Stderr)
	switch {
	case res.TimedOut:
		return out("parser.py timed out after %s%s", opts.Timeout, tail)
	case res.ExitCode != 0:
		return out("parser.py exited %d%s", res.ExitCode, tail)
	}
	tests, err := readProOutput(filepath.Join(outDir, "output.json"))
	if err != nil {
		return out("parser.py's output: %v%s", err, tail)
	}
	return grading.ProParse{Tests: tests, DurationS: time.Since(start).Seconds()}
}

// readProOutput reads a parser's output.json: an object whose "tests" is a
// list of {"name": string, "status": string} (other keys ignored, as the
// published harness ignores them). A missing, oversized or differently
// shaped file is an error saying what is wrong where.
func readProOutput(path string) ([]grading.ProTest, error) {
	f, err := regfile.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("no output.json written")
		}
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, ProParserOutputBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > ProParserOutputBytes {
		return nil, fmt.Errorf("output.json is larger than %d bytes", ProParserOutputBytes)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("output.json is not a JSON object: %v", err)
	}
	raw, ok := doc["tests"]
	if !ok {
		return nil, fmt.Errorf("output.json has no \"tests\" list")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, fmt.Errorf("output.json's \"tests\" is not a list")
	}
	tests := make([]grading.ProTest, 0, len(items))
	for i, it := range items {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(it, &m); err != nil || m == nil {
			return nil, fmt.Errorf("output.json: tests[%d] is not an object", i)
		}
		var t grading.ProTest
		for _, f := range []struct {
			key string
			dst *string
		}{{"name", &t.Name}, {"status", &t.Status}} {
			v, ok := m[f.key]
			if !ok || json.Unmarshal(v, f.dst) != nil {
				return nil, fmt.Errorf("output.json: tests[%d].%s is not a string", i, f.key)
			}
		}
		tests = append(tests, t)
	}
	return tests, nil
}

// stderrTail is ": " and the last lines of a parser's stderr (at most 600
// bytes), or "" when it wrote nothing.
func stderrTail(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return ""
	}
	if len(b) > 600 {
		b = b[len(b)-600:]
	}
	return ": " + strings.ReplaceAll(string(bytes.ToValidUTF8(b, []byte("?"))), "\n", " | ")
}

// runProParserOf runs the parser.py of SWE-bench Pro instance in on the
// streams of its run l (RunProParser with the default bounds); a run
// killed at its timeout is not parsed (nil).
func runProParserOf(ctx context.Context, in dataset.Instance, l testCommandLog) *grading.ProParse {
	if l.TimedOut {
		return nil
	}
	p := RunProParser(ctx, in.SWEBenchPro.Parser, l.Stdout, l.Stderr, ProParserOptions{})
	return &p
}

// proParserNote is the test run's note on the parser.py run.
func proParserNote(p *grading.ProParse) string {
	switch {
	case p == nil:
		return "parser.py not run: the tests timed out"
	case p.Err != "":
		return fmt.Sprintf("parser.py (%.2f s, local sandbox): %s", p.DurationS, p.Err)
	}
	return fmt.Sprintf("parser.py (%.2f s, local sandbox): %d test results", p.DurationS, len(p.Tests))
}
