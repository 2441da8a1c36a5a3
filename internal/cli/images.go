package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/docker/go-units"
	"github.com/spf13/cobra"

	"github.com/polynfi/polynfi/backend"
	"github.com/polynfi/polynfi/clones"
	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/internal/textesc"
	"github.com/polynfi/polynfi/runtime/docker"
)

func newImagesCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "images build|list|prune|audit",
		Short: "Prepare, list or remove the container images of a dataset's instances (docker)",
		Long: `images manages the images the docker runtime evaluates instances in, ahead of a
run (as SWE-bench's "images build" does): build resolves every instance of a
dataset as eval --runtime docker would (row image or --image-template, else a
build from the row's Dockerfile with the repository at base_commit, else the
task directory's Dockerfile; polybench_<language>_base images first) with a
progress bar and --build-workers builds at once, one log per image in
OUT/build_logs/; list shows the images polynfi built; prune removes them.
The engine is the one DOCKER_HOST names (the local socket by default).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	c.AddCommand(newImagesBuildCmd(e), newImagesListCmd(e), newImagesPruneCmd(e), newImagesAuditCmd(e))
	return c
}

func newImagesBuildCmd(e *env) *cobra.Command {
	var o containerOptions
	var ds, reposDir, out, format, push string
	var ids []string
	var rebuild bool
	c := &cobra.Command{
		Use:   "build --dataset FILE|DIR [--out DIR]",
		Short: "Resolve, pull or build the image of every instance of a dataset",
		Long: `build resolves the image of every instance of the dataset (see polynfi images).
With --push REGISTRY/PREFIX every image is then tagged
REGISTRY/PREFIX/<instance id in lower case>:latest and pushed through the
Docker Engine API, with the credentials of the Docker client configuration
(~/.docker/config.json or $DOCKER_CONFIG: auths, credHelpers, credsStore);
a run on a cluster then uses them with
  eval --runtime kubernetes --image-template REGISTRY/PREFIX/{id_lower}
Exit status: 0 when every instance has its image (pushed, with --push), 1
when some could not be pulled, built or pushed (each is named with its reason and build log), 2 for bad
flags, 3 for an unreadable dataset.`,
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
			if push != "" {
				if err := images.CheckPushPrefix(push); err != nil {
					return usagef("%v", err)
				}
			}
			insts, err := loadImageInstances(e, ds, ids)
			if err != nil {
				return err
			}
			if reposDir == "" {
				reposDir = filepath.Join(filepath.Dir(ds), "repos")
			}
			if out == "" {
				out = "."
			}
			for _, p := range []*string{&out, &reposDir} {
				if *p, err = filepath.Abs(*p); err != nil {
					return err
				}
			}
			scratch, err := os.MkdirTemp("", "polynfi-images-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(scratch)
			d, err := docker.NewDocker(e.ctx, docker.DockerOptions{})
			if err != nil {
				return err
			}
			defer d.Close()
			if cmd.Flags().Changed("cache-level") && o.cacheLevel != images.CacheInstance {
				fmt.Fprintf(e.stderr, "polynfi: warning: --cache-level %s does not apply to images build, which keeps every image it builds (give it to eval or run, which remove images after their run); building as --cache-level instance\n", o.cacheLevel)
			}
			o.cacheLevel = images.CacheInstance // build keeps what it builds
			bo := o.backend(out, e.stderr)
			bo.Repos, bo.ScratchDir = clones.New(reposDir, filepath.Join(scratch, "repos")), scratch
			b := newBar(e.stderr, len(insts), "images")
			start := time.Now()
			results, werr := backend.BuildImages(e.ctx, d, bo, insts, rebuild, push, b.set)
			b.finish()
			if werr != nil {
				return werr
			}
			failed := 0
			for _, r := range results {
				if r.Error != "" {
					failed++
				}
			}
			if format == "json" {
				data, err := json.MarshalIndent(results, "", "  ")
				if err != nil {
					return err
				}
				e.stdout.Write(append(data, '\n'))
			} else {
				tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
				if push == "" {
					fmt.Fprintln(tw, "INSTANCE\tIMAGE\tSOURCE\tHOW\tCACHED STEPS\tERROR")
				} else {
					fmt.Fprintln(tw, "INSTANCE\tIMAGE\tSOURCE\tHOW\tCACHED STEPS\tPUSHED\tERROR")
				}
				for _, r := range results {
					pushed := ""
					if r.Pushed != nil {
						pushed = r.Pushed.Name + "@" + r.Pushed.Digest
					}
					steps := "-"
					if r.Choice.BuildSteps > 0 {
						steps = fmt.Sprintf("%d/%d", r.Choice.CachedSteps, r.Choice.BuildSteps)
					}
					if push == "" {
						fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Choice.Image, r.Choice.Source, r.Choice.How, steps, r.Error)
					} else {
						fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Choice.Image, r.Choice.Source, r.Choice.How, steps, pushed, r.Error)
					}
				}
				tw.Flush()
				what := "without an image"
				if push != "" {
					what = "without an image or not pushed"
				}
				fmt.Fprintf(e.stdout, "%d instances, %d %s, in %s; build logs in %s\n", len(results), failed, what,
					time.Since(start).Round(time.Millisecond), filepath.Join(out, "build_logs"))
				if push != "" && failed < len(results) {
					fmt.Fprintf(e.stdout, "pushed to %s: run with --runtime kubernetes --image-template '%s'\n", push, images.PushTemplate(push))
				}
			}
			if failed > 0 {
				return exitError{1}
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&ds, "dataset", "", "dataset file (.csv, .json, .jsonl, .parquet) or SWE-bench 5.x task repository")
	f.StringVar(&reposDir, "repos-dir", "", "directory of local clones (default: <dataset dir>/repos)")
	outFlag(f, &out, "directory for build_logs/ (default: the current directory)")
	f.StringSliceVar(&ids, "instance-ids", nil, "only these instance ids")
	f.StringVar(&format, "format", "text", "output format: text or json")
	f.StringVar(&push, "push", "", "after building, push every image to REGISTRY/PREFIX/<instance id in lower case>:latest (Docker Engine API, credentials of ~/.docker/config.json), for eval --runtime kubernetes --image-template REGISTRY/PREFIX/{id_lower}")
	f.BoolVar(&rebuild, "rebuild", false, "build instance images even when present (the engine's layer cache still applies)")
	o.register(f, false)
	f.Lookup("cache-level").Usage = "not used by images build, which keeps every image it builds (eval's and run's flag: images kept after a run); a value other than instance is warned about"
	return c
}

func newImagesListCmd(e *env) *cobra.Command {
	var kind, format string
	c := &cobra.Command{
		Use:   "list [--kind base|instance]",
		Short: "List the images polynfi built",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFormat(format, "text", "json"); err != nil {
				return err
			}
			if kind != "" && kind != "base" && kind != "instance" {
				return usagef("--kind %q: want base or instance", kind)
			}
			d, err := docker.NewDocker(e.ctx, docker.DockerOptions{})
			if err != nil {
				return err
			}
			defer d.Close()
			list, err := images.List(e.ctx, d.Client(), kind)
			if err != nil {
				return err
			}
			if format == "json" {
				data, err := json.MarshalIndent(list, "", "  ")
				if err != nil {
					return err
				}
				_, err = e.stdout.Write(append(data, '\n'))
				return err
			}
			sort.SliceStable(list, func(i, j int) bool { return list[i].Kind < list[j].Kind })
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "IMAGE\tKIND\tID\tSIZE\tCREATED")
			var total int64
			for _, im := range list {
				total += im.Size
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", im.Name, im.Kind, im.ID, units.HumanSize(float64(im.Size)), im.Created.Format(time.RFC3339))
			}
			tw.Flush()
			_, err = fmt.Fprintf(e.stdout, "%d images, %s\n", len(list), units.HumanSize(float64(total)))
			return err
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only base or instance images")
	c.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return c
}

func newImagesPruneCmd(e *env) *cobra.Command {
	var kind string
	var dryRun bool
	c := &cobra.Command{
		Use:   "prune [--kind base|instance] [--dry-run]",
		Short: "Remove the images polynfi built (never others)",
		Long: `prune removes the images polynfi built (label io.polynfi.image), instance
