// Package archtest holds the one-way import map of the architecture
// (ARCHITECTURE.md, "Packages and what each may import") as a test.
package archtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/polynfi/polynfi/"

// The map is the table "What may import what" of docs/architecture.md:
// for each package of the map (a trailing "/..." admits a package and
// everything below it), the module packages it may import directly
// (internal/... helpers other than internal/cli are open to all) and the
// packages it must never reach, even indirectly (a module package, or a
// full import path when it holds a dot). A package of the module that is
// not listed is held only to the rules every package obeys (TestImportMap).
var allowed, forbiddenDeps = readMap()

// readMap parses the table; it panics (failing every test of the package)
// when the page or the table is missing or malformed.
func readMap() (allowed, forbidden map[string][]string) {
	_, file, _, _ := runtime.Caller(0)
	doc := filepath.Join(filepath.Dir(file), "..", "..", "docs", "architecture.md")
	b, err := os.ReadFile(doc)
	if err != nil {
		panic(fmt.Sprintf("archtest: the import map: %v", err))
	}
	allowed, forbidden = map[string][]string{}, map[string][]string{}
	in := false
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			in = strings.TrimSpace(line) == "## What may import what"
			continue
		}
		if !in || !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 3 {
			panic(fmt.Sprintf("archtest: %s:%d: want 3 cells: %q", doc, i+1, line))
		}
		name := names(cells[0])
		if len(name) != 1 {
			continue // the header and its rule
		}
		allowed[name[0]] = names(cells[1])
		if f := names(cells[2]); len(f) > 0 {
			forbidden[name[0]] = f
		}
	}
	if len(allowed) < 10 {
		panic(fmt.Sprintf("archtest: %s: the table \"What may import what\" has %d rows", doc, len(allowed)))
	}
	return allowed, forbidden
}

// names returns the `backquoted` names of a table cell.
func names(cell string) []string {
	var out []string
	parts := strings.Split(cell, "`")
	for i := 1; i < len(parts); i += 2 {
		out = append(out, strings.TrimSpace(parts[i]))
	}
	return out
}

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	cmd := exec.Command("go", "list", "-deps=false", "-json", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

func match(pattern, name string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return name == base || strings.HasPrefix(name, base+"/")
	}
	return pattern == name
}

func ruleFor(name string) ([]string, bool) {
	if a, ok := allowed[name]; ok {
		return a, true
	}
	for k, a := range allowed {
		if strings.HasSuffix(k, "/...") && match(k, name) {
			return a, true
		}
	}
	return nil, false
}

// TestImportMap checks every package's direct imports against the map,
// and the indirect dependencies that must never be reached.
func TestImportMap(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, p := range listPackages(t) {
		name, ok := strings.CutPrefix(p.ImportPath, module)
		if !ok {
			continue
		}
		rule, listed := ruleFor(name)
		for _, imp := range p.Imports {
			if (strings.HasPrefix(imp, "github.com/tree-sitter/") || strings.HasPrefix(imp, "github.com/smacker/go-tree-sitter")) && name != "syntax" {
				t.Errorf("%s imports %s: only syntax may import tree-sitter", name, imp)
			}
			dep, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if dep == "internal/cli" && name != "cmd/polynfi" {
				t.Errorf("%s imports internal/cli: only cmd/polynfi may", name)
			}
			if !listed || (strings.HasPrefix(dep, "internal/") && dep != "internal/cli") {
				continue
			}
			if !slices.ContainsFunc(rule, func(a string) bool { return match(a, dep) }) {
				t.Errorf("%s imports %s: the map allows %v", name, dep, rule)
			}
		}
		if listed {
			checked++
		}
	}
	if checked < 10 {
		t.Errorf("only %d packages of the map were found", checked)
	}
	for name, bad := range forbiddenDeps {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+name)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", name, err)
		}
		deps := strings.Fields(string(out))
		for _, b := range bad {
			full := b
			if !strings.Contains(b, ".") {
				full = module + b
			}
			if slices.Contains(deps, full) {
				t.Errorf("%s depends on %s (directly or not)", name, b)
			}
		}
	}
}

// TestMatch checks the pattern syntax of the map.
func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{{"runtime/...", "runtime", true}, {"runtime/...", "runtime/docker", true}, {"runtime/...", "runtimex", false},
		{"nfi", "nfi/aspect", false}, {"nfi", "nfi", true}} {
		if got := match(c.pattern, c.name); got != c.want {
			t.Errorf("match(%q, %q) = %v", c.pattern, c.name, got)
		}
	}
}

// binaryDepBudget bounds the packages cmd/polynfi compiles (Go's standard
// library included): 946 before the Kubernetes runtime dropped client-go's
// clientset (a cold build of ~310 CPU-s), 722 after (~220 CPU-s), 626 once
// it used client-go's REST client instead of the typed clients. A new
// grammar or client adds a few packages; one that adds a hundred shows here
// first. Raise it on purpose, with `make build-profile`'s numbers in the
// commit message.
const binaryDepBudget = 680

// TestBinaryDependencyBudget keeps the binary's dependency count, a proxy
// for the cold build's CPU time, within binaryDepBudget.
func TestBinaryDependencyBudget(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", module+"cmd/polynfi").Output()
	if err != nil {
		t.Fatalf("go list -deps cmd/polynfi: %v", err)
	}
	if n := len(strings.Fields(string(out))); n > binaryDepBudget {
		t.Errorf("cmd/polynfi compiles %d packages, over the budget of %d (make build-profile shows what they cost)", n, binaryDepBudget)
	}
}
