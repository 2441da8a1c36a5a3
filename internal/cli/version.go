package cli

import (
	"runtime/debug"
	"strings"
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

// semver returns the version's first word when it looks like a semantic
// version ("v1.2.3" → "1.2.3"), "" otherwise (SARIF's semanticVersion).
func semver() string {
	v := strings.Fields(polynfiVersion())
	if len(v) == 0 || !strings.HasPrefix(v[0], "v") {
		return ""
	}
	return strings.TrimPrefix(v[0], "v")
}

// sarifVersion is the version in SARIF's tool.driver.version: the version
// without a leading "v" before a digit ("v1.2.3" → "1.2.3"), since SARIF
// asks for a version that starts with a number (the SARIF Multitool's
// SARIF2005 check); other versions ("(devel)") unchanged.
func sarifVersion() string {
	v := polynfiVersion()
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		return v[1:]
	}
	return v
}
