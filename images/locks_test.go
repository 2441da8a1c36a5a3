package images

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestImageLocksLeaveNoFile: building an image takes a lock file under
// polynfi-image-locks/ that its release removes; locks of one image still
// exclude each other while files come and go; RemoveStaleLocks removes a
// lock file a killed build left (no holder) and keeps a held one.
func TestImageLocksLeaveNoFile(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dir := filepath.Join(tmp, lockDirName)
	release, err := lockImage(context.Background(), "unix:///d.sock", "img:1")
	if err != nil {
		t.Fatal(err)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Fatalf("while held: %d lock files, want 1", len(es))
	}
	release()
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("after release: %d lock files left, want 0", len(es))
	}

	// mutual exclusion holds while holders remove the file
	var inside, overlaps atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				rel, err := lockImage(context.Background(), "h", "same")
				if err != nil {
					t.Error(err)
					return
				}
				if inside.Add(1) > 1 {
					overlaps.Add(1)
				}
				time.Sleep(time.Millisecond)
				inside.Add(-1)
				rel()
			}
		})
	}
	wg.Wait()
	if n := overlaps.Load(); n > 0 {
		t.Errorf("%d times two holders of one image lock", n)
	}
	if es, _ := os.ReadDir(dir); len(es) != 0 {
		t.Errorf("after the builds: %d lock files left", len(es))
	}

	// a killed build's file (no holder) goes, a held one stays
	stale := filepath.Join(dir, "0123456789abcdef01234567.lock")
	os.WriteFile(stale, nil, 0o666)
	held := filepath.Join(dir, "76543210fedcba9876543210.lock")
	f, err := os.OpenFile(held, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if n := RemoveStaleLocks(); n != 1 {
		t.Errorf("RemoveStaleLocks removed %d, want 1", n)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale lock still there (%v)", err)
	}
	if _, err := os.Stat(held); err != nil {
		t.Errorf("held lock removed: %v", err)
	}
}
