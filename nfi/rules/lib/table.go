package lib

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// deprecatedTSV is the table of APIs the LIB rules match, one row per API
// with its source. Columns (tab-separated, after a header row; lines starting
// with # are comments):
//
//	rule       catalog ID of the rule that reports the row
//	mode       how the pattern matches (see below)
//	pattern    what to match
//	condition  "-", "imports:<module>" (only in files importing it),
//	           "unless-called:<qualified name>" (not in files calling it),
//	           "option:<name>" (only when the rule's boolean option is on)
//	change     what happened to the API ("removed 3.12", "deprecated NumPy 1.25")
//	instead    the replacement to suggest
//	source     release notes, PEP or tool rule the row comes from
//
// Modes:
//
//	ref        a reference (name or attribute chain) that resolves to the
//	           qualified pattern, or an import of it or of something under it
//	call       a call whose callee resolves to the qualified pattern
//	import     an import of the module pattern or of anything under it
//	attr       `.name` on any receiver that is not an imported module (pattern ".name")
//	method     a call of `.name` on any such receiver (pattern ".name"), or on
//	           the bare name self (pattern "self.name")
//	logmethod  a call of `.name` on a logger-like receiver: a name or attribute
//	           containing "log", or logging.getLogger(...) (pattern ".name")
//	kwarg      a call passing a keyword: "qualified.name(kw=)" or ".method(kw=)"
//
//go:embed deprecated.tsv
var deprecatedTSV string

// entry is one row of deprecated.tsv.
type entry struct {
	rule, mode, pattern, condition, change, instead, source string

	name     string // qualified name, module, or attribute/method name
	receiver string // "self" for self.method patterns
	keyword  string // kwarg mode
	condKind string // "", "imports", "unless-called", "option"
	condArg  string
}

// table indexes the rows by what the scan sees.
type table struct {
	entries     []*entry
	ref         map[string][]*entry // qualified name
	call        map[string][]*entry // qualified callee
	module      map[string][]*entry // import mode: module
	attr        map[string][]*entry // attribute name
	method      map[string][]*entry // method name (method and logmethod modes)
	kwargCall   map[string][]*entry // qualified callee
	kwargMethod map[string][]*entry // method name
	unless      map[string]bool     // callees named by unless-called conditions

	// The scan's indexes: one lookup per qualified name and per attribute
	// name instead of one per map above. Rows keep the maps' order.
	qual   map[string]*qualRows
	member map[string]*memberRows
	// qualParents holds every proper dotted prefix of a qual key ("a" and
	// "a.b" for "a.b.c"): the names some key extends by a dot.
	qualParents map[string]bool
	// memberFirst[b&63] has bit min(n, 63) for each member key of n bytes
	// whose first byte is b; memberLast has bit b for each last byte b of
	// a key. Most attribute names of a file match no key: the scan rejects
	// them on these bits without hashing (see memberRowsOf).
	memberFirst [64]uint64
	memberLast  [4]uint64
}

// qualRows are the rows keyed by one qualified name.
type qualRows struct {
	ref, call, kwargCall []*entry
	unless               bool
}

// memberRows are the rows keyed by one attribute or method name.
type memberRows struct {
	attr, method, kwargMethod []*entry
}

// buildScanIndexes fills qual and member from the other maps.
func (tb *table) buildScanIndexes() {
	tb.qual, tb.member = map[string]*qualRows{}, map[string]*memberRows{}
	q := func(k string) *qualRows { return rowsOf(tb.qual, k) }
	for k, es := range tb.ref {
		q(k).ref = es
	}
	for k, es := range tb.call {
		q(k).call = es
	}
	for k, es := range tb.kwargCall {
		q(k).kwargCall = es
	}
	for k := range tb.unless {
		q(k).unless = true
	}
	m := func(k string) *memberRows { return rowsOf(tb.member, k) }
	for k, es := range tb.attr {
		m(k).attr = es
	}
	for k, es := range tb.method {
		m(k).method = es
	}
	for k, es := range tb.kwargMethod {
		m(k).kwargMethod = es
	}
	tb.qualParents = map[string]bool{}
	for k := range tb.qual {
		for i := range len(k) {
			if k[i] == '.' {
				tb.qualParents[k[:i]] = true
			}
		}
	}
	for k := range tb.member {
		if k != "" {
			tb.memberFirst[k[0]&63] |= 1 << min(len(k), 63)
			b := k[len(k)-1]
			tb.memberLast[b>>6] |= 1 << (b & 63)
		}
	}
}

// memberRowsOf returns tb.member[string(name)]: the rows keyed by
// attribute or method name, nil when none. A name whose first byte and
// length, or whose last byte, no key has is rejected without a map lookup.
func (tb *table) memberRowsOf(name []byte) *memberRows {
	if n := len(name); n > 0 {
		if tb.memberFirst[name[0]&63]&(1<<min(n, 63)) == 0 {
			return nil
		}
		if b := name[n-1]; tb.memberLast[b>>6]&(1<<(b&63)) == 0 {
			return nil
		}
	}
	return tb.member[string(name)]
}

