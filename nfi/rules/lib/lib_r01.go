package lib

import "github.com/polynfi/polynfi/nfi"

// UsePathlib reports calls of os, os.path and glob functions that pathlib replaces.
//
// Source: PEP 428 (pathlib); Ruff flake8-use-pathlib (PTH); SWE-IF library_1.
var UsePathlib = &nfi.Rule{
	ID: "LIB-R01", Name: "use-pathlib", Aspect: nfi.LibraryConstraints, Kind: nfi.Required,
	Doc: nfi.Doc{
		Summary: "path operation uses os, os.path or glob instead of pathlib",
		What: "No call whose callee resolves (through imports) to os.path.{abspath, exists, expanduser, " +
			"isdir, isfile, islink, isabs, join, basename, dirname, samefile, splitext, getsize, " +
			"getatime, getmtime, getctime}, os.{chmod, mkdir, makedirs, rename, replace, rmdir, remove, " +
			"unlink, getcwd, getcwdb, readlink, stat, listdir, symlink}, glob.glob, glob.iglob or " +
			"py.path.local, plus os.sep.join (which Ruff also reports as PTH118). With the option include-open = true (default false), calls of the builtin " +
			"open count too (Ruff PTH123). The rows are in deprecated.tsv.",
		Why: "pathlib.Path keeps paths as objects with one consistent API instead of strings passed " +
			"through a dozen modules, and reads better: `base / 'data'` instead of `os.path.join(base, 'data')`.",
		Bad:  "import os\n\n\ndef config_path(base):\n    return os.path.join(base, 'config.toml')\n",
		Good: "from pathlib import Path\n\n\ndef config_path(base):\n    return Path(base) / 'config.toml'\n",
		Exempt: "References that are not calls (`map(os.path.join, ...)`) and unresolvable dynamic access " +
			"pass. Options: include-open (bool, default false) adds the builtin open.",
		Source: "PEP 428; Ruff PTH100-PTH122, PTH124, PTH202-PTH205, PTH207, PTH208, PTH211 (and PTH123 for open); SWE-IF library_1",
		Oracle: "Ruff PTH codes listed in Source, same semantics (PTH206, os.sep splitting, is not " +
			"part of the check). Per-file agreement: 598/598 standard-library files, 4000/4000 " +
			"site-packages files (with noqa comments ignored).",
	},
	Oracle: nfi.Oracle{Ruff: []string{
		"PTH100", "PTH101", "PTH102", "PTH103", "PTH104", "PTH105", "PTH106", "PTH107", "PTH108", "PTH109",
		"PTH110", "PTH111", "PTH112", "PTH113", "PTH114", "PTH115", "PTH116", "PTH117", "PTH118", "PTH119",
		"PTH120", "PTH121", "PTH122", "PTH124", "PTH202", "PTH203", "PTH204", "PTH205", "PTH207", "PTH208", "PTH211",
	}, Exact: true},
	Options: map[string]nfi.OptionKind{"include-open": nfi.BoolOpt},
	Finish: func(p *nfi.Pass) {
		report(p, func(e *entry) bool { return e.condKind != "option" || p.BoolOption(e.condArg, false) })
	},
}
