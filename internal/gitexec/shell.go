package gitexec

import "strings"

// ShellFunc returns the definition of a shell function g: git with the
// options every git command of polynfi starts with (Overrides: configured
// programs neutralized, no transport but files) and any owner of the work
// tree accepted (safe.directory=*), for scripts that run git inside a
// sandbox or container, where Command cannot. With cleanEnv, g also runs
// git in the clean environment of Env (env -i, the sandbox's own PATH
// kept), for a shell whose environment is not polynfi's to set; without
// it the caller gives the script that environment.
func ShellFunc(cleanEnv bool) string {
	var b strings.Builder
	b.WriteString("g() { ")
	if cleanEnv {
		b.WriteString(`env -i PATH="$PATH"`)
		for _, kv := range Env("") {
			if !strings.HasPrefix(kv, "PATH=") {
				b.WriteString(" " + shellQuote(kv))
			}
		}
		b.WriteString(" ")
	}
	b.WriteString("git -c 'safe.directory=*'")
	for _, o := range Overrides() {
		b.WriteString(" " + shellQuote(o))
	}
	b.WriteString(` "$@"; }
`)
	return b.String()
}

// shellQuote quotes s for a POSIX shell, in single quotes.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
