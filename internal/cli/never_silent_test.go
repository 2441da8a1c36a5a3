package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchWriter is a stderr that closes seen the first time a line holding
// want is written.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *watchWriter) String() string { w.mu.Lock(); defer w.mu.Unlock(); return w.buf.String() }

// TestEvalHeartbeatWhileInstanceRuns: an instance whose tests run until the
// test lets them end (a file appears in the dataset directory) is named by
// a heartbeat line while it runs, before any unit has finished. Without the
// heartbeat the non-terminal progress prints only when a unit finishes, so
// the instance would never be released and eval would end by its timeout
// first.
func TestEvalHeartbeatWhileInstanceRuns(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = 20 * time.Millisecond
	defer func() { heartbeatEvery = old }()

	ds := evalFixture(t, 1, "0")
	// The test command waits for the release file in a directory the
	// sandbox mounts (--writable), then passes.
	gate := t.TempDir()
	release := filepath.Join(gate, "release")
	data, err := os.ReadFile(ds)
	if err != nil {
		t.Fatal(err)
	}
	var row map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(data), &row); err != nil {
		t.Fatal(err)
	}
	row["test_command"] = `while [ ! -e '` + release + `' ]; do sleep 0.05; done; echo "==== test session starts ===="; echo "t.py::test_a PASSED"`
	line, _ := json.Marshal(row)
	if err := os.WriteFile(ds, append(line, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}

	stderr := &watchWriter{want: "evaluating: 0/1 done, ", seen: make(chan struct{})}
	var stdout bytes.Buffer
	ended := make(chan int, 1)
	go func() {
		ended <- Main(context.Background(), []string{"eval", "--dataset", ds, "--predictions", "gold", "--out", t.TempDir(), "--timeout", "90s", "--writable", gate}, &stdout, stderr)
	}()
	select {
	case <-stderr.seen:
	case code := <-ended:
		t.Fatalf("eval ended (exit %d) before a heartbeat line:\n%s", code, stderr.String())
	}
	if err := os.WriteFile(release, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := <-ended; code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	var hb string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.HasPrefix(l, "evaluating: 0/1 done, ") {
			hb = l
			break
		}
	}
	if !strings.Contains(hb, " elapsed; running acme__echo-0 (") {
		t.Errorf("heartbeat line %q does not name the running instance", hb)
	}
	if !strings.Contains(stdout.String(), "resolved 1/1") {
		t.Errorf("summary:\n%s", stdout.String())
	}
}
