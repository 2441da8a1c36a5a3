package harness

import (
	"path"
	"strings"
)

// dockerWorkdir returns the working directory a Dockerfile leaves (its last
// WORKDIR, relative ones joined to the one before), "" when it sets none.
// Environment references are not expanded.
func dockerWorkdir(dockerfile string) string {
	wd := ""
	for _, line := range strings.Split(dockerfile, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || !strings.EqualFold(f[0], "WORKDIR") {
			continue
		}
		d := strings.Trim(strings.Join(f[1:], " "), `"`)
		if !path.IsAbs(d) {
			d = path.Join("/", wd, d)
		}
		wd = path.Clean(d)
	}
	return wd
}
