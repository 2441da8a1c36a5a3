// Command polynfi judges code changes made by coding agents on correctness,
// localization and non-functional quality. See README.md.
package main

import (
	"os"

	"github.com/polynfi/polynfi/internal/cli"
)

func main() {
	ctx, stop := cli.InterruptContext(os.Stderr)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
