package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
)

// engineFlags are the flags shared by the commands that score Python
// (score, diff): catalog, config file, rule selection.
type engineFlags struct {
	catalog    string
	config     string
	noConfig   bool
	selects    []string
	ignores    []string
	ignoreNoqa bool
	// replaceExclude is --exclude (nil when not given; --exclude= gives none).
	replaceExclude []string
	// suppressible is set by registerSuppressions.
	suppressible bool
	perFile      []string
	exclude      []string
	// pythonVersion is --python-version ("3.8" ... "3.14", "" the newest).
	pythonVersion string
}

// pythonVersionHelp is the help of --python-version.
const pythonVersionHelp = "Python version whose grammar decides validity, 3.8 through 3.14 (default: the newest, 3.14); see docs/pyparse.md for the constructs that depend on it"

// parsePythonVersion turns --python-version's value into the minor version
// nfi.Engine.PythonMinor takes: "" → 0 (the newest), "3.N" → N for N in
// 8..14 ("3.N.P" and "N" not accepted, so that a typo does not pass).
func parsePythonVersion(v string) (int, error) {
	if v == "" {
		return 0, nil
	}
	rest, ok := strings.CutPrefix(v, "3.")
	n, err := strconv.Atoi(rest)
	if !ok || err != nil || n < 8 || n > 14 || strconv.Itoa(n) != rest {
		return 0, usagef("--python-version %q: want 3.8 through 3.14", v)
	}
	return n, nil
}

func (f *engineFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.catalog, "catalog", catalog.Default, "rule catalog")
	c.Flags().StringVar(&f.config, "config", "", "settings file (polynfi.toml or pyproject.toml); default: found from the first path upwards")
	c.Flags().BoolVar(&f.noConfig, "isolated", false, "ignore configuration files")
	c.Flags().StringSliceVar(&f.selects, "select", nil, "rules to run: IDs, aspect codes or ID prefixes (replaces the config's select)")
	c.Flags().StringSliceVar(&f.ignores, "ignore", nil, "rules to skip (added to the config's ignore)")
	c.Flags().StringVar(&f.pythonVersion, "python-version", "", pythonVersionHelp)
}

// registerSuppressions adds the flags of the commands that honour
// suppressions and select files (score, diff); the engine of any other
// command counts every finding, as SWE-NFI does.
func (f *engineFlags) registerSuppressions(c *cobra.Command) {
	f.suppressible = true
	c.Flags().BoolVar(&f.ignoreNoqa, "ignore-noqa", false, "count every finding: ignore # noqa comments and per-file-ignores (SWE-NFI's benchmark scoring)")
	c.Flags().StringArrayVar(&f.perFile, "per-file-ignores", nil, "PATTERN:RULES, e.g. 'tests/*:DOC,ERR-P01' (added to the config's)")
	c.Flags().StringSliceVar(&f.exclude, "extend-exclude", nil, "path patterns to skip (added to the config's extend-exclude)")
	c.Flags().StringSliceVar(&f.replaceExclude, "exclude", nil, "path patterns to skip instead of the default list and the config's exclude (--exclude= for none)")
}

// testEngineHook, set only by tests (never concurrently with other
// commands), changes each engine the flags build: the front-end test scores
// with tree-sitter through it (nfi.Engine.TreeSitter) as its oracle.
var testEngineHook func(*nfi.Engine)

// engine builds the engine from the flags and the settings file found from start.
func (f *engineFlags) engine(start string) (*nfi.Engine, error) {
	cat, err := catalog.Get(f.catalog)
	if err != nil {
		return nil, usageError{err}
	}
	minor, err := parsePythonVersion(f.pythonVersion)
	if err != nil {
		return nil, err
	}
	var s nfi.Settings
	path := f.config
	if path == "" && !f.noConfig {
		dir := start
		if st, err := os.Stat(start); err == nil && !st.IsDir() {
			dir = filepath.Dir(start)
		}
		path, _ = nfi.FindSettings(dir)
	}
	if path != "" {
		if s, err = nfi.LoadSettings(path); err != nil {
			return nil, fmt.Errorf("load settings: %w", err)
		}
	}
	return f.engineWith(cat, minor, s)
}