images first, then bases; never any other image. --dry-run prints what it
would remove and removes nothing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if kind != "" && kind != "base" && kind != "instance" {
				return usagef("--kind %q: want base or instance", kind)
			}
			d, err := docker.NewDocker(e.ctx, docker.DockerOptions{})
			if err != nil {
				return err
			}
			defer d.Close()
			if dryRun {
				kinds := []string{"instance", "base"}
				if kind != "" {
					kinds = []string{kind}
				}
				n := 0
				for _, k := range kinds {
					list, err := images.List(e.ctx, d.Client(), k)
					if err != nil {
						return err
					}
					for _, im := range list {
						fmt.Fprintf(e.stdout, "would remove %s (%s, %s)\n", im.Name, im.Kind, im.ID)
						n++
					}
				}
				_, err := fmt.Fprintf(e.stdout, "%d images would be removed (dry run: nothing removed)\n", n)
				return err
			}
			removed, err := images.Prune(e.ctx, d.Client(), kind)
			for _, n := range removed {
				fmt.Fprintf(e.stdout, "removed %s\n", n)
			}
			fmt.Fprintf(e.stdout, "%d images removed\n", len(removed))
			return err
		},
	}
	c.Flags().StringVar(&kind, "kind", "", "only base or instance images")
	c.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be removed, remove nothing")
	return c
}

// loadImageInstances loads the dataset at ds for the images commands: the
// rows it could not read are named on stderr and skipped; with ids, only
// those instances.
func loadImageInstances(e *env, ds string, ids []string) ([]dataset.Instance, error) {
	loaded, err := dataset.Load(ds)
	if err != nil {
		return nil, fmt.Errorf("load dataset: %w", err)
	}
	for _, re := range loaded.Errors {
		fmt.Fprintf(e.stderr, "polynfi: skipping row: %s\n", textesc.Terminal(re.Error()))
	}
	if len(ids) == 0 {
		return loaded.Instances, nil
	}
	var insts []dataset.Instance
	for _, in := range loaded.Instances {
		if slices.Contains(ids, in.InstanceID) {
			insts = append(insts, in)
		}
	}
	return insts, nil
}
