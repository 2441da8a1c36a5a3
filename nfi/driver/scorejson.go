package driver

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/polynfi/polynfi/nfi"
)

// appendFileScore appends fs as encoding/json writes it with
// SetEscapeHTML(false) (the json score format's file records), without
// reflection: encoding/json took some 5% of `polynfi score --format json`'s
// CPU on site-packages, one record per file. ok is false when fs holds a
// value this encoder does not write as encoding/json would (a NaN or
// infinite score or value, which encoding/json refuses): the caller then
// encodes fs with encoding/json. TestAppendFileScoreIsEncodingJSON checks
// the two byte for byte, on scored corpora and on hostile strings, and
// fails when one of the encoded types gains a field.
//
// flush, when not nil, is called with what b holds whenever it passes
// 64 kB between two diagnostics, and returns the buffer to go on with: a
// file of a million findings is written in pieces, not held whole (the
// caller first checks that the record is encodable: see finiteScore).
func appendFileScore(b []byte, fs *nfi.FileScore, flush func([]byte) []byte) (_ []byte, ok bool) {
	return appendFileScoreHeads(b, fs, flush, nil)
}

// ruleHeads holds the opening of each rule result's record,
// `{"id":ID,"aspect":ASPECT,"passed":`, by the result's position in
// FileScore.Rules: the files of one language list the same rules in the
// same order, so a Python record's 92 openings are copied instead of
// escaped anew (the json format's per-file cost on a file of a few lines).
// An entry whose rule or aspect differs from the result at its position
// (another language's rule list) is rewritten.
type ruleHeads []ruleHead

type ruleHead struct {
	id     string
	aspect nfi.Aspect
	b      []byte
}

// maxRuleHeads bounds ruleHeads: a rule list longer than any catalog's is
// written without the cache past it.
const maxRuleHeads = 1024

// append appends the opening of r, the i-th rule result of its file, to b.
func (h *ruleHeads) append(b []byte, i int, r *nfi.RuleResult) []byte {
	// results come in order, so i > len(*h) does not happen; uncached if so
	if h == nil || i >= maxRuleHeads || i > len(*h) {
		return appendRuleHead(b, r)
	}
	if i == len(*h) {
		*h = append(*h, ruleHead{})
	}
	e := &(*h)[i]
	if e.b == nil || e.id != r.ID || e.aspect != r.Aspect {
		*e = ruleHead{id: r.ID, aspect: r.Aspect, b: appendRuleHead(e.b[:0], r)}
	}
	return append(b, e.b...)
}

// appendRuleHead appends `{"id":ID,"aspect":ASPECT,"passed":` for r.
func appendRuleHead(b []byte, r *nfi.RuleResult) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, r.ID)
	b = append(b, `,"aspect":`...)
	b = appendJSONString(b, r.Aspect.Code())
	return append(b, `,"passed":`...)
}