// engineWith builds the engine from settings s (as loaded from a file)
// and the flags, which override or add to them.
func (f *engineFlags) engineWith(cat *nfi.Catalog, minor int, s nfi.Settings) (*nfi.Engine, error) {
	if len(f.selects) > 0 {
		s.Select = f.selects
	}
	s.Ignore = append(s.Ignore, f.ignores...)
	s.ExtendExclude = append(s.ExtendExclude, f.exclude...)
	if f.replaceExclude != nil {
		s.Exclude = []string{}
		for _, p := range f.replaceExclude {
			if strings.TrimSpace(p) != "" {
				s.Exclude = append(s.Exclude, p)
			}
		}
	}
	for _, pf := range f.perFile {
		pat, rules, ok := strings.Cut(pf, ":")
		if !ok || pat == "" || rules == "" {
			return nil, usagef("--per-file-ignores %q: want PATTERN:RULE[,RULE...]", pf)
		}
		if s.PerFileIgnores == nil {
			s.PerFileIgnores = map[string][]string{}
		}
		s.PerFileIgnores[pat] = append(s.PerFileIgnores[pat], strings.Split(rules, ",")...)
	}
	// A bad rule selector given as a flag is a usage error (exit 2); one in
	// a settings file is an error in that input (exit 3).
	flagOnly := nfi.Settings{Select: f.selects, Ignore: f.ignores}
	for _, pf := range f.perFile {
		pat, rules, _ := strings.Cut(pf, ":")
		if flagOnly.PerFileIgnores == nil {
			flagOnly.PerFileIgnores = map[string][]string{}
		}
		flagOnly.PerFileIgnores[pat] = append(flagOnly.PerFileIgnores[pat], strings.Split(rules, ",")...)
	}
	if len(f.selects) > 0 || len(f.ignores) > 0 || len(f.perFile) > 0 {
		if _, err := nfi.NewEngine(cat, flagOnly); err != nil {
			return nil, usageError{err}
		}
	}
	e, err := nfi.NewEngine(cat, s)
	if err != nil {
		return nil, err
	}
	e.Suppressions = f.suppressible && !f.ignoreNoqa
	e.PythonMinor = minor
	if testEngineHook != nil {
		testEngineHook(e)
	}
	return e, nil
}

// settingsSummary is what reports record about the settings in force.
type settingsSummary struct {
	Version  string        `json:"polynfi_version"`
	Catalog  string        `json:"catalog"`
	Rules    int           `json:"rules"`
	Settings *nfi.Settings `json:"settings,omitempty"`
	// Suppressions is "honoured" (# noqa and per-file-ignores silence
	// findings, which then do not fail their rule) or "ignored" (every
	// finding counts, as in SWE-NFI's scores: --ignore-noqa).
	Suppressions string `json:"suppressions"`
}

// suppressionMode is settingsSummary.Suppressions of e.
func suppressionMode(e *nfi.Engine) string {
	if e.Suppressions {
		return "honoured"
	}
	return "ignored"
}

// provenanceLine is the last line of the text formats of score and diff:
// which polynfi, catalog and suppression mode produced the numbers
// ("polynfi v1.2.3 · catalog polynfi-92 · suppressions honoured").
func provenanceLine(e *nfi.Engine) string {
	return fmt.Sprintf("polynfi %s · catalog %s · suppressions %s", polynfiVersion(), e.Catalog.Version, suppressionMode(e))
}

func summarizeSettings(e *nfi.Engine) settingsSummary {
	s := settingsSummary{Version: polynfiVersion(), Catalog: e.Catalog.Version, Rules: len(e.Rules()), Suppressions: suppressionMode(e)}
	if e.Settings.NonDefault() {
		st := e.Settings
		s.Settings = &st
	}
	return s
}
