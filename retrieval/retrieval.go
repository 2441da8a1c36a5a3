// Package retrieval computes localization metrics: whether a predicted patch
// touches the files and the syntax-tree nodes (classes, functions, methods)
// that the reference patch touches, as precision, recall and F1 per instance,
// and their means by language, task category and complexity class.
//
// Two modes: Compatible reproduces SWE-PolyBench's numbers on the same
// inputs, quirks included (each quirk is listed where it applies);
// Extended fixes the quirks and counts more node types. Base-file contents
// come from a Source, so nothing here needs a work tree; post-patch files are
// computed in memory with diff.Apply. Every file is parsed at most once per
// version.
//
// Languages: SWE-PolyBench's four (Python, Java, JavaScript, TypeScript)
// with its node types; and Go, Rust, C, C++, PHP and Ruby, which
// SWE-PolyBench does not read, with the equivalents of its choice
// (functions, methods, classes or what stands for them: Go struct and
// interface types, Rust impl blocks and traits, C structs, C++ classes and
// namespaces, PHP traits, Ruby modules), read alike in both modes; langs.go
// lists them.
//
// The package owns no I/O beyond GitSource and never prints.
//
// Source: SWE-PolyBench (arXiv 2504.08703), amazon-science/SWE-PolyBench
// src/poly_bench_evaluation/metrics/ (patch_metrics.py, patch_utils.py,
// node_utils.py, metric_scoring.py) and scoring.py; polynfi spec
// evaluation.md §4.
package retrieval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/diff"
	"github.com/polynfi/polynfi/syntax"
)

// Mode selects the file keys and node sets.
type Mode int

const (
	// Compatible keys files by their old path (added files are all
	// "/dev/null") and counts SWE-PolyBench's node types with its quirks.
	//
	// Deliberate differences from SWE-PolyBench's runs: node metrics are
	// computed for every instance (SWE-PolyBench computes them only with
	// --node-metrics and otherwise records null); and an empty prediction
	// always scores 0 for nodes, kept in node means, as SWE-PolyBench's full
	// evaluation records it, whereas its --metrics-only pass gives null
	// (left out) when the reference change has no node.
	Compatible Mode = iota
	// Extended keys added files by their new path, gives added, deleted and
	// renamed files their nodes, and counts more node types (spec §4.2).
	Extended
)

// String returns "compatible" or "extended".
func (m Mode) String() string {
	if m == Extended {
		return "extended"
	}
	return "compatible"
}

// ParseMode reads "compatible" or "extended".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "compatible", "":
		return Compatible, nil
	case "extended":
		return Extended, nil
	}
	return 0, fmt.Errorf("unknown retrieval mode %q (want compatible or extended)", s)
}

// Scores are precision, recall and F1 of a predicted set against a
// reference set, each in [0, 1].
type Scores struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
}

// Score compares a predicted key set with a reference key set: recall =
// |R∩P|/|R| (0 when R is empty), precision = |R∩P|/|P| (0 when P is empty),
// F1 = 2|R∩P|/(|R|+|P|) (0 when both are empty). Duplicates count once.
//
// Source: SWE-PolyBench patch_metrics.py (sklearn precision_score,
// recall_score, f1_score over the union with zero_division=0 behaviour).
func Score(reference, predicted []string) Scores {
	ref := toSet(reference)
	pred := toSet(predicted)
	tp := 0
	for k := range pred {
		if ref[k] {
			tp++
		}
	}
	var s Scores
	if len(ref) > 0 {
		s.Recall = float64(tp) / float64(len(ref))
	}
	if len(pred) > 0 {
		s.Precision = float64(tp) / float64(len(pred))
	}
	if len(ref)+len(pred) > 0 {
		s.F1 = 2 * float64(tp) / float64(len(ref)+len(pred))
	}
	return s
}

