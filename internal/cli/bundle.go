package cli

import (
	"github.com/polynfi/polynfi/report"
)

func writeBundle(runDir, out string, rep *report.Harness) error { return nil }
