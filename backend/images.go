package backend

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime"
	"github.com/polynfi/polynfi/runtime/docker"
	"golang.org/x/sync/errgroup"
)

// ImageResult is the outcome of one instance of BuildImages: the image
// chosen, where it was pushed, or why there is none (the error and its
// infra_failure reason).
type ImageResult struct {
	ID     string         `json:"instance_id"`
	Choice images.Choice  `json:"image"`
	Pushed *images.Pushed `json:"pushed,omitempty"`
	Error  string         `json:"error,omitempty"`
	Reason string         `json:"infra_failure_reason,omitempty"`
}

// BuildImages resolves (pulls or builds; with rebuild, builds even when
// present) the image of every instance with the resolver of o (NewResolver,
// o.Images.BuildWorkers at once), and with push (REGISTRY/PREFIX) pushes
// each, its log in o.Out/build_logs. progress is called with the
// instances done. The results are in insts' order; err is ctx's.
func BuildImages(ctx context.Context, d *docker.Docker, o Options, insts []dataset.Instance, rebuild bool, push string, progress func(done int)) ([]ImageResult, error) {
	r := NewResolver(d, o)
	r.SetRebuild(rebuild)
	results := make([]ImageResult, len(insts))
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(o.Images.BuildWorkers)
	for i, in := range insts {
		g.Go(func() error {
			c, err := r.Resolve(gctx, in)
			res := ImageResult{ID: in.InstanceID, Choice: c}
			if err != nil {
				res.Error, res.Reason = err.Error(), runtime.InfraReason(err)
			} else if push != "" {
				p, err := pushImage(gctx, d, c.Image, push, in, filepath.Join(o.Out, "build_logs"))
				if err != nil {
					res.Error = err.Error()
				} else {
					res.Pushed = &p
				}
			}
			mu.Lock()
			results[i] = res
			done++
			progress(done)
			mu.Unlock()
			return gctx.Err()
		})
	}
	return results, g.Wait()
}

// pushImage pushes an instance's image under prefix (images.Push), the
// engine's progress in logDir/push_<pushed name with / and : as _>.log.
func pushImage(ctx context.Context, d *docker.Docker, local, prefix string, in dataset.Instance, logDir string) (images.Pushed, error) {
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return images.Pushed{}, err
	}
	name := strings.NewReplacer("/", "_", ":", "_").Replace(images.Expand(images.PushTemplate(prefix), in))
	f, err := os.Create(filepath.Join(logDir, "push_"+name+".log"))
	if err != nil {
		return images.Pushed{}, err
	}
	defer f.Close()
	p, err := images.Push(ctx, d.Client(), local, prefix, in, f)
	if err != nil {
		return p, fmt.Errorf("%w (log %s)", err, f.Name())
	}
	return p, nil
}
