package pyast

import "testing"

// The expected values follow Ruff's predicates (ruff_python_stdlib str.rs,
// pep8_naming); the non-ASCII rows were checked against ruff 0.17 N801/N802.
func TestNamingPredicates(t *testing.T) {
	tests := []struct {
		name                      string
		lower, upper, capW, mixed bool
	}{
		{"", true, true, false, false},
		{"_", true, true, false, false},
		{"a2c", true, false, false, false},
		{"snake_case", true, false, false, false},
		{"__init__", true, false, false, false},
		{"UPPER_CASE", false, true, false, false},
		{"_UPPER", false, true, true, false},
		{"A2C", false, true, true, false},
		{"CapWords", false, false, true, false},
		{"_Private", false, false, true, false},
		{"Snake_Case", false, false, false, false},
		{"mixedCase", false, false, false, true},
		{"_mixedCase", false, false, false, true},
		{"__mixedCase", false, false, false, false},
		{"état", true, false, false, false},
		{"Été", false, false, true, false},
		{"ÉTÉ", false, true, true, false},
		{"über", true, false, false, false},
		{"变量", false, false, false, false}, // caseless letters are neither (ruff flags def 变量)
		{"Ⅻ", false, true, true, false},    // Roman numeral: Nl, Uppercase
		{"aⅫ", false, false, false, true},
	}
	for _, tc := range tests {
		if got := IsLowercase(tc.name); got != tc.lower {
			t.Errorf("IsLowercase(%q) = %v, want %v", tc.name, got, tc.lower)
		}
		if got := IsUppercase(tc.name); got != tc.upper {
			t.Errorf("IsUppercase(%q) = %v, want %v", tc.name, got, tc.upper)
		}
		if got := IsCapWords(tc.name); got != tc.capW {
			t.Errorf("IsCapWords(%q) = %v, want %v", tc.name, got, tc.capW)
		}
		if got := IsMixedCase(tc.name); got != tc.mixed {
			t.Errorf("IsMixedCase(%q) = %v, want %v", tc.name, got, tc.mixed)
		}
	}
}

func TestIsDummyName(t *testing.T) {
	for name, want := range map[string]bool{
		"_": true, "__": true, "_x": true, "_unused": true, "__x1": true, "_1": true,
		"": false, "x": false, "_x_": false, "__x__": false, "x_": false, "_é": false,
	} {
		if got := IsDummyName(name); got != want {
			t.Errorf("IsDummyName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIsIgnoredName(t *testing.T) {
	for name, want := range map[string]bool{"setUp": true, "maxDiff": true, "setup": false, "setUpFoo": false} {
		if got := IsIgnoredName(name); got != want {
			t.Errorf("IsIgnoredName(%q) = %v, want %v", name, got, want)
		}
	}
}
