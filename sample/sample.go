// Package sample draws reproducible stratified subsets of dataset records
// (PolyBench instances, mined candidates, NFI tasks; any JSONL, JSON-list or
// CSV file), like SWE-PolyBench's PB500: a target size, strata by any
// fields with target proportions, every repository represented at least
// once, and a seed. It never prints.
//
// # Algorithm
//
//  1. Records are grouped into strata by the values of the strata fields
//     (the stratum key joins them with "|"). Each stratum s has n_s records
//     and a target share p_s: given proportions normalised to sum 1
//     (strata not named get 0), or by default n_s/N.
//  2. Every record gets a random rank: the first 8 bytes of
//     SHA-256(seed, 0x00, record bytes) (ties by input position). The rank
//     depends only on the seed and the record, so the same inputs and seed
//     always give the same subset.
//  3. Repository coverage (field "repo" unless changed): repositories are
//     taken fewest-records first (then by name); each gets one record from
//     its stratum with the most room left (size·p_s − picked so far, ties by
//     key), the lowest-ranked record of that repository there.
//  4. The remaining R slots are allocated by the largest-remainder
//     (Hamilton) method over each stratum's remaining need
//     max(0, size·p_s − picked), capped by the records left in it; slots
//     still free (a stratum ran out) go by largest remainder over p_s among
//     strata with records left. Equal remainders are ordered by the first
//     8 bytes of SHA-256(seed, 0x01, stratum key), so the seed decides. Without coverage picks this is plain
//     Hamilton apportionment of size by p_s.
//  5. Each stratum takes its lowest-ranked records not yet picked; the
//     subset keeps the input order.
//
// Source: largest-remainder apportionment (A. Hamilton, 1792; see M. L.
// Balinski and H. P. Young, "Fair Representation", 2nd ed., 2001);
// SWE-PolyBench §3 (PB500 stratified subset).
package sample

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/polynfi/polynfi/internal/regfile"
)

// Format of a record file.
const (
	JSONL = "jsonl"
	JSON  = "json" // a JSON list of objects
	CSV   = "csv"
)

// Table is a file of records.
type Table struct {
	Path    string
	Format  string
	Header  []string // CSV only
	Records []Record
}

// Record is one record: its decoded fields and the bytes written back
// unchanged. Line is the 1-based line where it starts (JSON list: its
// position in the list).
type Record struct {
	Line   int
	Fields map[string]any
	Raw    []byte   // JSONL and JSON: the object's JSON text
	Row    []string // CSV: the cells
}

// Read loads a record file; the format comes from the extension (.jsonl,
// .ndjson, .json, .csv). Errors name the file and line.
func Read(path string) (*Table, error) {
	data, err := regfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t := &Table{Path: path}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		t.Format = JSONL
		err = t.readJSONL(data)
	case ".json":
		t.Format = JSON
		err = t.readJSON(data)
	case ".csv":
		t.Format = CSV
		err = t.readCSV(data)
	default:
		return nil, fmt.Errorf("%s: unknown record format (want .jsonl, .json or .csv)", path)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Table) readJSONL(data []byte) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("%s:%d: %w", t.Path, line, err)
		}
		if m == nil {
			return fmt.Errorf("%s:%d: not a JSON object", t.Path, line)
		}
		t.Records = append(t.Records, Record{Line: line, Fields: m, Raw: bytes.Clone(b)})
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %w", t.Path, line+1, err)
	}
	return nil
}

func (t *Table) readJSON(data []byte) error {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return fmt.Errorf("%s: not a JSON list of objects: %w", t.Path, err)
	}
	for i, r := range raws {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil || m == nil {
			return fmt.Errorf("%s: item %d: not a JSON object", t.Path, i+1)
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, r); err != nil {
			return fmt.Errorf("%s: item %d: %w", t.Path, i+1, err)
		}
		t.Records = append(t.Records, Record{Line: i + 1, Fields: m, Raw: buf.Bytes()})
	}
	return nil
}

