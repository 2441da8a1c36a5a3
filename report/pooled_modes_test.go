package report

import (
	"encoding/json"
	"testing"

	"github.com/polynfi/polynfi/runrecord"
)

// "A multi-model run's top-level report --format json has
// polynfi.modes.polybench = {resolved: 10, total: 20, rate: 0.5} pooling
// models, although the code says pooled rates answer no question." With
// two models the top-level modes are null with a note; each model's
// section keeps its own; a single-model run keeps its modes.
func TestMultiModelJSONHasNoPooledRate(t *testing.T) {
	t.Parallel()
	build := func(models ...string) map[string]any {
		m := runrecord.Manifest{Kind: runrecord.KindHarness, Complete: true,
			Instances: []runrecord.ManifestInstance{{InstanceID: "a-1", Language: "Python", TaskCategory: "Bug Fix"}}}
		for _, model := range models {
			m.Units = append(m.Units, runrecord.ManifestUnit{Key: runrecord.Key{InstanceID: "z-9", Model: model}})
		}
		b, err := json.Marshal(BuildHarness(HarnessInput{Manifest: &m}))
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatal(err)
		}
		return out["polynfi"].(map[string]any)
	}
	two := build("m1", "m2")
	if modes, ok := two["modes"]; !ok || modes != nil || two["modes_note"] != PooledModesNote {
		t.Errorf("two models: modes %v (present %v), note %v; want null with the note", modes, ok, two["modes_note"])
	}
	ms, _ := two["models"].([]any)
	if len(ms) != 2 {
		t.Fatalf("two models: %d model sections", len(ms))
	}
	for _, s := range ms {
		p := s.(map[string]any)["report"].(map[string]any)["polynfi"].(map[string]any)
		pb, _ := p["modes"].(map[string]any)["polybench"].(map[string]any)
		if pb == nil || pb["total"] != 1.0 {
			t.Errorf("model section modes %v: want its own polybench total 1", p["modes"])
		}
	}
	one := build("m1")
	if m, _ := one["modes"].(map[string]any); m["polybench"] == nil {
		t.Errorf("one model: modes %v, want its rates", one["modes"])
	}
	if _, ok := one["modes_note"]; ok {
		t.Errorf("one model: modes_note %v", one["modes_note"])
	}
}
