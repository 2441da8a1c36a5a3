package pyast

import (
	"unicode"
	"unicode/utf8"
)

// IsLowercase reports whether s has no upper-case letters: no ASCII A-Z,
// and, from the first non-ASCII character on, every character is either
// lower case (Unicode Lowercase property) or not alphabetic. "", "_" and
// "a2c" are lowercase.
//
// Source: Ruff crates/ruff_python_stdlib/src/str.rs is_lowercase.
func IsLowercase(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			return false
		case c >= utf8.RuneSelf:
			for _, r := range s[i:] {
				if !isLowerRune(r) && isAlphabetic(r) {
					return false
				}
			}
			return true
		}
	}
	return true
}

// IsUppercase is the mirror image of IsLowercase: no ASCII a-z, and every
// non-ASCII alphabetic character upper case. "", "_" and "A2C" are uppercase.
//
// Source: Ruff crates/ruff_python_stdlib/src/str.rs is_uppercase.
func IsUppercase(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			return false
		case c >= utf8.RuneSelf:
			for _, r := range s[i:] {
				if !isUpperRune(r) && isAlphabetic(r) {
					return false
				}
			}
			return true
		}
	}
	return true
}

// IsCapWords reports the CapWords (PascalCase) convention of pep8-naming
// N801: after stripping leading underscores the first character is upper
// case, and the name contains no underscore. "_Private" passes; "_", "a_b",
// "Snake_Case" fail.
//
// Source: Ruff pep8_naming rules/invalid_class_name.rs.
func IsCapWords(s string) bool {
	i := 0
	for i < len(s) && s[i] == '_' {
		i++
	}
	rest := s[i:]
	if rest == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	if !isUpperRune(r) {
		return false
	}
	for j := 0; j < len(rest); j++ {
		if rest[j] == '_' {
			return false
		}
	}
	return true
}

// IsMixedCase reports mixedCase (pep8-naming N815/N816): the name is not
// lowercase and its first character after one optional leading underscore
// is lower case ("fooBar", "_fooBar").
//
// Source: Ruff pep8_naming helpers.rs is_mixed_case.
func IsMixedCase(s string) bool {
	if IsLowercase(s) {
		return false
	}
	if len(s) > 0 && s[0] == '_' {
		s = s[1:]
	}
	r, size := utf8.DecodeRuneInString(s)
	return size > 0 && isLowerRune(r)
}

// DefaultIgnoreNames is pep8-naming's default ignore-names list: names that
// the N80x naming rules never report (unittest and Django hooks).
//
// Source: Ruff pep8_naming settings.rs (IgnoreNames::Default).
var DefaultIgnoreNames = [...]string{
	"setUp", "tearDown", "setUpClass", "tearDownClass", "setUpModule", "tearDownModule",
	"asyncSetUp", "asyncTearDown", "setUpTestData", "failureException", "longMessage", "maxDiff",
}

// IsIgnoredName reports whether name is in DefaultIgnoreNames.
func IsIgnoredName(name string) bool {
	for _, s := range DefaultIgnoreNames {
		if s == name {
			return true
		}
	}
	return false
}

// IsDummyName reports whether name matches pylint's and Ruff's default
// dummy-variable-rgx `^(_+|(_+[a-zA-Z0-9_]*[a-zA-Z0-9]+?))$`: only
// underscores, or a leading underscore, ASCII word characters and a final
// ASCII letter or digit ("_", "__", "_x", "_1"; not "_x_" or "x").
//
// Source: Ruff ruff_linter settings DUMMY_VARIABLE_RGX; pylint dummy-variables-rgx.
func IsDummyName(name string) bool {
	if name == "" || name[0] != '_' {
		return false
	}
	allUnderscore := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			allUnderscore = false
		default:
			return false
		}
	}
	return allUnderscore || name[len(name)-1] != '_'
}

// isLowerRune is Unicode's Lowercase property (Ll plus Other_Lowercase), as
// Rust's char::is_lowercase.
func isLowerRune(r rune) bool {
	return unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r)
}

// isUpperRune is Unicode's Uppercase property (Lu plus Other_Uppercase), as
// Rust's char::is_uppercase.
func isUpperRune(r rune) bool {
	return unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r)
}

// isAlphabetic is Unicode's Alphabetic property (letters, letter numbers and
// Other_Alphabetic), as Rust's char::is_alphabetic.
func isAlphabetic(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_Alphabetic, r)
}
