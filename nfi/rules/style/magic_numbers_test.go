package style

import (
	"math/big"
	"math/rand"
	"strings"
	"testing"
)

// TestPrefixedValue checks the fast classification of hexadecimal, octal
// and binary literals against math/big, which isMagicValue uses otherwise.
func TestPrefixedValue(t *testing.T) {
	lits := []string{"0x0", "0x1", "0X01", "0x_1", "0x10", "0x2", "0xff", "0xFF", "0o0", "0o1", "0O7",
		"0o8", "0b0", "0b1", "0B0_0_1", "0b10", "0b2", "0x", "0x_", "0x1L", "0x1j", "0xg", "00", "01", "0", "1"}
	rng := rand.New(rand.NewSource(1))
	const chars = "0123456789abcdefABCDEF_lLjJ"
	for range 20000 {
		b := []byte{'0', "xXoObB"[rng.Intn(6)]}
		for range 1 + rng.Intn(5) {
			c := chars[rng.Intn(len(chars))]
			if rng.Intn(2) == 0 {
				c = "01_"[rng.Intn(3)]
			}
			b = append(b, c)
		}
		lits = append(lits, string(b))
	}
	for _, lit := range lits {
		v, ok := prefixedValue([]byte(lit))
		i, valid := new(big.Int).SetString(strings.ToLower(strings.ReplaceAll(lit, "_", "")), 0)
		if !ok {
			if valid && len(lit) > 1 && (lit[1]|0x20 == 'x' || lit[1]|0x20 == 'o' || lit[1]|0x20 == 'b') && !strings.ContainsAny(lit, "lLjJ") {
				t.Errorf("prefixedValue(%q) not classified, math/big reads %v", lit, i)
			}
			continue
		}
		if !valid {
			t.Errorf("prefixedValue(%q) = %d, but math/big rejects it", lit, v)
			continue
		}
		want := 2
		if i.Cmp(big.NewInt(0)) == 0 {
			want = 0
		} else if i.Cmp(big.NewInt(1)) == 0 {
			want = 1
		}
		if v != want {
			t.Errorf("prefixedValue(%q) = %d, want %d (math/big: %v)", lit, v, want, i)
		}
	}
}
