// Package stack is a fixture for testlog's go test -json golden.
package stack

import "testing"

func TestPush(t *testing.T) {
	s := []int{}
	s = append(s, 1)
	if len(s) != 1 {
		t.Fatalf("got %d, want 1", len(s))
	}
}

func TestPopWrong(t *testing.T) {
	t.Log("this test fails on purpose")
	t.Fatal("pop returned the wrong item")
}

func TestSkipped(t *testing.T) {
	t.Skip("not on this platform")
}

func TestTable(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
	}{{"one", 1}, {"two items", 2}, {"bad", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.n < 0 {
				t.Errorf("negative size %d", tc.n)
			}
		})
	}
}
