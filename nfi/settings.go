package nfi

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/polynfi/polynfi/internal/regfile"
)

// Settings chooses rules and overrides their limits and options.
// The zero value runs every rule of the catalog with its default limits.
//
// Select and Ignore take rule IDs ("STY-T01"), aspect codes ("DOC") or ID
// prefixes ("LOG-T"). A rule runs when Select is empty or matches it, and
// Ignore does not match it. Source of the configuration shape: Ruff's
// [tool.ruff.lint] select/ignore.
type Settings struct {
	Select  []string                  `toml:"select" json:"select,omitempty"`
	Ignore  []string                  `toml:"ignore" json:"ignore,omitempty"`
	Limits  map[string]float64        `toml:"thresholds" json:"thresholds,omitempty"`
	Options map[string]map[string]any `toml:"options" json:"options,omitempty"`
	// PerFileIgnores maps a path pattern (see Glob) to rule selectors
	// (IDs, aspect codes, prefixes) whose findings are suppressed in the
	// files it matches. Source: Ruff's per-file-ignores.
	PerFileIgnores map[string][]string `toml:"per-file-ignores" json:"per_file_ignores,omitempty"`
	// Exclude replaces the default excluded paths (DefaultExclude);
	// ExtendExclude adds to them. Patterns as Glob. Source: Ruff's exclude
	// and extend-exclude.
	Exclude       []string `toml:"exclude" json:"exclude,omitempty"`
	ExtendExclude []string `toml:"extend-exclude" json:"extend_exclude,omitempty"`
	// RespectGitignore, when set to false, scores git-ignored files too
	// (default true). Source: Ruff's respect-gitignore.
	RespectGitignore *bool `toml:"respect-gitignore" json:"respect_gitignore,omitempty"`
	// Gate holds the exit-code gates of score and diff (see the CLI's
	// --fail-on and --fail-under, which add to these).
	Gate Gate `toml:"gate" json:"gate,omitzero"`
	// Origin is the file the settings came from, "" for defaults.
	Origin string `toml:"-" json:"origin,omitempty"`
	// Ruff holds the [tool.ruff] settings of the same pyproject.toml,
	// honoured where these settings say nothing (see RuffSettings); nil
	// when it has none.
	Ruff *RuffSettings `toml:"-" json:"ruff,omitempty"`
}

// RuffSettings are the parts of a project's Ruff configuration ([tool.ruff]
// of pyproject.toml) that polynfi honours where its own settings say
// nothing, so that a project configured for Ruff is judged by the limits
// and exemptions it already chose:
//
//   - Limits maps a Ruff option, as a rule's Oracle.RuffLimit names it
//     ("line-length", "lint.pycodestyle.max-doc-length",
//     "lint.pylint.max-args", ...), to its value; a rule whose limit
//     thresholds does not set takes it. E501's own
//     lint.pycodestyle.max-line-length, when set, is its "line-length".
//     The legacy top-level spellings ("pycodestyle.max-doc-length",
//     "pylint.max-args") count too.
//   - PerFileIgnores maps a path pattern to Ruff selectors (a code, a
//     prefix such as "D" or "E50", or "ALL"); each silences, in the files
//     the pattern matches, the rules exactly equivalent to a Ruff code it
//     selects (Oracle.Exact), unless per-file-ignores has the pattern.
//
// Source: Ruff's settings reference (line-length, lint.per-file-ignores,
// lint.pycodestyle, lint.pylint).
type RuffSettings struct {
	Limits         map[string]float64  `json:"limits,omitempty"`
	PerFileIgnores map[string][]string `json:"per_file_ignores,omitempty"`
}

// ruffLimit returns the Ruff setting key's value; ok is false when the
// configuration does not set it.
func (r *RuffSettings) ruffLimit(key string) (float64, bool) {
	if r == nil {
		return 0, false
	}
	if key == "line-length" {
		if v, ok := r.Limits["lint.pycodestyle.max-line-length"]; ok {
			return v, true
		}
	}
	v, ok := r.Limits[key]
	return v, ok
}

// ruffSelects reports whether a Ruff selector (a code, a prefix, "ALL")
// selects code.
func ruffSelects(sel, code string) bool {
	sel = strings.ToUpper(strings.TrimSpace(sel))
	return sel == "ALL" || strings.HasPrefix(strings.ToUpper(code), sel)
}

