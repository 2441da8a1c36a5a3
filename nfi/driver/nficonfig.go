// Package driver is the NFI driver behind the score and diff commands, as
// staticcheck's lintcmd is behind its command: it builds the engine from
// the settings file and the command-line options (EngineOptions), finds
// the files to score (Discover), scores a change between two paths or two
// git revisions (PathComparison, GitComparison) with the settings of the
// before version (EngineOptions.BaseSettings), judges it by the gates
// (GateOptions, Gates) and writes it in each output format (a Formatter per
// format of DiffFormats, from NewFormatter; WriteDiff; the Write* functions
// and SARIFSink that score uses). It declares no flags and prints only
// to the writers it is given; errors in the command line itself
// (a bad flag value, argument or revision) report IsUsage() true.
package driver

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
)

// ParsePythonVersion turns --python-version's value into the minor version
// nfi.Engine.PythonMinor takes: "" → 0 (the newest), "3.N" → N for N in
// 8..14 ("3.N.P" and "N" not accepted, so that a typo does not pass).
func ParsePythonVersion(v string) (int, error) {
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

// EngineOptions are the command-line choices that, with the settings
// file, build an nfi.Engine (the flags of score, diff and mine).
type EngineOptions struct {
	// Catalog names the rule catalog (catalog.Get).
	Catalog string
	// Config is the settings file; "" finds one from the start path upwards.
	Config string
	// Isolated ignores configuration files.
	Isolated bool
	// Select replaces the settings' select when not empty; Ignore adds to theirs.
	Select, Ignore []string
	// IgnoreNoqa counts every finding (suppressions off).
	IgnoreNoqa bool
	// Exclude replaces the default exclude list and the settings' exclude
	// (nil when not given; an empty slice gives none; blank entries dropped).
	Exclude []string
	// Suppressible is true for the commands that honour suppressions and
	// select files (score, diff); any other command counts every finding.
	Suppressible bool
	// PerFileIgnores are PATTERN:RULE[,RULE...] entries added to the settings'.
	PerFileIgnores []string
	// ExtendExclude adds to the settings' extend-exclude.
	ExtendExclude []string
	// PythonVersion is "3.8" ... "3.14", "" the newest (ParsePythonVersion).
	PythonVersion string
}

// TestEngineHook, set only by tests (never concurrently with other
// commands), changes each engine the flags build: the front-end test scores
// with tree-sitter through it (nfi.Engine.TreeSitter) as its oracle.
var TestEngineHook func(*nfi.Engine)

// Engine builds the engine from the options and the settings file found from start.
func (f *EngineOptions) Engine(start string) (*nfi.Engine, error) {
	cat, err := catalog.Get(f.Catalog)
	if err != nil {
		return nil, usageError{err}
	}
	minor, err := ParsePythonVersion(f.PythonVersion)
	if err != nil {
		return nil, err
	}
	var s nfi.Settings
	path := f.Config
	if path == "" && !f.Isolated {
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
	return f.EngineWith(cat, minor, s)
}

// EngineWith builds the engine from settings s (as loaded from a file)
// and the flags, which override or add to them.
func (f *EngineOptions) EngineWith(cat *nfi.Catalog, minor int, s nfi.Settings) (*nfi.Engine, error) {
	if len(f.Select) > 0 {
		s.Select = f.Select
	}
	s.Ignore = append(s.Ignore, f.Ignore...)
	s.ExtendExclude = append(s.ExtendExclude, f.ExtendExclude...)
	if f.Exclude != nil {
		s.Exclude = []string{}
		for _, p := range f.Exclude {
			if strings.TrimSpace(p) != "" {
				s.Exclude = append(s.Exclude, p)
			}
		}
	}
	for _, pf := range f.PerFileIgnores {
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
	flagOnly := nfi.Settings{Select: f.Select, Ignore: f.Ignore}
	for _, pf := range f.PerFileIgnores {
		pat, rules, _ := strings.Cut(pf, ":")
		if flagOnly.PerFileIgnores == nil {
			flagOnly.PerFileIgnores = map[string][]string{}
		}
		flagOnly.PerFileIgnores[pat] = append(flagOnly.PerFileIgnores[pat], strings.Split(rules, ",")...)
	}
	if len(f.Select) > 0 || len(f.Ignore) > 0 || len(f.PerFileIgnores) > 0 {
		if _, err := nfi.NewEngine(cat, flagOnly); err != nil {
			return nil, usageError{err}
		}
	}
	e, err := nfi.NewEngine(cat, s)
	if err != nil {
		return nil, err
	}
	e.Suppressions = f.Suppressible && !f.IgnoreNoqa
	e.PythonMinor = minor
	if TestEngineHook != nil {
		TestEngineHook(e)
	}
	return e, nil
}

// SettingsSummary is what reports record about the settings in force.
type SettingsSummary struct {
	Version  string        `json:"polynfi_version"`
	Catalog  string        `json:"catalog"`
	Rules    int           `json:"rules"`
	Settings *nfi.Settings `json:"settings,omitempty"`
	// Suppressions is "honoured" (# noqa and per-file-ignores silence
	// findings, which then do not fail their rule) or "ignored" (every
	// finding counts, as in SWE-NFI's scores: --ignore-noqa).
	Suppressions string `json:"suppressions"`
}

// SuppressionMode is SettingsSummary.Suppressions of e.
func SuppressionMode(e *nfi.Engine) string {
	if e.Suppressions {
		return "honoured"
	}
	return "ignored"
}

// ProvenanceLine is the last line of the text formats of score and diff:
// which polynfi, catalog and suppression mode produced the numbers
// ("polynfi v1.2.3 · catalog polynfi-92 · suppressions honoured").
func ProvenanceLine(e *nfi.Engine) string {
	return fmt.Sprintf("polynfi %s · catalog %s · suppressions %s", Version(), e.Catalog.Version, SuppressionMode(e))
}

// SummarizeSettings is what reports record about e's settings.
func SummarizeSettings(e *nfi.Engine) SettingsSummary {
	s := SettingsSummary{Version: Version(), Catalog: e.Catalog.Version, Rules: len(e.Rules()), Suppressions: SuppressionMode(e)}
	if e.Settings.NonDefault() {
		st := e.Settings
		s.Settings = &st
	}
	return s
}
