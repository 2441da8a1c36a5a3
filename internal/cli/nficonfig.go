package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
)

// engineFlags are the flags shared by the commands that score Python
// (score, diff): catalog, config file, rule selection.
type engineFlags struct {
	catalog  string
	config   string
	noConfig bool
	selects  []string
	ignores  []string
}

func (f *engineFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.catalog, "catalog", catalog.Default, "rule catalog")
	c.Flags().StringVar(&f.config, "config", "", "settings file (polynfi.toml or pyproject.toml); default: found from the first path upwards")
	c.Flags().BoolVar(&f.noConfig, "isolated", false, "ignore configuration files")
	c.Flags().StringSliceVar(&f.selects, "select", nil, "rules to run: IDs, aspect codes or ID prefixes (replaces the config's select)")
	c.Flags().StringSliceVar(&f.ignores, "ignore", nil, "rules to skip (added to the config's ignore)")
}

// engine builds the engine from the flags and the settings file found from start.
func (f *engineFlags) engine(start string) (*nfi.Engine, error) {
	cat, err := catalog.Get(f.catalog)
	if err != nil {
		return nil, usageError{err}
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
	if len(f.selects) > 0 {
		s.Select = f.selects
	}
	s.Ignore = append(s.Ignore, f.ignores...)
	e, err := nfi.NewEngine(cat, s)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// skipDir reports directories never searched for Python files.
func skipDir(name string) bool {
	return name != "." && name != ".." && (strings.HasPrefix(name, ".") || name == "__pycache__" || name == "node_modules")
}

// pythonFiles expands files and directories: a file is taken as given, a
// directory is searched recursively for *.py (hidden directories,
// __pycache__ and node_modules skipped). The result is sorted per argument.
//
// A path that does not exist is kept in the list (scoring reports it as a
// read_error for that file) and named in missing, so that one bad argument
// does not stop the run.
func pythonFiles(args []string) (files, missing []string, err error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			missing = append(missing, a)
			out = append(out, a)
			continue
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != a && skipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(p, ".py") && d.Type().IsRegular() {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, missing, nil
}

// settingsSummary is what reports record about the settings in force.
type settingsSummary struct {
	Catalog  string        `json:"catalog"`
	Rules    int           `json:"rules"`
	Settings *nfi.Settings `json:"settings,omitempty"`
}

func summarizeSettings(e *nfi.Engine) settingsSummary {
	s := settingsSummary{Catalog: e.Catalog.Version, Rules: len(e.Rules())}
	if e.Settings.NonDefault() {
		st := e.Settings
		s.Settings = &st
	}
	return s
}
