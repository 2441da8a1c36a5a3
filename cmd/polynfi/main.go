// Command polynfi judges code changes made by coding agents on correctness,
// localization and non-functional quality. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/polynfi/polynfi/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