// rowsOf returns index[k], adding an empty entry first when there is none.
func rowsOf[T any](index map[string]*T, k string) *T {
	r := index[k]
	if r == nil {
		r = new(T)
		index[k] = r
	}
	return r
}

var loadTable = sync.OnceValues(func() (*table, error) { return parseTable(deprecatedTSV) })

// apiTable returns the parsed embedded table. A malformed table is a build
// defect that TestTable reports; here it panics with the row.
func apiTable() *table {
	t, err := loadTable()
	if err != nil {
		panic(err)
	}
	return t
}

var tableModes = map[string]bool{"ref": true, "call": true, "import": true, "attr": true, "method": true, "logmethod": true, "kwarg": true}

func parseTable(src string) (*table, error) {
	tb := &table{
		ref: map[string][]*entry{}, call: map[string][]*entry{}, module: map[string][]*entry{},
		attr: map[string][]*entry{}, method: map[string][]*entry{}, kwargCall: map[string][]*entry{},
		kwargMethod: map[string][]*entry{}, unless: map[string]bool{},
	}
	header := true
	seen := map[string]bool{}
	for i, line := range strings.Split(src, "\n") {
		ln := i + 1
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("deprecated.tsv:%d: %d fields, want 7 (rule, mode, pattern, condition, change, instead, source)", ln, len(f))
		}
		if header {
			header = false
			continue
		}
		e := &entry{rule: f[0], mode: f[1], pattern: f[2], condition: f[3], change: f[4], instead: f[5], source: f[6]}
		for j, v := range f {
			if strings.TrimSpace(v) != v || v == "" {
				return nil, fmt.Errorf("deprecated.tsv:%d: field %d is empty or padded", ln, j+1)
			}
		}
		if !strings.HasPrefix(e.rule, "LIB-") {
			return nil, fmt.Errorf("deprecated.tsv:%d: rule %q is not a LIB rule", ln, e.rule)
		}
		if !tableModes[e.mode] {
			return nil, fmt.Errorf("deprecated.tsv:%d: unknown mode %q", ln, e.mode)
		}
		if key := e.rule + " " + e.mode + " " + e.pattern; seen[key] {
			return nil, fmt.Errorf("deprecated.tsv:%d: duplicate row %s", ln, key)
		} else {
			seen[key] = true
		}
		if e.condition != "-" {
			k, arg, ok := strings.Cut(e.condition, ":")
			if !ok || arg == "" || (k != "imports" && k != "unless-called" && k != "option") {
				return nil, fmt.Errorf("deprecated.tsv:%d: bad condition %q", ln, e.condition)
			}
			e.condKind, e.condArg = k, arg
			if k == "unless-called" {
				tb.unless[arg] = true
			}
		}
		if err := tb.index(e); err != nil {
			return nil, fmt.Errorf("deprecated.tsv:%d: %w", ln, err)
		}
		tb.entries = append(tb.entries, e)
	}
	tb.buildScanIndexes()
	return tb, nil
}

func (tb *table) index(e *entry) error {
	p := e.pattern
	dotted := func(s string) bool {
		if s == "" || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || strings.Contains(s, "..") {
			return false
		}
		return !strings.ContainsAny(s, " ()=")
	}
	member := func(s string) (string, bool) {
		if !strings.HasPrefix(s, ".") || !dotted(s[1:]) || strings.Contains(s[1:], ".") {
			return "", false
		}
		return s[1:], true
	}
	switch e.mode {
	case "ref", "call", "import":
		if !dotted(p) {
			return fmt.Errorf("pattern %q is not a dotted name", p)
		}
		e.name = p
		m := tb.ref
		switch e.mode {
		case "call":
			m = tb.call
		case "import":
			m = tb.module
		}
		m[p] = append(m[p], e)
	case "attr":
		name, ok := member(p)
		if !ok {
			return fmt.Errorf("attr pattern %q is not .name", p)
		}
		e.name = name
		tb.attr[name] = append(tb.attr[name], e)
	case "method", "logmethod":
		name, ok := member(p)
		if !ok && e.mode == "method" && strings.HasPrefix(p, "self.") {
			name, ok = member(p[len("self"):])
			e.receiver = "self"
		}
		if !ok {
			return fmt.Errorf("%s pattern %q is not .name or self.name", e.mode, p)
		}
		e.name = name
		tb.method[name] = append(tb.method[name], e)
	case "kwarg":
		fn, rest, ok := strings.Cut(p, "(")
		if !ok || !strings.HasSuffix(rest, "=)") {
			return fmt.Errorf("kwarg pattern %q is not name(keyword=)", p)
		}
		e.keyword = strings.TrimSuffix(rest, "=)")
		if !dotted(e.keyword) || strings.Contains(e.keyword, ".") {
			return fmt.Errorf("kwarg pattern %q has a bad keyword", p)
		}
		if name, isMember := member(fn); isMember {
			e.name = name
			tb.kwargMethod[name] = append(tb.kwargMethod[name], e)
		} else if dotted(fn) {
			e.name = fn
			tb.kwargCall[fn] = append(tb.kwargCall[fn], e)
		} else {
			return fmt.Errorf("kwarg pattern %q has a bad callee", p)
		}
	}
	return nil
}
