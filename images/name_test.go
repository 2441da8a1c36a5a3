package images

import (
	"testing"

	"github.com/polynfi/polynfi/dataset"
)

// The name of an image built from a repository changes with the content
// that goes in (the base commit's tree) and with the way contexts are
// made (contextRecipe), never only with the Dockerfile, repository and
// commit: an image built from other content is not reused.
func TestInstanceImageNameHashesContent(t *testing.T) {
	in := dataset.Instance{InstanceID: "acme__calc-1", Repo: "acme/calc", BaseCommit: "0123456789abcdef0123456789abcdef01234567", Dockerfile: "FROM x\n"}
	a, b := instanceImageName(in, "tree-a"), instanceImageName(in, "tree-b")
	if a == b {
		t.Errorf("two trees, one name %s", a)
	}
	if a != instanceImageName(in, "tree-a") {
		t.Error("the name is not stable")
	}
	in2 := in
	in2.InstanceID = "acme__calc-2"
	if instanceImageName(in2, "tree-a") != a {
		t.Error("two instances with the same inputs do not share their image")
	}
}
