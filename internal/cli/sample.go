package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/internal/regfile"
	"github.com/polynfi/polynfi/sample"
)

func newSampleCmd(e *env) *cobra.Command {
	var (
		input, out, strata, props, format, repoField string
		size                                         int
		seed                                         uint64
		noCoverage                                   bool
	)
	cmd := &cobra.Command{
		Use:   "sample --dataset FILE --size N --out FILE",
		Short: "Draw a reproducible stratified subset of a dataset (like PB500)",
		Long: `Draw a stratified subset of any JSONL, JSON-list or CSV records (instances,
candidates, tasks), written in the input's format in input order.

Strata are the combinations of the --strata fields' values; their target
shares come from --proportions (a JSON object, inline or in a file, keyed by
the values joined with "|", e.g. {"Python|Bug Fix": 0.3}; normalised) or are
proportional to the population. Every repository (the --repo-field field) is
represented at least once. Seats are apportioned by the largest-remainder
method, records ranked by SHA-256 of the seed and the record: the same input
and seed always give the same subset.

The report of target vs achieved per stratum goes to stderr, or to stdout as
JSON with --format json.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if input == "" || out == "" || size <= 0 {
				return usagef("--dataset, --out and a positive --size are required")
			}
			o := sample.Options{Size: size, Seed: seed, RepoField: repoField}
			if noCoverage {
				o.RepoField = ""
			}
			for _, f := range strings.Split(strata, ",") {
				if f = strings.TrimSpace(f); f != "" {
					o.Strata = append(o.Strata, f)
				}
			}
			if props != "" {
				data := []byte(props)
				src := "--proportions"
				if !strings.HasPrefix(strings.TrimSpace(props), "{") {
					var err error
					if data, err = regfile.ReadFile(props); err != nil {
						return usagef("--proportions: %v", err)
					}
					src = props
				}
				if err := json.Unmarshal(data, &o.Proportions); err != nil {
					return usagef("%s: want a JSON object of stratum → share: %v", src, err)
				}
			}
			t, err := sample.Read(input)
			if err != nil {
				return err
			}
			res, err := sample.Sample(t, o)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := t.Write(&buf, res.Selected); err != nil {
				return err
			}
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
				return err
			}
			if format == "json" {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					*sample.Result
					Strata []string `json:"strata_fields"`
					Out    string   `json:"out"`
				}{res, o.Strata, out})
			}
			tw := tabwriter.NewWriter(e.stderr, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "stratum\tpopulation\ttarget share\ttarget\tachieved\tachieved share\t\n")
			for _, s := range res.Strata {
				key := s.Key
				if key == "" {
					key = "(all)"
				}
				fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.2f\t%d\t%.3f\t\n", key, s.Population, s.TargetShare, s.Target, s.Achieved, s.AchievedShare)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if o.RepoField != "" {
				fmt.Fprintf(e.stderr, "repositories covered: %d of %d\n", res.ReposCovered, res.Repos)
			}
			fmt.Fprintf(e.stderr, "sampled %d of %d records (seed %d) into %s\n", res.Size, res.Population, res.Seed, out)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&input, "dataset", "", "records to sample: .jsonl, .json (list) or .csv")
	fl.IntVar(&size, "size", 0, "records to draw")
	fl.StringVar(&strata, "strata", "", "comma-separated fields whose values define the strata")
	fl.StringVar(&props, "proportions", "", "target shares per stratum: a JSON object or a file holding one")
	fl.Uint64Var(&seed, "seed", 0, "random seed")
	fl.StringVar(&repoField, "repo-field", "repo", "field naming the repository (each one is represented)")
	fl.BoolVar(&noCoverage, "no-repo-coverage", false, "do not require every repository")
	outFlag(fl, &out, "file to write the subset to (same format as the input)")
	fl.StringVar(&format, "format", "text", "report format: text (stderr), json (stdout)")
	return cmd
}
