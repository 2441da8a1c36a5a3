package harness

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// LoadRecords reads every record (result.json) stored under dir by a Store,
// skipping the store's scratch and cache directories, sorted by instance
// id, model and run. A record that does not decode is an error naming its
// file; files that are not polynfi records (no instance_id) are skipped.
func LoadRecords(dir string) ([]*Record, error) {
	var out []*Record
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != ResultFile {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rec := &Record{}
		if err := json.Unmarshal(b, rec); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if rec.InstanceID != "" {
			out = append(out, rec)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Key, out[j].Key
		if a.InstanceID != b.InstanceID {
			return a.InstanceID < b.InstanceID
		}
		if a.Model != b.Model {
			return a.Model < b.Model
		}
		return a.Run < b.Run
	})
	return out, nil
}
