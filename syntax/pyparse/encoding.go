package pyparse

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
)

// cookieRE is PEP 263's encoding declaration (CPython's tokenizer
// accepts it on line 1, or on line 2 when line 1 is blank or a comment).
var cookieRE = regexp.MustCompile(`^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)`)

// declaredEncoding returns the PEP 263 encoding name of src, "" if none.
func declaredEncoding(src []byte) string {
	lines := bytes.SplitN(bytes.TrimPrefix(src, []byte{0xEF, 0xBB, 0xBF}), []byte("\n"), 3)
	for i, l := range lines {
		if i == 2 {
			break
		}
		if m := cookieRE.FindSubmatch(l); m != nil {
			return string(m[1])
		}
		t := bytes.TrimLeft(l, " \t\f\r")
		if i == 0 && len(t) > 0 && t[0] != '#' {
			break
		}
	}
	return ""
}

// decodeSource turns src into UTF-8 as CPython reads it: by its encoding
// declaration (PEP 263), else as UTF-8. It returns src itself when no
// conversion is needed, and an error message when the declared encoding
// is unknown or the bytes do not decode.
func decodeSource(src []byte) ([]byte, string) {
	name := declaredEncoding(src)
	norm := normalEncoding(name)
	if bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}) && name != "" && norm != "utf-8" {
		// CPython: with a BOM the declaration must name utf-8 (or
		// utf-8-sig, which it reads as utf-8)
		msgName := name
		if norm == "iso-8859-1" {
			msgName = norm
		}
		return nil, "encoding problem: " + msgName + " with BOM"
	}
	switch norm {
	case "", "utf-8", "utf8":
		return src, ""
	}
	var enc encoding.Encoding
	switch norm {
	case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1", "iso-latin-1", "8859", "cp819", "latin":
		enc = charmap.ISO8859_1
	case "ascii", "us-ascii", "646":
		for i, c := range src {
			if c >= 0x80 {
				_ = i
				return nil, "(unicode error) 'ascii' codec can't decode byte"
			}
		}
		return src, ""
	default:
		var err error
		enc, err = ianaindex.IANA.Encoding(norm)
		if err != nil || enc == nil {
			enc, err = htmlindex.Get(norm)
		}
		if err != nil || enc == nil {
			return nil, "unknown encoding: " + name
		}
	}
	if isASCII(src) {
		return src, ""
	}
	out, err := enc.NewDecoder().Bytes(src)
	if err != nil || !utf8.Valid(out) {
		return nil, "(unicode error) '" + name + "' codec can't decode bytes"
	}
	return out, ""
}

// normalEncoding is CPython's tokenizer get_normal_name: the first 12
// characters lower-cased with "_" as "-"; "utf-8" and "utf-8-*" are
// "utf-8" (so utf-8-sig is utf-8), latin-1 and its spellings
// "iso-8859-1"; any other name is returned in that normalized spelling.
//
// Source: CPython Parser/tokenizer/helpers.c (Parser/tokenizer.c before
// 3.12), get_normal_name.
func normalEncoding(name string) string {
	buf := name
	if len(buf) > 12 {
		buf = buf[:12]
	}
	buf = strings.ReplaceAll(strings.ToLower(buf), "_", "-")
	switch {
	case buf == "utf-8" || strings.HasPrefix(buf, "utf-8-"):
		return "utf-8"
	case buf == "latin-1" || buf == "iso-8859-1" || buf == "iso-latin-1" ||
		strings.HasPrefix(buf, "latin-1-") || strings.HasPrefix(buf, "iso-8859-1-") || strings.HasPrefix(buf, "iso-latin-1-"):
		return "iso-8859-1"
	}
	return strings.ReplaceAll(strings.ToLower(name), "_", "-")
}

// UTF8OutsideComments reports whether CPython reads src, which may hold
// bytes that are not UTF-8, as UTF-8 source all the same: it declares no
// encoding or one CPython takes for UTF-8 (utf-8-sig, utf_8, ...), and
// every byte that does not decode lies in a comment, text CPython's
// tokenizer never decodes. It is false when the tokenizer stops at an
// error before such a byte. Parse gives the file's full verdict.
func UTF8OutsideComments(src []byte) bool {
	if n := normalEncoding(declaredEncoding(src)); n != "" && n != "utf-8" {
		return false
	}
	lx := tokenize(src, Latest, &buffers{}, true)
	_, bad := invalidOutsideComments(src, lx.extras)
	return !bad
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
