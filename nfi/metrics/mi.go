package metrics

import (
	"math"

	"github.com/polynfi/polynfi/syntax"
)

// MaintainabilityIndex computes radon's maintainability index, in [0, 100]:
//
//	MI = max(0, min(100, (171 − 5.2·ln V − 0.23·G − 16.2·ln L + 50·sin(√(2.46·rad(C)))) · 100/171))
//
// where V is the Halstead volume, G the total cyclomatic complexity, L the
// logical lines (LLOC) and C the comment percentage (0-100). MI is 100 when
// V ≤ 0 or L ≤ 0.
//
// Source: radon 6.0.1 radon/metrics.py mi_compute; Oman & Hagemeister,
// "Metrics for assessing a software system's maintainability" (1992), in the
// Visual Studio normalization to 0-100.
func MaintainabilityIndex(volume float64, complexity int, lloc int, commentPercent float64) float64 {
	if volume <= 0 || lloc <= 0 {
		return 100
	}
	nn := 171 - 5.2*math.Log(volume) - 0.23*float64(complexity) - 16.2*math.Log(float64(lloc)) +
		50*math.Sin(math.Sqrt(2.46*commentPercent*math.Pi/180))
	return min(max(0, nn*100/171), 100)
}

// MIRank maps a maintainability index to radon's rank: A above 19, B above
// 9 up to 19, C at 9 or below.
//
// Source: radon 6.0.1 radon/metrics.py mi_rank.
func MIRank(mi float64) string {
	switch {
	case mi > 19:
		return "A"
	case mi > 9:
		return "B"
	}
	return "C"
}

// CommentPercent returns radon mi's comment percentage: comment lines (plus
// multi-line string lines when countMulti, radon mi's default) per SLOC, times
// 100; 0 when SLOC is 0.
//
// Source: radon 6.0.1 radon/metrics.py mi_parameters.
func CommentPercent(r Raw, countMulti bool) float64 {
	if r.SLOC == 0 {
		return 0
	}
	c := r.Comments
	if countMulti {
		c += r.Multi
	}
	return float64(c) / float64(r.SLOC) * 100
}

// File gathers every measure of one Python module.
type File struct {
	Raw        Raw
	Complexity Complexity
	Halstead   Halstead
	// MI is the maintainability index with multi-line strings counted as
	// comments (`radon mi` defaults).
	MI float64
}

// MIRank returns the rank of the file's maintainability index.
func (f *File) MIRank() string { return MIRank(f.MI) }

// Analyze computes all measures of a parsed module. The error comes from
// RawMetrics (source Python cannot tokenize); the other measures are still
// filled in, and MI is then computed from the partial raw counts.
func Analyze(t *syntax.Tree) (File, error) {
	var f File
	var err error
	f.Raw, err = RawMetrics(t.Source)
	f.Complexity = CyclomaticComplexity(t)
	f.Halstead = HalsteadMetrics(t)
	f.MI = MaintainabilityIndex(f.Halstead.Total.Volume, f.Complexity.Total(), f.Raw.LLOC, CommentPercent(f.Raw, true))
	return f, err
}
