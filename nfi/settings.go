package nfi

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Settings chooses rules and overrides their limits and options.
// The zero value runs every rule of the catalog with its default limits.
//
// Select and Ignore take rule IDs ("STY-T01"), aspect codes ("DOC") or ID
// prefixes ("LOG-T"). A rule runs when Select is empty or matches it, and
// Ignore does not match it. Source of the configuration shape: Ruff's
// [tool.ruff.lint] select/ignore.
type Settings struct {
	Select  []string                  `toml:"select" json:"select,omitempty"`
	Ignore  []string                  `toml:"ignore" json:"ignore,omitempty"`
	Limits  map[string]float64        `toml:"thresholds" json:"thresholds,omitempty"`
	Options map[string]map[string]any `toml:"options" json:"options,omitempty"`
	// Origin is the file the settings came from, "" for defaults.
	Origin string `toml:"-" json:"origin,omitempty"`
}

// NonDefault reports whether any setting differs from the defaults.
func (s Settings) NonDefault() bool {
	return len(s.Select) > 0 || len(s.Ignore) > 0 || len(s.Limits) > 0 || len(s.Options) > 0
}

func matches(patterns []string, r *Rule) bool {
	for _, p := range patterns {
		p = strings.ToUpper(strings.TrimSpace(p))
		if p == "ALL" || p == r.ID || p == r.Aspect.Code() || strings.HasPrefix(r.ID, p) {
			return true
		}
	}
	return false
}

// Selected reports whether the settings run rule r.
func (s Settings) Selected(r *Rule) bool {
	return (len(s.Select) == 0 || matches(s.Select, r)) && !matches(s.Ignore, r)
}

// Validate checks the settings against a catalog: every selector, limit and
// option names a known rule or aspect, and limits are only set for threshold
// rules. The error names the setting and, when known, the file.
func (s Settings) Validate(rules []*Rule) error {
	byID := map[string]*Rule{}
	for _, r := range rules {
		byID[r.ID] = r
	}
	where := s.Origin
	if where == "" {
		where = "settings"
	}
	var errs []error
	for _, list := range []struct {
		name string
		v    []string
	}{{"select", s.Select}, {"ignore", s.Ignore}} {
		for _, p := range list.v {
			ok := false
			for _, r := range rules {
				if matches([]string{p}, r) {
					ok = true
					break
				}
			}
			if !ok {
				errs = append(errs, fmt.Errorf("%s: %s: %q matches no rule", where, list.name, p))
			}
		}
	}
	for id, v := range s.Limits {
		r, ok := byID[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s: thresholds: unknown rule %q", where, id))
		case r.Limit == nil:
			errs = append(errs, fmt.Errorf("%s: thresholds: %s is a %s rule and has no threshold", where, id, r.Kind))
		case v < 0 || math.IsNaN(v) || math.IsInf(v, 0):
			errs = append(errs, fmt.Errorf("%s: thresholds: %s = %v: want a number >= 0 (%s)", where, id, v, r.Limit.Unit))
		}
	}
	for id, opts := range s.Options {
		r, ok := byID[id]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: options: unknown rule %q", where, id))
			continue
		}
		for name, v := range opts {
			kind, known := r.Options[name]
			switch {
			case !known && len(r.Options) == 0:
				errs = append(errs, fmt.Errorf("%s: options.%s: the rule takes no options (%q given)", where, id, name))
			case !known:
				errs = append(errs, fmt.Errorf("%s: options.%s: unknown option %q (known: %s)", where, id, name, optionNames(r)))
			case !kind.accepts(v):
				errs = append(errs, fmt.Errorf("%s: options.%s.%s = %v: want %s", where, id, name, v, kind))
			}
		}
	}
	return errors.Join(errs...)
}

func optionNames(r *Rule) string {
	var names []string
	for n := range r.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// LoadSettings reads settings from path: a polynfi.toml (top-level keys) or a
// pyproject.toml (the [tool.polynfi] table; a pyproject without one gives
// defaults). Errors name the file and, for TOML syntax errors, the line.
func LoadSettings(path string) (Settings, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Settings{}, err
	}
	var s Settings
	if filepath.Base(path) == "pyproject.toml" {
		var doc struct {
			Tool struct {
				Polynfi *Settings `toml:"polynfi"`
			} `toml:"tool"`
		}
		md, err := toml.Decode(string(data), &doc)
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", path, err)
		}
		if err := undecoded(path, md, "tool.polynfi."); err != nil {
			return Settings{}, err
		}
		if doc.Tool.Polynfi != nil {
			s = *doc.Tool.Polynfi
		}
	} else {
		md, err := toml.Decode(string(data), &s)
		if err != nil {
			return Settings{}, fmt.Errorf("%s: %w", path, err)
		}
		if err := undecoded(path, md, ""); err != nil {
			return Settings{}, err
		}
	}
	s.Origin = path
	return s, nil
}

func undecoded(path string, md toml.MetaData, prefix string) error {
	var bad []string
	for _, k := range md.Undecoded() {
		ks := k.String()
		if !strings.HasPrefix(ks, prefix) || strings.HasPrefix(ks, prefix+"options.") {
			continue
		}
		bad = append(bad, ks)
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("%s: unknown keys %s (want select, ignore, thresholds, options)", path, strings.Join(bad, ", "))
	}
	return nil
}

// FindSettings looks for polynfi.toml, then pyproject.toml with a
// [tool.polynfi] table, in dir and its parents. ok is false when none exists.
func FindSettings(dir string) (path string, ok bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for {
		if p := filepath.Join(dir, "polynfi.toml"); fileExists(p) {
			return p, true
		}
		if p := filepath.Join(dir, "pyproject.toml"); fileExists(p) {
			if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "[tool.polynfi") {
				return p, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
