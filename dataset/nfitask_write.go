package dataset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/polynfi/polynfi/nfi/aspect"
)

// Description states of an NFI task (NFITask.DescriptionStatus).
const (
	// DescriptionDraft marks a task whose request a person still has to
	// write (every task built from mined candidates starts so).
	DescriptionDraft = "draft"
	// DescriptionFinal marks a reviewed task, ready to give to an agent.
	DescriptionFinal = "final"
	// DescriptionPlaceholder is the description of a draft task.
	DescriptionPlaceholder = "TODO(reviewer): describe the requested change"
)

// WriteNFITasks validates every task (NFITask.Validate, plus unique
// instance ids) and writes them as JSONL, one task per line, in order. It
// writes nothing when a task is invalid; the error names the task's
// 1-based position, its instance id and the field.
func WriteNFITasks(w io.Writer, tasks []NFITask) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	seen := map[string]int{}
	for i := range tasks {
		t := &tasks[i]
		var errs []error
		for _, fe := range t.Validate() {
			errs = append(errs, fmt.Errorf("task %d (%s): field %q: %w", i+1, t.InstanceID, fe.field, fe.err))
		}
		if prev, ok := seen[t.InstanceID]; ok {
			errs = append(errs, fmt.Errorf("task %d (%s): field \"instance_id\": repeats task %d", i+1, t.InstanceID, prev))
		}
		if len(errs) > 0 {
			return errors.Join(errs...)
		}
		seen[t.InstanceID] = i + 1
		if err := enc.Encode(t); err != nil {
			return fmt.Errorf("task %d (%s): %w", i+1, t.InstanceID, err)
		}
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// NFIAspectCodes returns the aspect codes an NFI task may target, in report
// order (DOC, ERR, LIB, STY, LOG).
func NFIAspectCodes() []string {
	out := make([]string, len(aspect.All))
	for i, a := range aspect.All {
		out[i] = a.Code()
	}
	return out
}