// parseRuff reads the options RuffSettings honours from a decoded
// [tool.ruff] table.
func parseRuff(t map[string]any) *RuffSettings {
	r := &RuffSettings{Limits: map[string]float64{}, PerFileIgnores: map[string][]string{}}
	num := func(v any) (float64, bool) {
		switch x := v.(type) {
		case int64:
			return float64(x), true
		case float64:
			return x, true
		}
		return 0, false
	}
	if v, ok := num(t["line-length"]); ok {
		r.Limits["line-length"] = v
	}
	sub := func(m map[string]any, key string) map[string]any {
		x, _ := m[key].(map[string]any)
		return x
	}
	lint := sub(t, "lint")
	for _, plugin := range []string{"pycodestyle", "pylint"} {
		// The legacy top-level table first, lint.<plugin> over it.
		for _, tab := range []map[string]any{sub(t, plugin), sub(lint, plugin)} {
			for k, v := range tab {
				if f, ok := num(v); ok {
					r.Limits["lint."+plugin+"."+k] = f
				}
			}
		}
	}
	for _, tab := range []map[string]any{sub(t, "per-file-ignores"), sub(lint, "per-file-ignores")} {
		for pat, v := range tab {
			list, _ := v.([]any)
			var sels []string
			for _, x := range list {
				if s, ok := x.(string); ok {
					sels = append(sels, s)
				}
			}
			r.PerFileIgnores[pat] = sels
		}
	}
	if len(r.Limits) == 0 && len(r.PerFileIgnores) == 0 {
		return nil
	}
	return r
}

// Gate is the [gate] table of the settings: FailOn lists conditions
// ("regression", "regression:DOC", "new-findings", "invalid"), FailUnder
// maps an aspect code to the lowest S_p (in [0, 1]) the after version may
// have.
type Gate struct {
	FailOn    []string           `toml:"fail-on" json:"fail_on,omitempty"`
	FailUnder map[string]float64 `toml:"fail-under" json:"fail_under,omitempty"`
}

// DefaultExclude are the paths never searched for Python files unless
// Exclude replaces them: version-control, environment, cache and build
// directories. Source: Ruff's default exclude list (plus __pycache__).
var DefaultExclude = []string{
	".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache",
	".nox", ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv",
	".vscode", "__pycache__", "__pypackages__", "_build", "buck-out", "build", "dist", "node_modules",
	"site-packages", "venv",
}

// BaseDir is the directory the settings' path patterns are relative to:
// the settings file's directory, or the working directory for defaults.
func (s Settings) BaseDir() string {
	if s.Origin != "" {
		if abs, err := filepath.Abs(filepath.Dir(s.Origin)); err == nil {
			return abs
		}
	}
	wd, _ := os.Getwd()
	return wd
}

// Excludes compiles the effective exclude patterns (Exclude, or
// DefaultExclude when it is unset, then ExtendExclude).
func (s Settings) Excludes() ([]Glob, error) {
	pats := DefaultExclude
	if s.Exclude != nil {
		pats = s.Exclude
	}
	pats = append(append([]string(nil), pats...), s.ExtendExclude...)
	var out []Glob
	var errs []error
	for _, p := range pats {
		g, err := CompileGlob(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, g)
	}
	return out, errors.Join(errs...)
}

// NonDefault reports whether any setting differs from the defaults.
func (s Settings) NonDefault() bool {
	return len(s.Select) > 0 || len(s.Ignore) > 0 || len(s.Limits) > 0 || len(s.Options) > 0 ||
		len(s.PerFileIgnores) > 0 || s.Exclude != nil || len(s.ExtendExclude) > 0 || s.RespectGitignore != nil ||
		len(s.Gate.FailOn) > 0 || len(s.Gate.FailUnder) > 0
}

// matches reports whether a selector names rule r: ALL, the rule's id or
// a prefix of it (an aspect code, JS-, JS-LOG-), or the name of an ESLint,
// PMD or Checkstyle rule r reproduces (eqeqeq,
// @typescript-eslint/no-explicit-any, EmptyCatchBlock, MagicNumber; case
// ignored), as eslint-disable comments and @SuppressWarnings name it.
func matches(patterns []string, r *Rule) bool {
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		for _, name := range r.LinterNames() {
			if strings.EqualFold(p, name) {
				return true
			}
		}
		p = strings.ToUpper(p)
		if p == "ALL" || p == r.ID || p == r.Aspect.Code() || strings.HasPrefix(r.ID, p) {
			return true
		}
	}
	return false
}

// Selected reports whether the settings run rule r.
func (s Settings) Selected(r *Rule) bool {
	return (len(s.Select) == 0 || matches(s.Select, r)) && !matches(s.Ignore, r)
}

