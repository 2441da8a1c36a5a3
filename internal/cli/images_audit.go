package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/clones"

	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/textesc"
)

func newImagesAuditCmd(e *env) *cobra.Command {
	var o containerOptions
	var ds, reposDir, format string
	var ids []string
	c := &cobra.Command{
		Use:   "audit --dataset FILE|DIR",
		Short: "Check each instance's image for git history beyond the base commit and for the gold or test patch's content",
		Long: `audit resolves the image of every instance as eval --runtime docker does and
starts it without network: it counts the commits of every ref and of the
reflog that the base commit does not reach (a later fix an agent could read
with git log --all), lists the refs, and searches the repository's files (and
/tmp, /root, /home, /opt, /srv, /var/tmp) for the longest added lines of the
gold patch and the test patch that the base commit does not hold.
Exit status: 0 when every image is clean, 1 when some are not (or could not
be audited), 2 for bad flags, 3 for an unreadable dataset.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if ds == "" {
				return usagef("--dataset is required")
			}
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if err := o.validate(); err != nil {
				return err
			}
			insts, err := loadImageInstances(e, ds, ids)
			if err != nil {
				return err
			}
			if reposDir == "" {
				reposDir = filepath.Join(filepath.Dir(ds), "repos")
			}
			scratch, err := os.MkdirTemp("", "polynfi-images-audit-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(scratch)
			o.cacheLevel = images.CacheInstance
			bo := o.backend(scratch, e.stderr)
			bo.Repos, bo.ScratchDir = clones.New(reposDir, filepath.Join(scratch, "repos")), scratch
			results, err := backend.AuditImages(e.ctx, bo, insts)
			if err != nil {
				return err
			}
			bad := 0
			for _, a := range results {
				if !a.Clean {
					bad++
				}
			}
			if format == "json" {
				b, err := json.MarshalIndent(results, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "%s\n", b)
			} else {
				for _, a := range results {
					fmt.Fprintf(e.stdout, "%s %s: %s\n", textesc.Terminal(a.InstanceID), textesc.Terminal(a.Image), textesc.Terminal(a.Verdict()))
				}
				fmt.Fprintf(e.stdout, "%d image(s), %d not clean\n", len(results), bad)
			}
			if bad > 0 {
				return exitError{1}
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&ds, "dataset", "", "dataset file (.csv, .json, .jsonl, .parquet) or SWE-bench 5.x task repository")
	f.StringVar(&reposDir, "repos-dir", "", "directory of local clones (default: <dataset dir>/repos)")
	f.StringSliceVar(&ids, "instance-ids", nil, "only these instance ids")
	f.StringVar(&format, "format", "text", "output format: text or json")
	o.register(f, false)
	return c
}
