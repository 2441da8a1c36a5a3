package driver

import (
	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/catalog"
)

// EvalEngine is the NFI engine of an evaluation (eval --nfi, and the
// SWE-NFI suite): the rule catalog named (catalog.Get; an unknown name is
// a usage error), the settings file when one is given (nfi.LoadSettings),
// and pythonMinor as the Python 3 minor version files are parsed as (0:
// the newest).
func EvalEngine(catalogName, config string, pythonMinor int) (*nfi.Engine, error) {
	cat, err := catalog.Get(catalogName)
	if err != nil {
		return nil, usageError{err}
	}
	var settings nfi.Settings
	if config != "" {
		if settings, err = nfi.LoadSettings(config); err != nil {
			return nil, err
		}
	}
	eng, err := nfi.NewEngine(cat, settings)
	if err != nil {
		return nil, err
	}
	eng.PythonMinor = pythonMinor
	return eng, nil
}
