package runtime

import (
	"context"
	"testing"
)

// BenchmarkLocalRun measures what the sandbox adds to one command: /bin/true
// unisolated (process group, cgroups, rlimits) and under bubblewrap (user,
// PID, network, IPC, UTS and cgroup namespaces, the minimal file system).
func BenchmarkLocalRun(b *testing.B) {
	for _, c := range []struct {
		name string
		opts LocalOptions
	}{{"none", LocalOptions{NoIsolation: true}}, {"bwrap", LocalOptions{}}} {
		b.Run(c.name, func(b *testing.B) {
			l := newTestLocal(b, c.opts)
			if l.Refuses() {
				b.Skipf("bwrap unavailable: %s", l.Note())
			}
			dir := b.TempDir()
			for i := 0; i < b.N; i++ {
				if res, err := l.Run(context.Background(), Command{Args: []string{"/bin/true"}, Dir: dir}); err != nil || res.ExitCode != 0 {
					b.Fatalf("exit %d: %v %v", res.ExitCode, err, res.Notes)
				}
			}
		})
	}
}
