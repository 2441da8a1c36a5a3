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
	norm := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	if bytes.HasPrefix(src, []byte{0xEF, 0xBB, 0xBF}) && name != "" && norm != "utf-8" {
		// CPython: with a BOM the declaration must say exactly utf-8
		return nil, "encoding problem: " + name + " with BOM"
	}
	switch norm {
	case "", "utf-8", "utf8", "utf-8-unix", "utf-8-dos", "utf-8-mac":
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

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
