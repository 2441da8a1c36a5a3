// Command testreport reads `go test -json` output.
//
//	testreport summary < test.json        one line per package, failed tests' output; exit 1 on a failure
//	testreport slowest [-n 20] FILE...    the n slowest tests of the saved streams
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/polynfi/polynfi/internal/testreport"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testreport summary < test.json | testreport slowest [-n 20] FILE...")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "summary":
		s, err := testreport.Summarize(os.Stdin, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(3)
		}
		if s.Failed {
			os.Exit(1)
		}
	case "slowest":
		fs := flag.NewFlagSet("slowest", flag.ExitOnError)
		n := fs.Int("n", 20, "how many tests to list")
		_ = fs.Parse(os.Args[2:])
		if fs.NArg() == 0 {
			fmt.Fprintln(os.Stderr, "testreport slowest: no file (make test writes out/test.json)")
			os.Exit(2)
		}
		var all testreport.Summary
		for _, name := range fs.Args() {
			f, err := os.Open(name)
			if err != nil {
				fmt.Fprintln(os.Stderr, "testreport:", err)
				os.Exit(3)
			}
			s, err := testreport.Summarize(f, io.Discard)
			f.Close()
			if err != nil {
				fmt.Fprintf(os.Stderr, "testreport: %s: %v\n", name, err)
				os.Exit(3)
			}
			all.Tests = append(all.Tests, s.Tests...)
		}
		for i, t := range testreport.Slowest(all, *n) {
			fmt.Printf("%2d  %8.1fs  %-4s  %s  %s\n", i+1, t.Elapsed, t.Action, t.Package, t.Test)
		}
	default:
		fmt.Fprintf(os.Stderr, "testreport: unknown command %q (summary, slowest)\n", os.Args[1])
		os.Exit(2)
	}
}
