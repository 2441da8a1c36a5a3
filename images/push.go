package images

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/distribution/reference"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/registry"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/jsonmessage"

	"github.com/polynfi/polynfi/dataset"
)

// PushTemplate is the --image-template under which images pushed with
// prefix (REGISTRY/PREFIX, e.g. registry.example.com/evals/pb) are found:
// prefix + "/{id_lower}", the tag being "latest".
func PushTemplate(prefix string) string {
	return strings.TrimRight(prefix, "/") + "/{id_lower}"
}

// CheckPushPrefix returns an error naming prefix when an instance image
// name under it could not be a valid reference: the prefix must be lower
// case, a registry host[:port] and at least one path component.
func CheckPushPrefix(prefix string) error {
	p := strings.TrimRight(prefix, "/")
	if !strings.Contains(p, "/") {
		return fmt.Errorf("--push %q: want REGISTRY/PREFIX (e.g. 127.0.0.1:5000/polynfi or registry.example.com/team/evals)", prefix)
	}
	n, err := reference.ParseNamed(p + "/x")
	if err != nil {
		return fmt.Errorf("--push %q: not a repository name: %v", prefix, err)
	}
	if reference.Domain(n) != p[:strings.Index(p, "/")] {
		return fmt.Errorf("--push %q: the first component must be the registry host", prefix)
	}
	return nil
}

// Pushed is the outcome of Push: the remote name and the digest of the
// manifest the registry stored.
type Pushed struct {
	Name   string `json:"name"`
	Digest string `json:"digest,omitempty"`
}

// Push tags the local image under the name Expand(PushTemplate(prefix), in)
// and pushes it through the Docker Engine API, with the registry
// credentials of the Docker client configuration (RegistryAuth; anonymous
// when there are none). The engine's progress goes to log. Errors name the
// image and the registry.
func Push(ctx context.Context, cli *client.Client, local, prefix string, in dataset.Instance, log io.Writer) (Pushed, error) {
	name := Expand(PushTemplate(prefix), in)
	ref, err := reference.ParseNamed(name)
	if err != nil {
		return Pushed{}, fmt.Errorf("%s: push name %q: %v", in.InstanceID, name, err)
	}
	ref = reference.TagNameOnly(ref)
	name = ref.String()
	if err := cli.ImageTag(ctx, local, name); err != nil {
		return Pushed{}, fmt.Errorf("%s: tag %s as %s: %w", in.InstanceID, local, name, err)
	}
	host := reference.Domain(ref)
	auth, err := RegistryAuth(host)
	if err != nil {
		return Pushed{}, fmt.Errorf("%s: credentials for %s: %w", in.InstanceID, host, err)
	}
	enc, err := registry.EncodeAuthConfig(auth)
	if err != nil {
		return Pushed{}, err
	}
	rc, err := cli.ImagePush(ctx, name, image.PushOptions{RegistryAuth: enc})
	if err != nil {
		return Pushed{}, fmt.Errorf("%s: push %s: %w", in.InstanceID, name, err)
	}
	defer rc.Close()
	p := Pushed{Name: name}
	dec := json.NewDecoder(rc)
	for {
		var m jsonmessage.JSONMessage
		if err := dec.Decode(&m); err == io.EOF {
			break
		} else if err != nil {
			return p, fmt.Errorf("%s: push %s: reading the engine's output: %w", in.InstanceID, name, err)
		}
		switch {
		case m.Error != nil:
			fmt.Fprintf(log, "error: %s\n", m.Error.Message)
			return p, fmt.Errorf("%s: push %s to %s: %s", in.InstanceID, name, host, m.Error.Message)
		case m.Aux != nil:
			var aux struct{ Digest string }
			if json.Unmarshal(*m.Aux, &aux) == nil && aux.Digest != "" {
				p.Digest = aux.Digest
				fmt.Fprintf(log, "pushed %s@%s\n", name, aux.Digest)
			}
		case m.Status != "" && m.Progress == nil:
			fmt.Fprintf(log, "%s %s\n", m.ID, m.Status)
		}
	}
	if p.Digest == "" {
		return p, fmt.Errorf("%s: push %s: the engine reported no digest", in.InstanceID, name)
	}
	return p, nil
}

// RegistryAuth returns the credentials the Docker client configuration
// holds for host (a registry host[:port]; docker.io for Docker Hub): the
// file $DOCKER_CONFIG/config.json, else ~/.docker/config.json; a
// credHelpers entry for host or the credsStore is asked through its
// docker-credential-<name> program ("get", the server on stdin), else the
// auths entry is used ("auth" is base64 of user:password; identitytoken
// and registrytoken as given). No file or no entry: empty credentials
// (an anonymous push). A file that cannot be parsed is an error naming it.
// Source: the Docker CLI's configuration file format (docs.docker.com,
// "docker login", credential helpers protocol).
func RegistryAuth(host string) (registry.AuthConfig, error) {
	dir := os.Getenv("DOCKER_CONFIG")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return registry.AuthConfig{}, nil
		}
		dir = filepath.Join(home, ".docker")
	}
	file := filepath.Join(dir, "config.json")
	data, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return registry.AuthConfig{}, nil
	} else if err != nil {
		return registry.AuthConfig{}, err
	}
	var cfg struct {
		Auths       map[string]registry.AuthConfig `json:"auths"`
		CredsStore  string                         `json:"credsStore"`
		CredHelpers map[string]string              `json:"credHelpers"`
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return registry.AuthConfig{}, fmt.Errorf("%s: %v", file, err)
	}
	server := host
	if host == "docker.io" || host == "index.docker.io" || host == "registry-1.docker.io" {
		server = "https://index.docker.io/v1/"
	}
	helper := cfg.CredHelpers[host]
	if helper == "" {
		helper = cfg.CredsStore
	}
	if helper != "" {
		return helperAuth(helper, server)
	}
	for k, a := range cfg.Auths {
		if k != server && registryHost(k) != registryHost(server) {
			continue
		}
		if a.Auth != "" {
			raw, err := base64.StdEncoding.DecodeString(a.Auth)
			user, pass, ok := strings.Cut(string(raw), ":")
			if err != nil || !ok {
				return registry.AuthConfig{}, fmt.Errorf("%s: auths[%q].auth is not base64 of user:password", file, k)
			}
			a.Username, a.Password, a.Auth = user, pass, ""
		}
		a.ServerAddress = server
		return a, nil
	}
	return registry.AuthConfig{}, nil
}

// registryHost strips a scheme and a path: https://host:5000/v1/ -> host:5000.
func registryHost(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "https://"), "http://")
	h, _, _ := strings.Cut(s, "/")
	return h
}

// helperAuth asks docker-credential-<name> for server's credentials.
func helperAuth(name, server string) (registry.AuthConfig, error) {
	cmd := exec.Command("docker-credential-"+name, "get")
	cmd.Stdin = strings.NewReader(server)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(string(out) + stderr.String())
		if strings.Contains(msg, "credentials not found") {
			return registry.AuthConfig{}, nil
		}
		return registry.AuthConfig{}, fmt.Errorf("docker-credential-%s get %s: %v: %s", name, server, err, msg)
	}
	var c struct{ Username, Secret string }
	if err := json.Unmarshal(out, &c); err != nil {
		return registry.AuthConfig{}, fmt.Errorf("docker-credential-%s get %s: %v", name, server, err)
	}
	if c.Username == "<token>" {
		return registry.AuthConfig{IdentityToken: c.Secret, ServerAddress: server}, nil
	}
	return registry.AuthConfig{Username: c.Username, Password: c.Secret, ServerAddress: server}, nil
}