func (t *Table) readCSV(data []byte) error {
	r := csv.NewReader(bytes.NewReader(data))
	header, err := r.Read()
	if err != nil {
		return fmt.Errorf("%s:1: header: %w", t.Path, err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff")
	}
	t.Header = header
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", t.Path, err)
		}
		line, _ := r.FieldPos(0)
		m := make(map[string]any, len(header))
		for i, h := range header {
			m[h] = row[i]
		}
		t.Records = append(t.Records, Record{Line: line, Fields: m, Row: row})
	}
	return nil
}

// Write writes the records at the given indexes, in the table's own format
// (with the CSV header).
func (t *Table) Write(w io.Writer, idx []int) error {
	bw := bufio.NewWriter(w)
	switch t.Format {
	case CSV:
		cw := csv.NewWriter(bw)
		if err := cw.Write(t.Header); err != nil {
			return err
		}
		for _, i := range idx {
			if err := cw.Write(t.Records[i].Row); err != nil {
				return err
			}
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
	case JSON:
		bw.WriteString("[")
		for k, i := range idx {
			if k > 0 {
				bw.WriteString(",")
			}
			bw.WriteString("\n  ")
			bw.Write(t.Records[i].Raw)
		}
		bw.WriteString("\n]\n")
	default:
		for _, i := range idx {
			bw.Write(t.Records[i].Raw)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// Value returns a field of r as text: strings as they are, null as "",
// other JSON values as compact JSON. ok is false when the field is absent.
func (r Record) Value(field string) (string, bool) {
	v, ok := r.Fields[field]
	if !ok {
		return "", false
	}
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

func (r Record) bytes() []byte {
	if r.Row != nil {
		var b bytes.Buffer
		cw := csv.NewWriter(&b)
		cw.Write(r.Row)
		cw.Flush()
		return b.Bytes()
	}
	return r.Raw
}

// Options configures Sample.
type Options struct {
	Size   int      // records to draw, 1..N
	Strata []string // fields whose values define the strata; none: one stratum
	// Proportions maps stratum keys (values joined with "|") to target
	// shares; nil means proportional to the population. Shares are
	// normalised; a key that is no stratum is an error.
	Proportions map[string]float64
	Seed        uint64
	// RepoField names the repository field covered at least once; "" turns
	// coverage off.
	RepoField string
}

// Stratum reports one stratum: its population, target share and count
// (Size·share, fractional) and what the sample achieved.
type Stratum struct {
	Key           string   `json:"key"`
	Values        []string `json:"values"`
	Population    int      `json:"population"`
	TargetShare   float64  `json:"target_share"`
	Target        float64  `json:"target"`
	Achieved      int      `json:"achieved"`
	AchievedShare float64  `json:"achieved_share"`
}

// Result is a drawn sample: Selected holds record indexes in input order.
type Result struct {
	Selected     []int     `json:"-"`
	Size         int       `json:"size"`
	Population   int       `json:"population"`
	Seed         uint64    `json:"seed"`
	Strata       []Stratum `json:"strata"`
	RepoField    string    `json:"repo_field,omitempty"`
	Repos        int       `json:"repos"`
	ReposCovered int       `json:"repos_covered"`
}

// Key joins stratum values into a stratum key.
func Key(values []string) string { return strings.Join(values, "|") }

// Sample draws a stratified subset of t (see the package comment for the
// algorithm). Errors: a size outside 1..N, a record missing a strata or
// repository field (naming file, line and field), more repositories than
// the size, unknown or invalid proportions, or too few records in strata
// with a non-zero target.
func Sample(t *Table, o Options) (*Result, error) {
	n := len(t.Records)
	if o.Size < 1 || o.Size > n {
		return nil, fmt.Errorf("size %d: want 1..%d (the records in %s)", o.Size, n, t.Path)
	}
	type stratum struct {
		Stratum
		members []int // record indexes by rank
		taken   int
	}
	byKey := map[string]*stratum{}
	keyOf := make([]string, n)
	repoOf := make([]string, n)
	rank := make([]uint64, n)
	seed := []byte(strconv.FormatUint(o.Seed, 10) + "\x00")
	for i, r := range t.Records {
		vals := make([]string, len(o.Strata))
		for j, f := range o.Strata {
			v, ok := r.Value(f)
			if !ok {
				return nil, fmt.Errorf("%s:%d: field %q: missing (a strata field)", t.Path, r.Line, f)
			}
			vals[j] = v
		}
		if o.RepoField != "" {
			v, ok := r.Value(o.RepoField)
			if !ok || v == "" {
				return nil, fmt.Errorf("%s:%d: field %q: missing (needed for repository coverage)", t.Path, r.Line, o.RepoField)
			}
			repoOf[i] = v
		}
		k := Key(vals)
		keyOf[i] = k
		s, ok := byKey[k]
		if !ok {
			s = &stratum{Stratum: Stratum{Key: k, Values: vals}}
			byKey[k] = s
		}
		s.Population++
		s.members = append(s.members, i)
		h := sha256.New()
		h.Write(seed)
		h.Write(r.bytes())
		rank[i] = binary.BigEndian.Uint64(h.Sum(nil)[:8])
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	strata := make([]*stratum, len(keys))
	for i, k := range keys {
		s := byKey[k]
		sort.SliceStable(s.members, func(a, b int) bool {
			x, y := s.members[a], s.members[b]
			if rank[x] != rank[y] {
				return rank[x] < rank[y]
			}
			return x < y
		})
		strata[i] = s
	}
	// Target shares.
	if o.Proportions == nil {
		for _, s := range strata {
			s.TargetShare = float64(s.Population) / float64(n)
		}
	} else {
		sum := 0.0
		for k, v := range o.Proportions {
			s, ok := byKey[k]
			if !ok {
				return nil, fmt.Errorf("proportions: %q is not a stratum (strata: %s)", k, strings.Join(keys, ", "))
			}
			if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("proportions: %q has share %v, want a finite number ≥ 0", k, v)
			}
			s.TargetShare = v
			sum += v
		}
		if sum <= 0 {
			return nil, errors.New("proportions: shares sum to 0")
		}
		for _, s := range strata {
			s.TargetShare /= sum
		}
	}
	for _, s := range strata {
		s.Target = float64(o.Size) * s.TargetShare
	}
	chosen := make([]bool, n)
	res := &Result{Size: o.Size, Population: n, Seed: o.Seed, RepoField: o.RepoField}

	// Repository coverage.
	if o.RepoField != "" {
		count := map[string]int{}
		for _, r := range repoOf {
			count[r]++
		}
		repos := make([]string, 0, len(count))
		for r := range count {
			repos = append(repos, r)
		}
		sort.Slice(repos, func(a, b int) bool {
			if count[repos[a]] != count[repos[b]] {
				return count[repos[a]] < count[repos[b]]
			}
			return repos[a] < repos[b]
		})
		res.Repos = len(repos)
		if len(repos) > o.Size {
			return nil, fmt.Errorf("size %d is smaller than the number of repositories (%d): every repository must be represented", o.Size, len(repos))
		}
		for _, repo := range repos {
			var best *stratum
			pick := -1
			for _, s := range strata {
				first := -1
				for _, i := range s.members {
					if repoOf[i] == repo && !chosen[i] {
						first = i
						break
					}
				}
				if first < 0 {
					continue
				}
				// Prefer strata with a non-zero target, then the most room.
				room := s.Target - float64(s.taken)
				if best == nil || better(s.TargetShare > 0, room, best.TargetShare > 0, best.Target-float64(best.taken)) {
					best, pick = s, first
				}
			}
			chosen[pick] = true
			best.taken++
		}
		res.ReposCovered = len(repos)
	}

	// Largest-remainder allocation of the remaining slots. Equal
	// remainders are broken by a seeded rank of the stratum key, so that the
	// seed, not the alphabet, decides between equally entitled strata.
	tie := make([]uint64, len(strata))
	for i, s := range strata {
		h := sha256.New()
		h.Write(seed)
		h.Write([]byte{0x01})
		h.Write([]byte(s.Key))
		tie[i] = binary.BigEndian.Uint64(h.Sum(nil)[:8])
	}
	left := o.Size
	for _, s := range strata {
		left -= s.taken
	}
	alloc := make([]int, len(strata))
	capLeft := func(i int) int { return strata[i].Population - strata[i].taken - alloc[i] }
	for pass := 0; pass < 2 && left > 0; pass++ {
		for left > 0 {
			w := make([]float64, len(strata))
			caps := make([]int, len(strata))
			any := false
			for i, s := range strata {
				caps[i] = capLeft(i)
				if caps[i] <= 0 {
					continue
				}
				if pass == 0 {
					w[i] = math.Max(0, s.Target-float64(s.taken+alloc[i]))
				} else {
					w[i] = s.TargetShare
				}
				any = any || w[i] > 1e-12
			}
			if !any {
				break
			}
			seats := left
			if pass == 0 {
				need := 0.0
				for _, x := range w {
					need += x
				}
				seats = min(left, int(math.Ceil(need-1e-9)))
			}
			give := largestRemainder(seats, w, caps, tie)
			got := 0
			for i, g := range give {
				alloc[i] += g
				got += g
			}
			left -= got
			if got == 0 {
				break
			}
		}
	}
	if left > 0 {
		return nil, fmt.Errorf("only %d records can be drawn from strata with a non-zero target share, want %d", o.Size-left, o.Size)
	}
	for i, s := range strata {
		need := alloc[i]
		for _, r := range s.members {
			if need == 0 {
				break
			}
			if !chosen[r] {
				chosen[r] = true
				need--
			}
		}
	}
	achieved := map[string]int{}
	for i, c := range chosen {
		if c {
			res.Selected = append(res.Selected, i)
			achieved[keyOf[i]]++
		}
	}
	for _, s := range strata {
		s.Achieved = achieved[s.Key]
		s.AchievedShare = float64(s.Achieved) / float64(o.Size)
		res.Strata = append(res.Strata, s.Stratum)
	}
	return res, nil
}

// better orders coverage choices: a stratum with a target beats one
// without; then more room wins.
func better(pos bool, room float64, bestPos bool, bestRoom float64) bool {
	if pos != bestPos {
		return pos
	}
	return room > bestRoom
}

// largestRemainder apportions seats among weights (Hamilton's method):
// each gets floor(seats·w_i/W), and the seats left go one each to the
// largest fractional remainders (equal remainders: lowest tie[i] first);
// no share exceeds caps[i]. It may hand out fewer seats than asked when caps bind.
func largestRemainder(seats int, w []float64, caps []int, tie []uint64) []int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	out := make([]int, len(w))
	if total <= 0 {
		return out
	}
	type rem struct {
		i int
		r float64
	}
	var rems []rem
	given := 0
	for i, x := range w {
		if x <= 0 || caps[i] <= 0 {
			continue
		}
		q := float64(seats) * x / total
		f := int(math.Floor(q + 1e-9))
		if f > caps[i] {
			f = caps[i]
		}
		out[i] = f
		given += f
		if f < caps[i] {
			rems = append(rems, rem{i, q - float64(f)})
		}
	}
	sort.SliceStable(rems, func(a, b int) bool {
		if d := rems[a].r - rems[b].r; d > 1e-9 || d < -1e-9 {
			return d > 0
		}
		return tie[rems[a].i] < tie[rems[b].i]
	})
	for _, r := range rems {
		if given >= seats {
			break
		}
		out[r.i]++
		given++
	}
	return out
}