func toSet(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FileKeys lists the distinct file keys of a patch in mode, sorted. It reads
// only file headers (diff.ScanPaths), so a patch with miscounted hunks still
// has its files; a blank patch has none.
//
// Source: SWE-PolyBench patch_utils.py Patch._get_files.
func FileKeys(patch string, mode Mode) []string {
	set := map[string]bool{}
	for _, p := range diff.ScanPaths(patch) {
		k := p.CompatKey()
		if mode == Extended {
			k = p.ExtendedKey()
		}
		set[k] = true
	}
	return sortedKeys(set)
}

// NodeStatus says why an instance has or lacks node-level scores.
type NodeStatus string

// The node statuses. Only NodeOK and NodeFailedPrediction carry scores; the
// other two leave the instance out of node means.
const (
	// NodeOK: both node sets were computed.
	NodeOK NodeStatus = "ok"
	// NodeNoReference: the reference change has no counted node (module-level
	// or non-code changes). SWE-PolyBench: None, dropped from node means.
	NodeNoReference NodeStatus = "no_reference_nodes"
	// NodeFailedReference: the reference patch did not parse or apply.
	// SWE-PolyBench: -1, dropped from node means.
	NodeFailedReference NodeStatus = "reference_failed"
	// NodeFailedPrediction: the predicted patch was empty, did not parse, did
	// not apply, or touched a node the tool cannot name; scores are 0 and the
	// instance stays in node means.
	NodeFailedPrediction NodeStatus = "prediction_failed"
	// NodeSkipped: node metrics were not requested.
	NodeSkipped NodeStatus = "skipped"
)

// InstanceMetrics is the localization result of one instance, recorded in
// the instance's result record.
type InstanceMetrics struct {
	InstanceID   string `json:"instance_id"`
	Language     string `json:"language,omitempty"`
	TaskCategory string `json:"task_category,omitempty"`
	Mode         string `json:"mode"`

	File           Scores   `json:"file_retrieval_metrics"`
	ReferenceFiles []string `json:"reference_files"`
	PredictedFiles []string `json:"predicted_files"`

	// Node is nil when the instance is excluded from node means (see
	// NodeStatus).
	Node       *Scores    `json:"node_retrieval_metrics"`
	NodeStatus NodeStatus `json:"node_status"`
	NodeError  string     `json:"node_error,omitempty"`
	// NodeSource is "applied" when the predicted nodes were located in
	// the change the prediction made to the tree as the harness applied
	// it (Input.Applied: its hunks matched the base files only with GNU
	// patch's fuzz), "" when they come from the prediction's own hunks.
	NodeSource     string   `json:"node_source,omitempty"`
	ReferenceNodes []string `json:"reference_nodes"`
	PredictedNodes []string `json:"predicted_nodes"`

	// Complexity is the class of the reference change; "" when the
	// reference nodes could not be computed.
	Complexity Complexity `json:"complexity_class,omitempty"`
}

// Input is one instance to score.
type Input struct {
	InstanceID   string
	Language     string // dataset language, carried into the result for breakdowns
	TaskCategory string // dataset task_category, carried likewise
	// Reference is the gold patch; Prediction the model patch.
	Reference, Prediction string
	// ReferenceNodes is the dataset's modified_nodes. nil means absent (the
	// nodes are then computed from Reference); a non-nil empty slice means
	// the dataset lists no nodes. Used in Compatible mode only: Extended
	// always computes reference nodes from Reference with its own rules.
	ReferenceNodes []string
	// Applied is, for a prediction the harness applied only with GNU
	// patch's fuzz (its hunks do not match the base files as written),
	// the diff it made to the tree (git diff of the work tree against
	// base + test patch); "" otherwise. When set, the predicted nodes are
	// located from it: the lines the patch actually changed, in the files
	// as they were actually patched. File keys always come from
	// Prediction. One definition in every mode: an applied patch's
	// nodes are those of the change it made (polynfi evaluation spec
	// §2.2 cascade, §4.2).
	Applied string
}

// Options tune Evaluate.
type Options struct {
	Mode Mode
	// Nodes turns on node-level metrics (and complexity classes computed
	// from the gold patch); they need a Source.
	Nodes bool
	// Unapplied marks a prediction that did not apply in the work tree:
	// SWE-PolyBench records zero file and node scores for it, as for an
	// empty prediction.
	Unapplied bool
	// Parser is reused when set (not safe for concurrent use); otherwise
	// Evaluate makes and closes its own.
	Parser *syntax.Parser
}

// Evaluate scores one instance: file-level always, node-level and the
// complexity class when opts.Nodes is set. src gives files at the
// instance's base commit; it may be nil when opts.Nodes is false, or when
// Compatible mode has ReferenceNodes and the prediction is empty.
//
// A blank prediction, or opts.Unapplied, scores 0 for files and nodes (the
// node score stays in node means). A prediction that does not parse or
// apply scores 0 for nodes. The returned error is only for a Source
// failure (e.g. git not runnable); bad patches are results.
//
// Source: SWE-PolyBench run_evaluation.py evaluate_instance and
// metric_scoring.py instance_level_metric_scoring.
func Evaluate(in Input, src Source, opts Options) (InstanceMetrics, error) {
	m := InstanceMetrics{
		InstanceID:     in.InstanceID,
		Language:       in.Language,
		TaskCategory:   in.TaskCategory,
		Mode:           opts.Mode.String(),
		ReferenceFiles: FileKeys(in.Reference, opts.Mode),
		PredictedFiles: FileKeys(in.Prediction, opts.Mode),
		NodeStatus:     NodeSkipped,
		ReferenceNodes: []string{},
		PredictedNodes: []string{},
	}
	empty := strings.TrimSpace(in.Prediction) == "" || opts.Unapplied
	if empty {
		m.PredictedFiles = []string{}
	} else {
		m.File = Score(m.ReferenceFiles, m.PredictedFiles)
	}
	if !opts.Nodes {
		return m, nil
	}
	p := opts.Parser
	if p == nil {
		p = syntax.NewParser()
		defer p.Close()
	}
	x := &extractor{mode: opts.Mode, parser: p, src: src}

	// Reference nodes.
	var ref []string
	if opts.Mode == Compatible && in.ReferenceNodes != nil {
		ref = append([]string{}, in.ReferenceNodes...)
		sort.Strings(ref)
	} else {
		nodes, fail, err := x.patchNodes(in.Reference)
		if err != nil {
			return m, fmt.Errorf("reference nodes of %s: %w", in.InstanceID, err)
		}
		if fail != "" {
			m.NodeStatus, m.NodeError = NodeFailedReference, "reference: "+fail
			return m, nil
		}
		ref = nodes
	}
	m.ReferenceNodes = ref
	m.Complexity = Classify(ref)

	if empty {
		m.Node, m.NodeStatus = &Scores{}, NodeFailedPrediction
		m.NodeError = "prediction: empty or not applied"
		return m, nil
	}
	nodePatch := in.Prediction
	if in.Applied != "" {
		nodePatch, m.NodeSource = in.Applied, "applied"
	}
	pred, fail, err := x.patchNodes(nodePatch)
	if err != nil {
		return m, fmt.Errorf("predicted nodes of %s: %w", in.InstanceID, err)
	}
	if fail != "" {
		// SWE-PolyBench checks the prediction before looking at the
		// reference, so a failed prediction scores 0 even without
		// reference nodes.
		m.Node, m.NodeStatus, m.NodeError = &Scores{}, NodeFailedPrediction, "prediction: "+fail
		return m, nil
	}
	m.PredictedNodes = pred
	if len(ref) == 0 {
		m.NodeStatus = NodeNoReference
		return m, nil
	}
	s := Score(ref, pred)
	m.Node, m.NodeStatus = &s, NodeOK
	return m, nil
}
