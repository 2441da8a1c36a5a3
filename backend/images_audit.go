package backend

import (
	"context"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/harness"
	"github.com/polynfi/polynfi/images"
	"github.com/polynfi/polynfi/runtime/docker"
)

// AuditImages resolves the image of each instance of insts as an eval
// with the Docker runtime and options o does (NewResolver: o.Repos,
// o.ScratchDir and o.Images are used) and audits it with
// images.AuditImage, in the order of insts. An instance whose image
// cannot be resolved gets a result with Error "image: ..." and Clean
// false. The error is non-nil when the Docker engine cannot be reached
// or ctx is cancelled.
func AuditImages(ctx context.Context, o Options, insts []dataset.Instance) ([]images.ImageAudit, error) {
	d, err := docker.NewDocker(ctx, docker.DockerOptions{})
	if err != nil {
		return nil, err
	}
	defer d.Close()
	r := NewResolver(d, o)
	var results []images.ImageAudit
	for _, in := range insts {
		choice, err := r.Resolve(ctx, in)
		var a images.ImageAudit
		if err != nil {
			a = images.ImageAudit{InstanceID: in.InstanceID, Image: choice.Image, Error: "image: " + err.Error()}
		} else if a, err = images.AuditImage(ctx, d, choice.Image, harness.ContainerWorkdir(in), in); err != nil {
			return nil, err
		}
		results = append(results, a)
	}
	return results, nil
}
