package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/polynfi/polynfi/internal/regfile"
)

// SchemaSWEBenchPro: SWE-bench Pro rows (ScaleAI/SWE-bench_Pro: instance_id,
// repo, base_commit, patch, test_patch, problem_statement, requirements,
// interface, repo_language, fail_to_pass and pass_to_pass as string-encoded
// Python lists, issue_specificity, issue_categories, before_repo_set_cmd,
// selected_test_files_to_run, dockerhub_tag), each with the run_script.sh
// and parser.py the published harness keeps in
// run_scripts/<instance_id>/. Native grading: swe-bench-pro.
const SchemaSWEBenchPro Schema = "swe-bench-pro"

// The file names of an instance's scripts in its run_scripts/<instance_id>/
// directory, and the directory's name beside the dataset file. Source:
// SWE-bench Pro swe_bench_pro_eval.py (load_local_script,
// assemble_workspace_files; its --scripts_dir is run_scripts).
const (
	ProScriptsDir    = "run_scripts"
	ProRunScriptName = "run_script.sh"
	ProParserName    = "parser.py"
)

// MaxProScriptBytes bounds each of run_script.sh and parser.py (the
// published ones are a few kilobytes; the run script is passed to bash as
// one argument, which Linux bounds at 128 KiB).
const MaxProScriptBytes = 64 << 10

// SWEBenchPro holds what a SWE-bench Pro row says beyond SWE-bench's fields.
// RunScript is the instance's test command, run inside the tests' sandbox as
// `bash run_script.sh <SelectedTestFiles joined by ",">` (no argument when
// the list is empty) with stdout and stderr captured apart; Parser is the
// instance's parser.py, which reads those two logs and writes
// {"tests": [{"name": ..., "status": "PASSED"|"FAILED"|"SKIPPED"|"ERROR"}]}:
// polynfi runs it outside the tests' sandbox, in a local bubblewrap
// sandbox of its own (harness: RunProParser). BeforeRepoSetCmd (the
// harness runs its last line after the model patch, to check the test
// files out of the fix commit) is kept but not run: polynfi applies
// test_patch, which carries the same test files. ScriptsDir is the
// directory the scripts were read from ("" when the row carried them
// inline as run_script and parser). Source: SWE-bench Pro
// swe_bench_pro_eval.py (create_entryscript, main) and the
// ScaleAI/SWE-bench_Pro dataset card.
type SWEBenchPro struct {
	RunScript         string
	Parser            string
	ScriptsDir        string
	SelectedTestFiles []string
	BeforeRepoSetCmd  string
	Requirements      string
	Interface         string
	RepoLanguage      string
	IssueSpecificity  []string
	IssueCategories   []string
	DockerhubTag      string
}

// proOnly are the fields of a SWE-bench Pro row that SWE-bench's decoding
// does not read: decodePro reads them itself.
var proOnly = map[string]bool{"requirements": true, "interface": true, "repo_language": true,
	"issue_specificity": true, "issue_categories": true, "before_repo_set_cmd": true,
	"selected_test_files_to_run": true, "dockerhub_tag": true, "run_script": true, "parser": true,
	"fail_to_pass": true, "pass_to_pass": true}

// isProRow tells a SWE-bench Pro row by the fields only its rows have:
// selected_test_files_to_run or before_repo_set_cmd, or the lower-case
// fail_to_pass beside repo_language.
func isProRow(row map[string]any) bool {
	if _, ok := row["selected_test_files_to_run"]; ok {
		return true
	}
	if _, ok := row["before_repo_set_cmd"]; ok {
		return true
	}
	_, f2p := row["fail_to_pass"]
	_, lang := row["repo_language"]
	return f2p && lang
}

