package pyast

import (
	"testing"
	"unsafe"
)

// TestTokenSize: a token takes 16 bytes (its span and end row are its
// node's); a large file has millions of them.
func TestTokenSize(t *testing.T) {
	if s := unsafe.Sizeof(Token{}); s != 16 {
		t.Errorf("pyast.Token takes %d bytes, want 16", s)
	}
}
