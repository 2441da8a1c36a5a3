package images

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/polynfi/polynfi/dataset"
)

// TestRegistryAuth reads a Docker client configuration written here: an
// auths entry with "auth" (base64 of user:password), Docker Hub's
// https://index.docker.io/v1/ key for docker.io, a credential helper
// program (a script on PATH speaking the helpers' get protocol), a host
// with no entry (anonymous), and a file that is not JSON (an error naming it).
func TestRegistryAuth(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DOCKER_CONFIG", dir)
	bin := t.TempDir()
	helper := "#!/bin/sh\nread server\n[ \"$1\" = get ] || exit 2\n" +
		"case $server in reg.example.com) echo '{\"ServerURL\":\"reg.example.com\",\"Username\":\"<token>\",\"Secret\":\"tok-1\"}';;\n" +
		"*) echo 'credentials not found in native keychain'; exit 1;; esac\n"
	if err := os.WriteFile(filepath.Join(bin, "docker-credential-polynfitest"), []byte(helper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cfg := `{"auths": {"127.0.0.1:5000": {"auth": "dXNlcjpwQHNzOndvcmQ="},
	  "https://index.docker.io/v1/": {"auth": "aHViOmh1YnBhc3M="},
	  "https://ghcr.example.org/v2/": {"identitytoken": "id-9"}},
	  "credHelpers": {"reg.example.com": "polynfitest", "other.example.com": "polynfitest"}}`
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ host, user, pass, token string }{
		{"127.0.0.1:5000", "user", "p@ss:word", ""},
		{"docker.io", "hub", "hubpass", ""},
		{"ghcr.example.org", "", "", "id-9"},
		{"reg.example.com", "", "", "tok-1"},
		{"other.example.com", "", "", ""},
		{"nowhere.example.net:443", "", "", ""},
	} {
		a, err := RegistryAuth(tc.host)
		if err != nil {
			t.Errorf("%s: %v", tc.host, err)
			continue
		}
		if a.Username != tc.user || a.Password != tc.pass || a.IdentityToken != tc.token || a.Auth != "" {
			t.Errorf("%s: got %+v", tc.host, a)
		}
	}
	os.WriteFile(filepath.Join(dir, "config.json"), []byte("{not json"), 0o600)
	if _, err := RegistryAuth("127.0.0.1:5000"); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "config.json")) {
		t.Errorf("a broken config: %v, want an error naming the file", err)
	}
}

// TestPushNames: the names --push gives are those eval's --image-template
// expands to, lower case; bad prefixes are refused with the flag named.
func TestPushNames(t *testing.T) {
	in := dataset.Instance{InstanceID: "Org__Repo-12", Repo: "org/repo"}
	if got := Expand(PushTemplate("127.0.0.1:5000/team/pb/"), in); got != "127.0.0.1:5000/team/pb/org__repo-12" {
		t.Errorf("push name %q", got)
	}
	for _, p := range []string{"127.0.0.1:5000/polynfi", "registry.example.com/a/b", "localhost:5000/x"} {
		if err := CheckPushPrefix(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	for _, p := range []string{"polynfi", "Registry.example.com/A", "reg.example.com/a b", "library/x"} {
		if err := CheckPushPrefix(p); err == nil || !strings.Contains(err.Error(), "--push") {
			t.Errorf("%s: %v, want an error naming --push", p, err)
		}
	}
}
