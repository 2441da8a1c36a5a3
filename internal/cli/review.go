package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/mine"
	"github.com/polynfi/polynfi/review"
)

func newReviewCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "review",
		Short: "Export mined candidates for two reviewers and measure their agreement (Cohen's κ)",
	}
	cmd.AddCommand(newReviewExportCmd(e), newReviewKappaCmd(e))
	return cmd
}

func newReviewExportCmd(e *env) *cobra.Command {
	var (
		candidates, out, reviewers string
		excerpt                    int
	)
	cmd := &cobra.Command{
		Use:   "export --candidates FILE --out DIR",
		Short: "Write review sheets (CSV and JSONL) with empty label columns",
		Long: `Write one CSV and one JSONL sheet per reviewer (review_<name>.csv/.jsonl in
DIR): id, repo, commit, PR number, file, subject, I_p per aspect in percentage
points, flipped rules (+ now passes, - now fails), matched keywords, a
unified-diff excerpt, and the empty columns label (accept or reject), aspect
(DOC, ERR, LIB, STY or LOG) and note for the reviewer to fill in.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if candidates == "" || out == "" {
				return usagef("--candidates and --out are required")
			}
			names := strings.Split(reviewers, ",")
			for _, n := range names {
				if n == "" || strings.ContainsAny(n, `/\ `) {
					return usagef("--reviewers: %q is not a usable name", n)
				}
			}
			cands, err := mine.ReadCandidates(candidates)
			if err != nil {
				return err
			}
			items := make([]review.Item, len(cands))
			for i, c := range cands {
				items[i] = review.NewItem(c, excerpt)
			}
			paths, err := review.Export(out, names, items)
			if err != nil {
				return err
			}
			for _, p := range paths {
				fmt.Fprintln(e.stdout, p)
			}
			fmt.Fprintf(e.stderr, "exported %d candidates for %d reviewers\n", len(items), len(names))
			return nil
		},
	}
	cmd.Flags().StringVar(&candidates, "candidates", "", "candidates JSONL written by polynfi mine")
	outFlag(cmd.Flags(), &out, "directory for the review sheets")
	cmd.Flags().StringVar(&reviewers, "reviewers", "A,B", "comma-separated reviewer names")
	cmd.Flags().IntVar(&excerpt, "excerpt-lines", 60, "most diff lines per excerpt (0: whole diff)")
	return cmd
}

func newReviewKappaCmd(e *env) *cobra.Command {
	var format, field string
	cmd := &cobra.Command{
		Use:   "kappa A B",
		Short: "Cohen's κ and the confusion table of two labelled review sheets",
		Long: `Read two labelled review sheets (CSV or JSONL), match their rows by id and
compute Cohen's κ = (p_o − p_e)/(1 − p_e) on the accept/reject labels (or, with
--on aspect, on the aspect of the items both reviewers gave one) with the
confusion table. Every id must be labelled in both sheets; an unknown label
is an error naming the file, line and field.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if field != "label" && field != "aspect" {
				return usagef("--on %q: want label or aspect", field)
			}
			a, err := review.ReadLabels(args[0])
			if err != nil {
				return err
			}
			b, err := review.ReadLabels(args[1])
			if err != nil {
				return err
			}
			ag, err := review.Kappa(a, b, field, args[0], args[1])
			if err != nil {
				return err
			}
			if format == "json" {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(ag)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintf(tw, "items\t%d\n", ag.N)
			if ag.Skipped > 0 {
				fmt.Fprintf(tw, "skipped (no %s)\t%d\n", field, ag.Skipped)
			}
			fmt.Fprintf(tw, "A \\ B")
			for _, c := range ag.Categories {
				fmt.Fprintf(tw, "\t%s", c)
			}
			fmt.Fprintln(tw)
			for i, c := range ag.Categories {
				fmt.Fprintf(tw, "%s", c)
				for _, v := range ag.Table[i] {
					fmt.Fprintf(tw, "\t%d", v)
				}
				fmt.Fprintln(tw)
			}
			fmt.Fprintf(tw, "observed agreement p_o\t%.4f\n", ag.Observed)
			fmt.Fprintf(tw, "chance agreement p_e\t%.4f\n", ag.Expected)
			if ag.Defined {
				fmt.Fprintf(tw, "Cohen's kappa\t%.4f\n", ag.Kappa)
			} else {
				fmt.Fprintf(tw, "Cohen's kappa\tundefined (p_e = 1 or no items)\n")
			}
			if ag.Accepted != nil {
				fmt.Fprintf(tw, "accepted\tA %d, B %d, both %d\n", ag.Accepted.A, ag.Accepted.B, ag.Accepted.Both)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json")
	cmd.Flags().StringVar(&field, "on", "label", "field compared: label or aspect")
	return cmd
}
