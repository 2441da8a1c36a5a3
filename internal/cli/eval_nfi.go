package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/polynfi/polynfi/nfi"
	"github.com/polynfi/polynfi/nfi/driver"
	"github.com/polynfi/polynfi/nfirecord"
	"github.com/polynfi/polynfi/nfisuite"
	"github.com/polynfi/polynfi/report"
)

// nfiEvalOptions are the eval flags that apply to an SWE-NFI task dataset.
type nfiEvalOptions struct {
	dataset     string
	predictions []string // files, or the single word "gold"
	out         string
	workers     int
	redo        bool
	instanceIDs []string
	timeout     time.Duration
	format      string
	catalog     string
	config      string
	// reposDir holds the base repositories of tasks whose environment names
	// one; "" means <dataset dir>/repos when that exists.
	reposDir string
	// noIsolation runs the tasks' tests without bubblewrap.
	noIsolation bool
	// pythonMinor is --python-version's minor version (0: the newest).
	pythonMinor int
	// toolchains are --toolchain's directories, readable by the tests.
	toolchains []string
}

// runNFIEval evaluates predictions on SWE-NFI tasks (nfisuite.Eval),
// writes report.json/.md/.html into out, and prints the tables on stdout.
func runNFIEval(e *env, o nfiEvalOptions) error {
	bar := newBar(e.stderr, 0, "evaluating")
	res, err := nfisuite.Eval(e.ctx, nfisuite.EvalOptions{Dataset: o.dataset, Predictions: o.predictions, Out: o.out, Workers: o.workers,
		Redo: o.redo, InstanceIDs: o.instanceIDs, Timeout: o.timeout, ReposDir: o.reposDir, NoIsolation: o.noIsolation, Toolchains: o.toolchains,
		Engine:  func() (*nfi.Engine, error) { return driver.EvalEngine(o.catalog, o.config, o.pythonMinor) },
		Version: polynfiVersion(), Log: e.stderr, Progress: func(done, total int) { bar.setTotal(total); bar.set(done) }, RunDone: bar.finish})
	if err != nil {
		if e.ctx.Err() != nil && res != nil && res.RunResult != nil {
			fmt.Fprintf(e.stderr, "polynfi: interrupted after %s: %d records written, %d up to date\n",
				time.Since(res.Start).Round(time.Second), res.Evaluated, res.Reused)
		}
		return err
	}
	// The report is rendered from the stored records, as `polynfi report` does.
	records, bad, err := nfirecord.ReadRecords(o.out)
	if err != nil {
		return err
	}
	rep := report.BuildNFISuite(o.out, records, res.Catalog, polynfiVersion())
	rep.UnreadableRecords = bad
	if err := report.WriteNFISuiteFiles(o.out, rep); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "polynfi: %s (%d evaluated, %d up to date, %d missing predictions) in %s; report: %s\n",
		plural(len(records), "run"), res.Evaluated, res.Reused, res.Missing, time.Since(res.Start).Round(time.Millisecond), strings.TrimSuffix(o.out, "/")+"/report.json")
	format := o.format
	if format == "" {
		format = "text"
	}
	return report.RenderNFISuite(e.stdout, rep, format, false)
}
