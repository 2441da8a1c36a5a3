package runtime

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestDefaultsFor(t *testing.T) {
	for _, c := range []struct {
		lang    string
		cpus    float64
		mem     int64
		timeout time.Duration
	}{
		{"Python", 2, 4 << 30, 1200 * time.Second},
		{"java", 2, 4 << 30, 1800 * time.Second},
		{"Rust", 4, 8 << 30, 1800 * time.Second},
		{"cpp", 4, 8 << 30, 1800 * time.Second},
		{" C++ ", 4, 8 << 30, 1800 * time.Second},
		{"c", 2, 4 << 30, 1800 * time.Second},
		{"golang", 2, 4 << 30, 1200 * time.Second},
		{"PHP", 2, 4 << 30, 1200 * time.Second},
		{"Kotlin", 2, 4 << 30, 1200 * time.Second},
		{"", 2, 4 << 30, 1200 * time.Second},
	} {
		d := DefaultsFor(c.lang)
		if d.CPUs != c.cpus || d.MemoryBytes != c.mem || d.Timeout != c.timeout {
			t.Errorf("DefaultsFor(%q) = %+v, want %v cores, %d bytes, %v", c.lang, d, c.cpus, c.mem, c.timeout)
		}
		if TimeoutFor(c.lang) != c.timeout {
			t.Errorf("TimeoutFor(%q) = %v, want %v", c.lang, TimeoutFor(c.lang), c.timeout)
		}
	}
	if got := len(LanguageTable()); got != 10 {
		t.Errorf("LanguageTable has %d languages, want the ten of the README", got)
	}
}

func TestLimitsWithDefaults(t *testing.T) {
	rust := DefaultsFor("Rust")
	if got := (Limits{Pids: 100}).WithDefaults(rust); got != (Limits{CPUs: 4, MemoryBytes: 8 << 30, Pids: 100}) {
		t.Errorf("zero limits with Rust's defaults = %+v", got)
	}
	if got := (Limits{CPUs: 1, MemoryBytes: 1 << 30}).WithDefaults(rust); got != (Limits{CPUs: 1, MemoryBytes: 1 << 30}) {
		t.Errorf("given limits were replaced: %+v", got)
	}
}

// TestRustupHome: the rustup home is the .rustup beside the .cargo
// toolchain directory whatever HOME is (a fresh HOME lacks it), or
// $RUSTUP_HOME when set.
func TestRustupHome(t *testing.T) {
	t.Setenv("RUSTUP_HOME", "")
	os.Unsetenv("RUSTUP_HOME")
	t.Setenv("HOME", t.TempDir()) // not where rustup is
	user := t.TempDir()
	cargo := filepath.Join(user, ".cargo")
	if err := os.MkdirAll(filepath.Join(cargo, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := RustupHome([]string{cargo}); got != "" {
		t.Errorf("no .rustup: RustupHome = %q, want \"\"", got)
	}
	if err := os.Mkdir(filepath.Join(user, ".rustup"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := RustupHome([]string{"/opt/go", cargo}), filepath.Join(user, ".rustup"); got != want {
		t.Errorf("RustupHome = %q, want %q", got, want)
	}
	if got := RustupHome([]string{"/opt/go"}); got != "" {
		t.Errorf("no .cargo toolchain directory: RustupHome = %q, want \"\"", got)
	}
	elsewhere := t.TempDir()
	t.Setenv("RUSTUP_HOME", elsewhere)
	if got := RustupHome([]string{cargo}); got != elsewhere {
		t.Errorf("RUSTUP_HOME set: RustupHome = %q, want %q", got, elsewhere)
	}
	t.Setenv("RUSTUP_HOME", filepath.Join(elsewhere, "missing"))
	if got := RustupHome([]string{cargo}); got != "" {
		t.Errorf("RUSTUP_HOME not a directory: RustupHome = %q, want \"\"", got)
	}
}
