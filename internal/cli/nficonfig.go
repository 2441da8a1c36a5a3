package cli

import (
	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/nfi/catalog"
	"github.com/polynfi/polynfi/nfi/driver"
)

// engineFlags are the flags shared by the commands that score Python
// (score, diff, mine): catalog, config file, rule selection. The engine
// is built by driver.EngineOptions.Engine.
type engineFlags struct {
	driver.EngineOptions
}

// pythonVersionHelp is the help of --python-version.
const pythonVersionHelp = "Python version whose grammar decides validity, 3.8 through 3.14 (default: the newest, 3.14); see docs/pyparse.md for the constructs that depend on it"

func (f *engineFlags) register(c *cobra.Command) {
	c.Flags().StringVar(&f.Catalog, "catalog", catalog.Default, "rule catalog")
	c.Flags().StringVar(&f.Config, "config", "", "settings file (polynfi.toml or pyproject.toml); default: found from the first path upwards")
	c.Flags().BoolVar(&f.Isolated, "isolated", false, "ignore configuration files")
	c.Flags().StringSliceVar(&f.Select, "select", nil, "rules to run: IDs, aspect codes, ID prefixes or the ESLint names of the rules that reproduce them (replaces the config's select)")
	c.Flags().StringSliceVar(&f.Ignore, "ignore", nil, "rules to skip, named as --select (added to the config's ignore)")
	c.Flags().StringVar(&f.PythonVersion, "python-version", "", pythonVersionHelp)
}

// registerSuppressions adds the flags of the commands that honour
// suppressions and select files (score, diff); the engine of any other
// command counts every finding, as SWE-NFI does.
func (f *engineFlags) registerSuppressions(c *cobra.Command) {
	f.Suppressible = true
	c.Flags().BoolVar(&f.IgnoreNoqa, "ignore-noqa", false, "count every finding: ignore # noqa comments and per-file-ignores (SWE-NFI's benchmark scoring)")
	c.Flags().StringArrayVar(&f.PerFileIgnores, "per-file-ignores", nil, "PATTERN:RULES, e.g. 'tests/*:DOC,ERR-P01' (added to the config's)")
	c.Flags().StringSliceVar(&f.ExtendExclude, "extend-exclude", nil, "path patterns to skip (added to the config's extend-exclude)")
	c.Flags().StringSliceVar(&f.Exclude, "exclude", nil, "path patterns to skip instead of the default list and the config's exclude (--exclude= for none)")
}
