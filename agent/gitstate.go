package agent

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/polynfi/polynfi/internal/safepath"
)

// GitState is what a run's workspace .git held when the agent finished,
// read from its files (git is never run in a repository the agent
// controls; links are never followed). The base workspace holds one
// branch with one commit: one ref, one reflog line, no remote, no pack,
// no alternates. The audit (package agent/audit) reads it for history the
// agent brought in.
type GitState struct {
	// Refs are every ref, loose and packed ("refs/heads/main"), sorted, at
	// most maxStateRefs.
	Refs []string `json:"refs"`
	// Remotes are the names of the [remote "NAME"] sections of .git/config.
	Remotes []string `json:"remotes,omitempty"`
	// Packs counts the pack files (objects/pack/*.pack).
	Packs int `json:"packs"`
	// Alternates is set when objects/info/alternates borrows another
	// repository's objects; FetchHead when FETCH_HEAD exists (a fetch
	// ran); Shallow when a shallow file exists (a shallow fetch or clone).
	Alternates bool `json:"alternates,omitempty"`
	FetchHead  bool `json:"fetch_head,omitempty"`
	Shallow    bool `json:"shallow,omitempty"`
	// ReflogLines counts the lines of logs/HEAD (1 at the base: its commit).
	ReflogLines int `json:"reflog_lines"`
}

const maxStateRefs = 1000

// readGitState reads the state of the repository at dir (a work tree's
// .git directory); nil when there is none (a .git file or link is not
// followed either: nil).
func readGitState(dir string) *GitState {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	st := &GitState{Refs: []string{}}
	refs := map[string]bool{}
	_ = filepath.WalkDir(filepath.Join(dir, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(refs) >= maxStateRefs {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			refs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if b, err := safepath.ReadFileIn(dir, "packed-refs"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() && len(refs) < maxStateRefs {
			f := strings.Fields(sc.Text())
			if len(f) == 2 && !strings.HasPrefix(f[0], "#") && !strings.HasPrefix(f[0], "^") {
				refs[f[1]] = true
			}
		}
	}
	for r := range refs {
		st.Refs = append(st.Refs, r)
	}
	sort.Strings(st.Refs)
	if b, err := safepath.ReadFileIn(dir, "config"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if rest, ok := strings.CutPrefix(line, "[remote "); ok {
				st.Remotes = append(st.Remotes, strings.Trim(strings.TrimSuffix(rest, "]"), `"`))
			}
		}
	}
	if ents, err := os.ReadDir(filepath.Join(dir, "objects", "pack")); err == nil {
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".pack") {
				st.Packs++
			}
		}
	}
	exists := func(rel string) bool {
		_, err := os.Lstat(filepath.Join(dir, rel))
		return err == nil
	}
	st.Alternates, st.FetchHead, st.Shallow = exists("objects/info/alternates"), exists("FETCH_HEAD"), exists("shallow")
	if b, err := safepath.ReadFileIn(dir, "logs/HEAD"); err == nil {
		st.ReflogLines = bytes.Count(b, []byte("\n"))
	}
	return st
}
