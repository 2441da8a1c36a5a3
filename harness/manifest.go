package harness

import (
	"context"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/retrieval"
)

// EmptyPredictionMetrics scores an empty prediction of inst with the
// harness's retrieval options and repositories, exactly as an empty
// prediction is scored when it is evaluated: a unit without a prediction
// counts as an empty one (SWE-PolyBench merges predictions into the
// dataset). Nil when retrieval is off or the metrics cannot be computed.
func (h *Harness) EmptyPredictionMetrics(ctx context.Context, inst dataset.Instance) *retrieval.InstanceMetrics {
	if h.Retrieval == nil {
		return nil
	}
	return h.retrievalMetrics(ctx, inst, "", "", false)
}