// appendFileScoreHeads is appendFileScore with the rule results' openings
// taken from heads (nil: written anew).
func appendFileScoreHeads(b []byte, fs *nfi.FileScore, flush func([]byte) []byte, heads *ruleHeads) (_ []byte, ok bool) {
	b = append(b, `{"path":`...)
	b = appendJSONString(b, fs.Path)
	b = append(b, `,"valid":`...)
	b = strconv.AppendBool(b, fs.Valid)
	b = append(b, `,"status":`...)
	b = appendJSONString(b, fs.Status)
	if e := fs.Error; e != nil {
		b = append(b, `,"error":{"line":`...)
		b = appendInt(b, int(e.Line))
		b = append(b, `,"column":`...)
		b = appendInt(b, int(e.Column))
		b = append(b, `,"message":`...)
		b = appendJSONString(b, e.Message)
		b = append(b, '}')
	}
	b = append(b, `,"bytes":`...)
	b = appendInt(b, int(fs.Bytes))
	if fs.Lines != 0 {
		b = append(b, `,"lines":`...)
		b = appendInt(b, int(fs.Lines))
	}
	// Scores.MarshalJSON: a map of the scored aspects' codes, which
	// encoding/json writes in the order of its sorted keys.
	b = append(b, `,"scores":{`...)
	type scored struct {
		code string
		v    float64
	}
	var sc [len(nfi.Aspects)]scored
	n := 0
	for _, a := range nfi.Aspects {
		if v, has := fs.Scores.Get(a); has {
			sc[n] = scored{a.Code(), v}
			n++
		}
	}
	slices.SortFunc(sc[:n], func(x, y scored) int { return strings.Compare(x.code, y.code) })
	for i, s := range sc[:n] {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, s.code)
		b = append(b, ':')
		if b, ok = appendJSONFloat(b, s.v); !ok {
			return b, false
		}
	}
	b = append(b, '}')
	if len(fs.Rules) > 0 {
		b = append(b, `,"rules":[`...)
		for i := range fs.Rules {
			r := &fs.Rules[i]
			if i > 0 {
				b = append(b, ',')
			}
			b = heads.append(b, i, r)
			b = strconv.AppendBool(b, r.Passed)
			if r.Value != nil {
				b = append(b, `,"value":`...)
				if b, ok = appendJSONFloat(b, *r.Value); !ok {
					return b, false
				}
			}
			if len(r.Diagnostics) > 0 {
				b = append(b, `,"diagnostics":[`...)
				for j := range r.Diagnostics {
					if j > 0 {
						b = append(b, ',')
					}
					b = appendDiagnostic(b, &r.Diagnostics[j])
					if flush != nil && len(b) >= 64<<10 {
						b = flush(b)
					}
				}
				b = append(b, ']')
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if fs.Suppressed != 0 {
		b = append(b, `,"suppressed":`...)
		b = appendInt(b, int(fs.Suppressed))
	}
	if len(fs.UnusedSuppressions) > 0 {
		b = append(b, `,"unused_suppressions":[`...)
		for i, u := range fs.UnusedSuppressions {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"line":`...)
			b = appendInt(b, int(u.Line))
			if u.Code != "" {
				b = append(b, `,"code":`...)
				b = appendJSONString(b, u.Code)
			}
			if u.File {
				b = append(b, `,"file_level":true`...)
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}'), true
}

// finiteScore reports whether every number of fs is finite: whether
// appendFileScore writes it whole (encoding/json refuses a NaN or an
// infinity).
func finiteScore(fs *nfi.FileScore) bool {
	for _, a := range nfi.Aspects {
		if v, has := fs.Scores.Get(a); has && (math.IsNaN(v) || math.IsInf(v, 0)) {
			return false
		}
	}
	for i := range fs.Rules {
		if v := fs.Rules[i].Value; v != nil && (math.IsNaN(*v) || math.IsInf(*v, 0)) {
			return false
		}
	}
	return true
}

// appendDiagnostic appends d as encoding/json writes a nfi.Diagnostic.
func appendDiagnostic(b []byte, d *nfi.Diagnostic) []byte {
	b = append(b, `{"rule":`...)
	b = appendJSONString(b, d.RuleID)
	b = append(b, `,"line":`...)
	b = appendInt(b, int(d.Line))
	b = append(b, `,"column":`...)
	b = appendInt(b, int(d.Column))
	if d.EndLine != 0 {
		b = append(b, `,"end_line":`...)
		b = appendInt(b, int(d.EndLine))
	}
	if d.EndColumn != 0 {
		b = append(b, `,"end_column":`...)
		b = appendInt(b, int(d.EndColumn))
	}
	b = append(b, `,"message":`...)
	b = appendJSONString(b, d.Message)
	if d.Suppressed != "" {
		b = append(b, `,"suppressed":`...)
		b = appendJSONString(b, d.Suppressed)
	}
	return append(b, '}')
}

// appendInt appends v in decimal, as strconv.AppendInt(b, int64(v), 10)
// does. The digits of a value below a million, all of a diagnostic's line
// and column numbers in practice, are written straight into b: strconv
// formats into its own buffer and copies it with a memmove call, which cost
// 1.4% of site-packages' CPU (four numbers per diagnostic).
func appendInt(b []byte, v int) []byte {
	if v < 0 || v >= 1_000_000 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	n := 1
	for x := v; x >= 10; x /= 10 {
		n++
	}
	l := len(b)
	if cap(b)-l < n {
		b = slices.Grow(b, n)
	}
	b = b[:l+n]
	for i := l + n - 1; i >= l; i-- {
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return b
}

// appendJSONFloat appends v as encoding/json writes a float64 (ECMAScript's
// number-to-string: the shortest decimal that reads back as v, exponent
// form below 1e-6 and from 1e21 on, "e-7" rather than "e-07"); ok is false
// for a NaN or an infinity, which JSON cannot hold.
func appendJSONFloat(b []byte, v float64) (_ []byte, ok bool) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return b, false
	}
	f := byte('f')
	if abs := math.Abs(v); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		f = 'e'
	}
	b = strconv.AppendFloat(b, v, f, -1, 64)
	if f == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, true
}

// jsonPlain marks the bytes appendJSONString writes as they are: ASCII from
// 0x20 up, but `"` and `\`.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json writes a string
// without HTML escaping: `"` and `\` backslash-escaped; \b \f \n \r \t by
// name and the other bytes below 0x20 as \u00XX; each byte of invalid
// UTF-8 as \ufffd; U+2028 and U+2029 as \u2028 and \u2029 (JSONP-safe);
// everything else, DEL included, as it is.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// the run of bytes written as they are, one table load each
		for i < len(s) && jsonPlain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
