package cli

import (
	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/nfi/driver"
)

// gateFlags are --fail-on, --fail-under and --allow-new-suppressions of
// score and diff; driver.GateOptions.Gates parses them.
type gateFlags struct {
	driver.GateOptions
}

func (g *gateFlags) register(c *cobra.Command) {
	c.Flags().StringSliceVar(&g.FailOn, "fail-on", nil,
		"exit 1 when: regression (some aspect's I_p < 0, or some file's own S_p falls), regression:ASPECT, new-findings, invalid (added to the config's [gate] fail-on)")
	c.Flags().BoolVar(&g.AllowNew, "allow-new-suppressions", false,
		"comparisons: honour the # noqa / # polynfi: noqa comments the change adds (by default the findings they silence count for the regression and new-findings gates)")
	c.Flags().StringSliceVar(&g.FailUnder, "fail-under", nil, "exit 1 when S_p of the (after) version is below a value: ASPECT=VALUE, VALUE in [0, 1], e.g. DOC=0.8")
}
