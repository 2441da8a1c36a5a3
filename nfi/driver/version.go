package driver

import "strings"

// Version returns the polynfi version that reports record (polynfi_version,
// the provenance line, SARIF's tool.driver.version and semanticVersion),
// e.g. "v1.2.3" or "(devel) 0123456789ab+dirty". The command layer sets it
// at start-up from its build information; tests of this package see "(devel)".
var Version = func() string { return "(devel)" }

// semver returns the version's first word when it looks like a semantic
// version ("v1.2.3" → "1.2.3"), "" otherwise (SARIF's semanticVersion).
func semver() string {
	v := strings.Fields(Version())
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
	v := Version()
	if len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		return v[1:]
	}
	return v
}
