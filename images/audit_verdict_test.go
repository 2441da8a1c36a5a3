package images

import "testing"

func TestImageAuditVerdict(t *testing.T) {
	for _, c := range []struct {
		a    ImageAudit
		want string
	}{
		{ImageAudit{Clean: true}, "clean"},
		{ImageAudit{Error: "start: no such image"}, "not audited: start: no such image"},
		{ImageAudit{Beyond: 3, Refs: []string{"refs/heads/main", "refs/tags/v2"}},
			"3 commit(s) beyond the base (refs: refs/heads/main, refs/tags/v2)"},
		{ImageAudit{Beyond: 1, Refs: []string{"HEAD"}, Leaks: []Leak{
			{Source: "patch", Files: []string{"/testbed/a.py", "/tmp/x"}},
			{Source: "test_patch", Files: []string{"/root/t.py"}}}},
			"1 commit(s) beyond the base (refs: HEAD); a line of the patch in /testbed/a.py, /tmp/x; a line of the test_patch in /root/t.py"},
		{ImageAudit{Leaks: []Leak{{Source: "patch", Files: []string{"/srv/fix.py"}}}}, "a line of the patch in /srv/fix.py"},
	} {
		if got := c.a.Verdict(); got != c.want {
			t.Errorf("%+v: Verdict() = %q, want %q", c.a, got, c.want)
		}
	}
}
