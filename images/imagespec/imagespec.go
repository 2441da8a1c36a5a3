// Package imagespec holds the record of the image an instance ran in
// (Choice) and how it was obtained: the types a run's records carry,
// apart from the Docker client that resolves images (package images), so
// that what reads records (harness, report) does not compile it.
package imagespec

// Sources of an instance's image, in the order Resolve tries them.
const (
	SourceRow      = "row"        // the row's own image name (SWE-bench `image`)
	SourceTemplate = "template"   // --image-template expanded with the instance id
	SourceBuild    = "dockerfile" // built from the row's Dockerfile, the repository at base_commit as context
	SourceTask     = "task"       // built from a task directory's Dockerfile, the directory as context
)

// Choice is the image an instance ran in and how it was obtained, as the
// instance's record carries it.
type Choice struct {
	Image    string   `json:"image"`
	Source   string   `json:"source"`              // one of the Source constants
	How      string   `json:"how,omitempty"`       // "local", "pulled", "built", "cached" (built earlier)
	BuildLog string   `json:"build_log,omitempty"` // OUT/build_logs/<image>.log when built
	Bases    []string `json:"bases,omitempty"`     // base images built or found for it (polybench_<language>_base)
	Attempts int      `json:"attempts,omitempty"`  // pulls or builds tried
	// BuildSteps and CachedSteps count the Dockerfile's steps in the last
	// build and those the engine took from its layer cache (a rebuild of
	// an unchanged image takes all but FROM from it).
	BuildSteps  int      `json:"build_steps,omitempty"`
	CachedSteps int      `json:"cached_steps,omitempty"`
	Notes       []string `json:"notes,omitempty"`
}
