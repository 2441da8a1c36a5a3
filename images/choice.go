package images

import "github.com/polynfi/polynfi/images/imagespec"

// Sources of an instance's image, in the order Resolve tries them (see
// imagespec).
const (
	SourceRow      = imagespec.SourceRow
	SourceTemplate = imagespec.SourceTemplate
	SourceBuild    = imagespec.SourceBuild
	SourceTask     = imagespec.SourceTask
)

// Choice is the image an instance ran in and how it was obtained
// (imagespec.Choice).
type Choice = imagespec.Choice
