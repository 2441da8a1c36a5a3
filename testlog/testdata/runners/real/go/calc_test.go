package calc

import "testing"

func TestAdd(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("1+1")
	}
}

func TestDiv(t *testing.T) { t.Errorf("4/2 = %d, want 3", 4/2) }

func TestSkip(t *testing.T) { t.Skip("not today") }

func TestTable(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{{"one", true}, {"two", false}, {"same", true}, {"same", true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Log("output of", c.name)
			if !c.ok {
				t.Fail()
			}
		})
	}
}
