package audit

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/polynfi/polynfi/dataset"
	"github.com/polynfi/polynfi/internal/atomicfile"
)

// AuditDir audits the agent runs under dir (the --out directory of
// polynfi run) made from the dataset files datasets (each read with
// dataset.Load; their instances' repositories fill Options.Repos) and
// writes the report, indented JSON, atomically to out, or to dir/File
// when out is "". Errors: a
// dataset that cannot be loaded, records that cannot be read, a dir with
// no agent run recorded, a report that cannot be written.
func AuditDir(dir string, datasets []string, out string) (*Report, error) {
	opt := Options{Datasets: datasets, Repos: map[string]string{}}
	for _, d := range datasets {
		ds, err := dataset.Load(d)
		if err != nil {
			return nil, fmt.Errorf("load dataset: %w", err)
		}
		for _, in := range ds.Instances {
			opt.Repos[in.InstanceID] = in.Repo
		}
	}
	rep, err := Audit(dir, opt)
	if err != nil {
		return nil, err
	}
	if len(rep.Runs) == 0 {
		return nil, fmt.Errorf("%s: no agent run recorded (want the --out directory of 'polynfi run', with runs/*/*/run-*/%s)", dir, "record.json")
	}
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return nil, err
	}
	if out == "" {
		out = filepath.Join(dir, File)
	}
	if err := atomicfile.Write(out, append(data, '\n')); err != nil {
		return nil, err
	}
	return rep, nil
}
