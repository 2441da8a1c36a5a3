package mine

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Change kinds: how a merged change appears on the first-parent history.
const (
	KindMerge  = "merge"  // a merge commit; its change is the diff against the first parent
	KindSquash = "squash" // a single-parent commit whose subject ends in "(#N)"
)

// Drop reasons of a merged change (every dropped change gets exactly one,
// checked in this order; a release is checked before a dependency update, so
// "Bump version to 2.0" is a release). Source: SWE-NFI §3.2 Stage 2 cleaning (bots,
// dependency updates, releases and version bumps, reverts), polynfi spec §5.2.
const (
	DropBlocklisted    = "blocklisted_repo"  // the repository is on the blocklist
	DropBot            = "bot_author"        // authored by a bot account
	DropRevert         = "revert"            // reverts an earlier change
	DropRelease        = "release"           // a release or version bump (by message, or only version lines changed)
	DropDependency     = "dependency_update" // updates dependencies
	DropNoPythonChange = "no_python_change"  // no modified source file (Mineable; the name is kept for old summaries)
)

var (
	mergePRRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Merge (?:pull request|PR) #(\d+)\b`) })
	squashPRRe  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(#(\d+)\)\s*$`) })
	mergeFromRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Merge (?:pull request|PR) #\d+ from (\S+)`) })
)

// kindOf classifies a first-parent commit: a merge, a squash commit (with its
// PR number), or "" for a direct commit that is not a merged change.
func kindOf(c commit) (kind string, pr int) {
	if len(c.Parents) >= 2 {
		if m := mergePRRe().FindStringSubmatch(c.Subject); m != nil {
			pr, _ = strconv.Atoi(m[1])
		} else if m := squashPRRe().FindStringSubmatch(c.Subject); m != nil {
			pr, _ = strconv.Atoi(m[1])
		}
		return KindMerge, pr
	}
	if len(c.Parents) == 1 {
		if m := squashPRRe().FindStringSubmatch(c.Subject); m != nil {
			pr, _ = strconv.Atoi(m[1])
			return KindSquash, pr
		}
	}
	return "", 0
}

// botPatterns match bot accounts in an author name or e-mail.
var botPatterns = []string{"[bot]", "dependabot", "renovate", "pre-commit-ci", "greenkeeper", "snyk-bot", "github-actions"}

func isBot(s string) bool {
	s = strings.ToLower(s)
	for _, p := range botPatterns {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// botBranchPrefixes are the branch names bots push pull requests from
// (Dependabot "dependabot/pip/x", Renovate "renovate/x", pre-commit.ci
// "pre-commit-ci-update-config", Greenkeeper, Snyk). A merge subject's source
// branch ("from org/branch") is only a bot's when the branch starts with one:
// a person's branch may well be called "github-actions" or "pre-commit-ci-schedule".
var botBranchPrefixes = []string{"dependabot/", "renovate/", "pre-commit-ci-update-config", "greenkeeper/", "snyk-fix-", "snyk-upgrade-"}

// isBotBranch reports whether "owner/branch" (or "branch") is a bot's branch.
func isBotBranch(ref string) bool {
	ref = strings.ToLower(ref)
	branch := ref
	if _, b, ok := strings.Cut(ref, "/"); ok {
		branch = b
	}
	for _, p := range botBranchPrefixes {
		if strings.HasPrefix(branch, p) || strings.HasPrefix(ref, p) {
			return true
		}
	}
	return false
}

var (
	// revertRe: git's own revert subject and body, and common variants.
	revertRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^(revert\b|reverts\b|\[revert\]|back ?out\b|rollback\b|roll back\b)`)
	})
	revertBodyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^This reverts commit [0-9a-f]{7,40}`) })

	// dependencyRe: dependency bumps as Dependabot/Renovate and people write them.
	dependencyRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^(build|chore|fix|ci)\((deps|deps-dev|dependencies)\)|^(bump|update|upgrade) (the )?\S+ (requirement )?from v?\d\S* to v?\d|^(bump|pin) \S+ to v?\d|\b(update|upgrade|bump|pin)s? (the |all )?(dependencies|dependency|deps|requirements)\b|^update (dependency|module)\b|^\[?deps?\]?:)`)
	})

	// releaseRe: releases and version bumps.
	releaseRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^(release|releasing|prepare (for )?(the )?(next )?release|preparing (for )?(the )?release|cut release)(\s+(of )?v?\d|\s*(\(#\d+\))?$|:)|^chore\(release\)|\b(bump|bumped|bumping|increment) (the )?(package |project )?version\b|\bversion bump\b|^v?\d+\.\d+(\.\d+)*([-.]?(a|b|rc|dev|post)\d*)?(\s*\(#\d+\))?$|^(bump|set|prepare) (to |for )?v?\d+\.\d+|\brelease (v|version )?\d+\.\d+|\bchangelog for v?\d+\.\d+|^merge (remote-tracking )?branch '(release|releases)(/[^']*|[-_]v?\d[^']*)?')`)
	})
)

// dropReasonMessage returns the cleaning reason of a merged change decided
// from its metadata alone, or "" when it is kept. headAuthor is the author of
// a merge's second parent (the pull request's head), "" for squash commits.
func dropReasonMessage(c commit, headAuthor string) string {
	if isBot(c.AuthorName) || isBot(c.AuthorEmail) || isBot(headAuthor) {
		return DropBot
	}
	if m := mergeFromRe().FindStringSubmatch(c.Subject); m != nil && isBotBranch(m[1]) {
		return DropBot
	}
	subject := subjectOf(c)
	if revertRe().MatchString(subject) || revertBodyRe().MatchString(c.Body) {
		return DropRevert
	}
	if releaseRe().MatchString(subject) {
		return DropRelease
	}
	if dependencyRe().MatchString(subject) {
		return DropDependency
	}
	return ""
}

// subjectOf returns the human title of a change: for GitHub merge commits
// ("Merge pull request #N from ..."), the first body line, which GitHub
// fills with the pull request title; otherwise the subject.
func subjectOf(c commit) string {
	if mergePRRe().MatchString(c.Subject) {
		if line, _, _ := strings.Cut(c.Body, "\n"); strings.TrimSpace(line) != "" {
			return strings.TrimSpace(line)
		}
	}
	return c.Subject
}

// versionLineRe matches a line that only assigns a version string.
var versionLineRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(__version__|version|VERSION|__version_info__|version_info|release|__release__)\s*(:\s*\w+\s*)?=\s*[\[(]?["']?[\w.\-+, '"]*["']?[\])]?\s*(#.*)?$`)
})

// isVersionOnly reports whether every changed line (lines only in a or only
// in b) assigns a version string: a version bump in Python code.
func isVersionOnly(changed []string) bool {
	n := 0
	for _, l := range changed {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !versionLineRe().MatchString(l) {
			return false
		}
		n++
	}
	return n > 0
}

// keywordText is the text matched against the keyword table: the subject
// and body, without GitHub's "Merge pull request #N from branch" line (a
// branch name such as "alice/docs" is not a statement about the change).
func keywordText(c commit) string {
	if mergePRRe().MatchString(c.Subject) {
		return c.Body
	}
	return c.Subject + "\n" + c.Body
}