// decodePro turns a SWE-bench Pro row into an Instance: SWE-bench's fields
// as decodeInstance reads them (fail_to_pass and pass_to_pass, string-
// encoded Python lists, read as FAIL_TO_PASS and PASS_TO_PASS; repo_language
// as the language, "js" and "ts" folded by CanonicalLanguage), the rest in
// SWEBenchPro. The scripts are read from the row's run_script and parser
// fields when it has them, else by finishPro from the files beside the
// dataset. Errors name the row's own field ("fail_to_pass").
func decodePro(row map[string]any) (Instance, []fieldError) {
	norm := make(map[string]any, len(row))
	for k, v := range row {
		if !proOnly[k] {
			norm[k] = v
		}
	}
	rename := map[string]string{}
	for _, a := range []struct{ pro, canon string }{{"fail_to_pass", "FAIL_TO_PASS"}, {"pass_to_pass", "PASS_TO_PASS"}, {"repo_language", "language"}} {
		v, ok := row[a.pro]
		if !ok {
			continue
		}
		if _, both := row[a.canon]; both {
			continue // the canonical spelling wins; the other is ignored
		}
		norm[a.canon] = v
		rename[a.canon] = a.pro
	}
	var errs []fieldError
	if _, ok := row["test_command"]; ok {
		errs = append(errs, fieldError{"test_command", errors.New("a SWE-bench Pro row is run by its run_script.sh; drop test_command")})
		delete(norm, "test_command")
	}
	in, derrs := decodeInstance(norm)
	for _, e := range derrs {
		if n, ok := rename[e.field]; ok {
			e.field = n
		}
		errs = append(errs, e)
	}
	p := &SWEBenchPro{}
	str := func(name string) string {
		v, ok := row[name]
		if !ok {
			return ""
		}
		s, err := toString(v)
		if err != nil {
			errs = append(errs, fieldError{name, err})
		}
		return s
	}
	list := func(name string) []string {
		v, ok := row[name]
		if !ok {
			return []string{}
		}
		l, err := toList(v)
		if err != nil {
			errs = append(errs, fieldError{name, err})
			return []string{}
		}
		return l
	}
	p.Requirements = str("requirements")
	p.Interface = str("interface")
	p.RepoLanguage = strings.TrimSpace(str("repo_language"))
	p.BeforeRepoSetCmd = str("before_repo_set_cmd")
	p.DockerhubTag = strings.TrimSpace(str("dockerhub_tag"))
	p.SelectedTestFiles = list("selected_test_files_to_run")
	p.IssueSpecificity = list("issue_specificity")
	p.IssueCategories = list("issue_categories")
	p.RunScript = str("run_script")
	p.Parser = str("parser")
	for i, f := range p.SelectedTestFiles {
		// Joined by "," into one argument, as the published harness does.
		if strings.ContainsAny(f, ",\x00\n") || strings.TrimSpace(f) == "" {
			errs = append(errs, fieldError{"selected_test_files_to_run", fmt.Errorf("element %d %q: a test file path without commas, newlines or NUL", i, f)})
		}
	}
	if p.DockerhubTag != "" && (strings.HasPrefix(p.DockerhubTag, "-") || strings.ContainsAny(p.DockerhubTag, " \t\n/:")) {
		errs = append(errs, fieldError{"dockerhub_tag", fmt.Errorf("%q is not an image tag", p.DockerhubTag)})
	}
	for k, v := range row {
		if proOnly[k] || knownField[k] {
			continue
		}
		if in.Extra == nil {
			in.Extra = map[string]any{}
		}
		in.Extra[k] = v
	}
	in.SWEBenchPro = p
	return in, errs
}

// finishPro reads the scripts of a SWE-bench Pro instance the row did not
// carry from run_scripts/<instance_id>/{run_script.sh,parser.py} beside the
// dataset file (datasetPath), checks both, and sets the instance's test
// command (ProTestCommand). Errors name the script's field ("run_script",
// "parser") and the file.
func finishPro(datasetPath string, in *Instance) []fieldError {
	p := in.SWEBenchPro
	var errs []fieldError
	dir := filepath.Join(filepath.Dir(datasetPath), ProScriptsDir, in.InstanceID)
	for _, s := range []struct {
		field, file string
		dst         *string
	}{{"run_script", ProRunScriptName, &p.RunScript}, {"parser", ProParserName, &p.Parser}} {
		if *s.dst == "" {
			path := filepath.Join(dir, s.file)
			b, err := readScript(path)
			if err != nil {
				errs = append(errs, fieldError{s.field, fmt.Errorf("not in the row, and %w", err)})
				continue
			}
			*s.dst, p.ScriptsDir = string(b), dir
		}
		switch {
		case strings.TrimSpace(*s.dst) == "":
			errs = append(errs, fieldError{s.field, errors.New("empty")})
		case len(*s.dst) > MaxProScriptBytes:
			errs = append(errs, fieldError{s.field, fmt.Errorf("%d bytes, more than %d", len(*s.dst), MaxProScriptBytes)})
		case !utf8.ValidString(*s.dst) || strings.ContainsRune(*s.dst, 0):
			errs = append(errs, fieldError{s.field, errors.New("not UTF-8 text")})
		}
	}
	if len(errs) == 0 {
		in.TestCommand = ProTestCommand(p.RunScript, p.SelectedTestFiles)
	}
	return errs
}

// readScript reads a regular file of at most MaxProScriptBytes.
func readScript(path string) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s does not exist", path)
		}
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxProScriptBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ProTestCommand is the test command of a SWE-bench Pro instance: with the
// tracing of polynfi's test-command prologue switched off (so that stderr
// holds what run_script.sh writes, as the published harness's stderr.log
// does), it runs `bash -c <runScript> run_script.sh <files joined by ",">`
// (no file argument when files is empty) in the work tree, as
// swe_bench_pro_eval.py's entryscript runs `bash /workspace/run_script.sh
// <files>`. The script is passed in memory, never written where the code
// under test could rewrite it while bash reads it.
func ProTestCommand(runScript string, files []string) string {
	var b strings.Builder
	b.WriteString("{ set +x; } 2>/dev/null\n")
	b.WriteString("bash -c " + shellQuote(runScript) + " " + ProRunScriptName)
	if len(files) > 0 {
		b.WriteString(" " + shellQuote(strings.Join(files, ",")))
	}
	b.WriteString("\n")
	return b.String()
}

// shellQuote quotes s for bash as one word.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
