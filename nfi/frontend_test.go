package nfi_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/internal/citest"
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/syntax"
)

// Validity per language: polynfi takes a JavaScript, TypeScript or Java
// file as valid when its tree-sitter tree has no ERROR or MISSING node
// (Engine.Score). TestFrontEndAgreement measures that verdict against each
// language's own front end on a corpus of real files and of mutants of
// them (one structural byte deleted, so that both verdicts occur):
//
//   - JavaScript: V8 as node runs it (node --check's parser): valid when
//     the text compiles as a CommonJS function body (vm.compileFunction,
//     the wrapper node's loader uses) or as an ES module
//     (vm.SourceTextModule);
//   - TypeScript: TypeScript 6.0.3's syntactic diagnostics
//     (Program.getSyntacticDiagnostics, the syntax errors tsc --noEmit
//     reports; type errors are not syntax);
//   - Java: javac's parser (JavacTask.parse, JDK 17), errors only.
//
// The corpora are .ci/eslint-oracle.sh's npm packages and the Maven
// Central sources of .ci/pmd-oracle.sh (branch i27-java).

// frontEndSample picks up to perPackage files per package directory of
// root whose name ext accepts (every k-th in path order), none over
// maxBytes or with a line over 1,000 bytes.
func frontEndSample(t *testing.T, root string, perPackage int, ext func(string) bool) []string {
	t.Helper()
	pkgs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pkgs {
		var files []string
		filepath.WalkDir(filepath.Join(root, p.Name()), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() || !ext(path) || strings.HasSuffix(path, ".min.js") || strings.HasSuffix(path, ".d.ts") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil || len(data) > 60_000 {
				return nil
			}
			for _, line := range bytes.Split(data, []byte("\n")) {
				if len(line) > 1000 {
					return nil
				}
			}
			files = append(files, path)
			return nil
		})
		sort.Strings(files)
		if len(files) > perPackage {
			step := float64(len(files)) / float64(perPackage)
			var pick []string
			for i := 0; i < perPackage; i++ {
				pick = append(pick, files[int(float64(i)*step)])
			}
			files = pick
		}
		out = append(out, files...)
	}
	return out
}

// mutate writes into dir the file and one mutant of it: the k-th
// structural byte ({ } ( ) [ ] ; ,) deleted, k chosen from the index.
func mutate(t *testing.T, dir string, i int, path string) []string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var at []int
	for j, c := range src {
		if strings.IndexByte("{}()[];,", c) >= 0 {
			at = append(at, j)
		}
	}
	ext := filepath.Ext(path)
	orig := filepath.Join(dir, fmt.Sprintf("f%04d%s", i, ext))
	if err := os.WriteFile(orig, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out := []string{orig}
	if len(at) > 0 {
		k := at[(i*7919)%len(at)]
		mut := append(append([]byte{}, src[:k]...), src[k+1:]...)
		p := filepath.Join(dir, fmt.Sprintf("m%04d%s", i, ext))
		if err := os.WriteFile(p, mut, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// oracleVerdicts runs cmd and reads its "valid\tPATH" / "invalid\tPATH"
// lines.
func oracleVerdicts(t *testing.T, cmd *exec.Cmd) map[string]bool {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd.Args[0], err, stderr.String())
	}
	out := map[string]bool{}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		verdict, path, ok := strings.Cut(sc.Text(), "\t")
		if ok {
			out[path] = verdict == "valid"
		}
	}
	return out
}

// treeSitterValid is polynfi's verdict: Engine.Score's status.
func treeSitterValid(t *testing.T, e *nfi.Engine, parser *syntax.Parser, path string) bool {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fs := e.Score(parser, path, src)
	return fs.Valid
}

func TestFrontEndAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node, TypeScript and javac over corpora")
	}
	eslintDir := citest.Oracle(t, "POLYNFI_ESLINT_ORACLE", "eslint-"+nfi.ESLintVersion, ".ci/eslint-oracle.sh")
	pmdDir := citest.Oracle(t, "POLYNFI_PMD_ORACLE", "pmd-"+nfi.PMDVersion, ".ci/pmd-oracle.sh")
	for _, tool := range []string{"node", "javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			citest.Missing(t, "%s not on PATH", tool)
		}
	}
	e, err := nfi.NewEngine(&nfi.Catalog{Version: "validity"}, nfi.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	parser := syntax.NewParser()
	defer parser.Close()
	work := t.TempDir()

	type lang struct {
		name  string
		files []string
		judge func(list string) map[string]bool
	}
	sample := func(root string, per int, exts ...string) []string {
		return frontEndSample(t, root, per, func(p string) bool { return slices.Contains(exts, filepath.Ext(p)) })
	}
	jsScript := filepath.Join(work, "js-check.cjs")
	os.WriteFile(jsScript, []byte(`const fs = require("fs"), vm = require("vm");
for (const f of fs.readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean)) {
  const src = fs.readFileSync(f, "utf8");
  let ok = false;
  try { vm.compileFunction(src, ["exports", "require", "module", "__filename", "__dirname"]); ok = true; } catch (e) {}
  if (!ok) { try { new vm.SourceTextModule(src); ok = true; } catch (e) {} }
  console.log((ok ? "valid" : "invalid") + "\t" + f);
}
`), 0o644)
	tsScript := filepath.Join(work, "ts-check.cjs")
	os.WriteFile(tsScript, []byte(`const fs = require("fs");
const ts = require(process.argv[3] + "/node_modules/typescript");
const files = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
const program = ts.createProgram(files, { noResolve: true, noLib: true, types: [], noEmit: true, jsx: ts.JsxEmit.Preserve });
for (const f of files) {
  const n = program.getSyntacticDiagnostics(program.getSourceFile(f)).length;
  console.log((n === 0 ? "valid" : "invalid") + "\t" + f);
}
`), 0o644)
	javaSrc := filepath.Join(work, "Parse.java")
	os.WriteFile(javaSrc, []byte(`import com.sun.source.util.JavacTask;
import java.nio.file.*;
import java.util.List;
import javax.tools.*;

public class Parse {
    public static void main(String[] args) throws Exception {
        JavaCompiler c = ToolProvider.getSystemJavaCompiler();
        StandardJavaFileManager fm = c.getStandardFileManager(null, null, java.nio.charset.StandardCharsets.UTF_8);
        for (String f : Files.readAllLines(Paths.get(args[0]))) {
            DiagnosticCollector<JavaFileObject> d = new DiagnosticCollector<>();
            JavacTask task = (JavacTask) c.getTask(null, fm, d, List.of("-proc:none"), null, fm.getJavaFileObjects(f));
            task.parse();
            boolean bad = d.getDiagnostics().stream().anyMatch(x -> x.getKind() == Diagnostic.Kind.ERROR);
            System.out.println((bad ? "invalid" : "valid") + "\t" + f);
        }
    }
}
`), 0o644)
	if out, err := exec.Command("javac", "-d", work, javaSrc).CombinedOutput(); err != nil {
		t.Fatalf("javac Parse.java: %v\n%s", err, out)
	}
	langs := []lang{
		{"JavaScript", sample(filepath.Join(eslintDir, "corpus"), 10, ".js", ".mjs", ".cjs"), func(list string) map[string]bool {
			return oracleVerdicts(t, exec.Command("node", "--experimental-vm-modules", "--no-warnings", jsScript, list))
		}},
		{"TypeScript", sample(filepath.Join(eslintDir, "corpus"), 15, ".ts", ".tsx", ".mts", ".cts"), func(list string) map[string]bool {
			return oracleVerdicts(t, exec.Command("node", tsScript, list, eslintDir))
		}},
		{"Java", sample(filepath.Join(pmdDir, "corpus"), 20, ".java"), func(list string) map[string]bool {
			return oracleVerdicts(t, exec.Command("java", "-cp", work, "Parse", list))
		}},
	}
	for _, l := range langs {
		dir := filepath.Join(work, l.name)
		os.MkdirAll(dir, 0o755)
		var files []string
		origin := map[string]string{}
		for i, f := range l.files {
			for _, m := range mutate(t, dir, i, f) {
				files = append(files, m)
				origin[m] = f
			}
		}
		list := filepath.Join(work, l.name+".txt")
		os.WriteFile(list, []byte(strings.Join(files, "\n")+"\n"), 0o644)
		theirs := l.judge(list)
		var n, agree, validBoth, invalidBoth, onlyTS, onlyFE int
		var diffs []string
		for _, f := range files {
			fe, ok := theirs[f]
			if !ok {
				t.Fatalf("%s: the front end gave no verdict on %s", l.name, f)
			}
			ts := treeSitterValid(t, e, parser, f)
			n++
			switch {
			case ts && fe:
				validBoth++
			case !ts && !fe:
				invalidBoth++
			case !ts && fe:
				onlyTS++ // tree-sitter rejects what the front end accepts
			default:
				onlyFE++
			}
			if ts == fe {
				agree++
			} else if len(diffs) < 8 {
				diffs = append(diffs, fmt.Sprintf("%s (of %s): tree-sitter valid=%v, front end valid=%v", filepath.Base(f), origin[f], ts, fe))
			}
		}
		t.Logf("%s: %d files (%d originals + mutants): agree %d (%.1f%%): both valid %d, both invalid %d; tree-sitter alone rejects %d, the front end alone rejects %d",
			l.name, n, len(l.files), agree, 100*float64(agree)/float64(n), validBoth, invalidBoth, onlyTS, onlyFE)
		if validBoth < 50 || invalidBoth < 50 {
			t.Errorf("%s: too few files of a kind (%d valid, %d invalid for both)", l.name, validBoth, invalidBoth)
		}
		if float64(agree) < minFrontEndAgreement[l.name]*float64(n) {
			t.Errorf("%s: agreement %d/%d below %.0f%%:\n%s", l.name, agree, n, 100*minFrontEndAgreement[l.name], strings.Join(diffs, "\n"))
		}
	}
}

// minFrontEndAgreement is the agreement each language must keep: what was
// measured when the test was written, rounded down. Measured: JavaScript
// 327/327 (100%), TypeScript 150/157 (95.5%: tree-sitter-typescript
// 0.23.2 rejects `import("./m").T<...>` types and generic call signatures
// whose type parameter has a union constraint, which TypeScript accepts),
// Java 319/320 (99.7%); the front ends never accepted less than
// tree-sitter.
var minFrontEndAgreement = map[string]float64{"JavaScript": 0.99, "TypeScript": 0.95, "Java": 0.99}
