package cli

import (
	"runtime/debug"
	"strings"

	"github.com/polynfi/polynfi/nfi/driver"
)

// version is polynfi's release version, set at link time with
// -ldflags "-X github.com/polynfi/polynfi/internal/cli.version=v1.2.3";
// when empty, the module version and VCS revision recorded by the Go
// toolchain are used (see polynfiVersion).
var version = ""

// polynfiVersion returns the version printed by `polynfi --version` and
// recorded in every report: the link-time version, else the main module's
// version ("(devel)" for a local build) with the VCS revision (12 hex
// digits, "+dirty" when the tree had changes) when the build recorded one.
func polynfiVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && !strings.Contains(v, rev[:min(12, len(rev))]) {
		v += " " + rev[:min(12, len(rev))]
		if dirty {
			v += "+dirty"
		}
	}
	return v
}

// The reports the driver writes record this build's version.
func init() { driver.Version = polynfiVersion }