// Validate checks the settings against a catalog: every selector, limit and
// option names a known rule or aspect, and limits are only set for threshold
// rules. The error names the setting and, when known, the file.
func (s Settings) Validate(rules []*Rule) error {
	byID := map[string]*Rule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	where := s.Origin
	if where == "" {
		where = "settings"
	}
	var errs []error
	for _, list := range []struct {
		name string
		v    []string
	}{{"select", s.Select}, {"ignore", s.Ignore}} {
		for _, p := range list.v {
			ok := false
			for _, r := range rules {
				if matches([]string{p}, r) {
					ok = true
					break
				}
			}
			if !ok {
				errs = append(errs, fmt.Errorf("%s: %s: %q matches no rule", where, list.name, p))
			}
		}
	}
	for id, v := range s.Limits {
		r, ok := byID[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s: thresholds: unknown rule %q", where, id))
		case r.Limit == nil:
			errs = append(errs, fmt.Errorf("%s: thresholds: %s is a %s rule and has no threshold", where, id, r.Kind))
		case v < 0 || math.IsNaN(v) || math.IsInf(v, 0):
			errs = append(errs, fmt.Errorf("%s: thresholds: %s = %v: want a number >= 0 (%s)", where, id, v, r.Limit.Unit))
		}
	}
	for pat, sel := range s.PerFileIgnores {
		if _, err := CompileGlob(pat); err != nil {
			errs = append(errs, fmt.Errorf("%s: per-file-ignores: %w", where, err))
		}
		for _, p := range sel {
			ok := false
			for _, r := range rules {
				if matches([]string{p}, r) {
					ok = true
					break
				}
			}
			if !ok {
				errs = append(errs, fmt.Errorf("%s: per-file-ignores.%q: %q matches no rule", where, pat, p))
			}
		}
	}
	if _, err := s.Excludes(); err != nil {
		errs = append(errs, fmt.Errorf("%s: exclude: %w", where, err))
	}
	for a, v := range s.Gate.FailUnder {
		if _, err := ParseAspect(a); err != nil {
			errs = append(errs, fmt.Errorf("%s: gate.fail-under: %w", where, err))
		}
		if v < 0 || v > 1 || math.IsNaN(v) {
			errs = append(errs, fmt.Errorf("%s: gate.fail-under.%s = %v: want S_p in [0, 1]", where, a, v))
		}
	}
	for id, opts := range s.Options {
		r, ok := byID[id]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: options: unknown rule %q", where, id))
			continue
		}
		for name, v := range opts {
			kind, known := r.Options[name]
			switch {
			case !known && len(r.Options) == 0:
				errs = append(errs, fmt.Errorf("%s: options.%s: the rule takes no options (%q given)", where, id, name))
			case !known:
				errs = append(errs, fmt.Errorf("%s: options.%s: unknown option %q (known: %s)", where, id, name, optionNames(r)))
			case !kind.accepts(v):
				errs = append(errs, fmt.Errorf("%s: options.%s.%s = %v: want %s", where, id, name, v, kind))
			}
		}
	}
	return errors.Join(errs...)
}

func optionNames(r *Rule) string {
	var names []string
	for n := range r.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// LoadSettings reads settings from path: a polynfi.toml (top-level keys) or a
// pyproject.toml (the [tool.polynfi] table; a pyproject without one gives
// defaults). Errors name the file and, for TOML syntax errors, the line.
func LoadSettings(path string) (Settings, error) {
	data, err := regfile.ReadFile(path)
	if err != nil {
		return Settings{}, err
	}
	var s Settings
	if filepath.Base(path) == "pyproject.toml" {
		var doc struct {
			Tool struct {
				Polynfi *Settings      `toml:"polynfi"`
				Ruff    map[string]any `toml:"ruff"`
			} `toml:"tool"`
		}
		md, err := toml.Decode(string(data), &doc)
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", path, err)
		}
		if err := undecoded(path, md, "tool.polynfi."); err != nil {
			return Settings{}, err
		}
		if doc.Tool.Polynfi != nil {
			s = *doc.Tool.Polynfi
		}
		if doc.Tool.Ruff != nil {
			s.Ruff = parseRuff(doc.Tool.Ruff)
		}
	} else {
		md, err := toml.Decode(string(data), &s)
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", path, err)
		}
		if err := undecoded(path, md, ""); err != nil {
			return Settings{}, err
		}
	}
	s.Origin = path
	return s, nil
}

func undecoded(path string, md toml.MetaData, prefix string) error {
	var bad []string
	for _, k := range md.Undecoded() {
		ks := k.String()
		if !strings.HasPrefix(ks, prefix) || strings.HasPrefix(ks, prefix+"options.") {
			continue
		}
		bad = append(bad, ks)
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("%s: unknown keys %s (want select, ignore, thresholds, options, per-file-ignores, exclude, extend-exclude, respect-gitignore, gate)", path, strings.Join(bad, ", "))
	}
	return nil
}

// FindSettings looks for polynfi.toml, then pyproject.toml with a
// [tool.polynfi] or a [tool.ruff] table (see RuffSettings), in dir and its
// parents. ok is false when none exists.
func FindSettings(dir string) (path string, ok bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if p := filepath.Join(dir, "polynfi.toml"); fileExists(p) {
			return p, true
		}
		if p := filepath.Join(dir, "pyproject.toml"); fileExists(p) {
			if b, err := os.ReadFile(p); err == nil && HasSettings(b) {
				return p, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// HasSettings reports whether a pyproject.toml's content holds settings
// polynfi reads: a [tool.polynfi] or a [tool.ruff] table.
func HasSettings(pyproject []byte) bool {
	return strings.Contains(string(pyproject), "[tool.polynfi") || strings.Contains(string(pyproject), "[tool.ruff")
}
