package agent

import (
	"fmt"
	"strings"

	"github.com/polynfi/polynfi/dataset"
)

// NFIPromptTemplate is the prompt of an SWE-NFI task. It follows SWE-NFI's
// set-up: the agent gets the natural-language request and the complete
// code before of every target file, and its answer is the complete code
// after, which it gives by leaving the revised files in the working
// directory (polynfi reads them from there). {description}, {aspect},
// {files} and {code_before} are filled per task; the tests are not shown.
//
// Source: SWE-NFI §4 (each run gets the task description and the code
// before and must produce the complete revised code after).
const NFIPromptTemplate = `You are improving the non-functional quality of existing Python code.

Request:
{description}

Target aspect: {aspect}
Files to revise: {files}

The complete code before is below and is also in the current working directory.
Revise the files in place so that each one holds your complete code after:
keep the behaviour and the public interface unchanged (the project's tests must
still pass), make the change the request asks for, and do not touch anything
else. Your answer is the content of the files when you finish.

{code_before}`

// InstancePromptTemplate is the prompt of a repository instance
// (SWE-PolyBench / SWE-bench): the problem statement and where the
// repository is; the answer is the change the agent leaves in the working
// tree (polynfi takes its diff against the base commit).
const InstancePromptTemplate = `You are working in a checkout of the {language} repository {repo} at commit {base_commit}
(the current working directory).

Resolve the following issue by editing the repository's source files. Do not
modify or add tests: hidden tests will check your change. When you finish, the
working tree must hold your complete change.

Issue:
{problem_statement}`

// aspectNames spells out the SWE-NFI aspect codes.
var aspectNames = map[string]string{
	"DOC": "DOC (documentation)",
	"ERR": "ERR (error handling)",
	"LIB": "LIB (library and API usage)",
	"STY": "STY (code style)",
	"LOG": "LOG (logic structure)",
}

// NFIPrompt renders NFIPromptTemplate for task: the description, the
// aspect, and every target file's code before in a fenced block headed by
// its path (a file new in the reference is listed as absent).
func NFIPrompt(t *dataset.NFITask) string {
	var code strings.Builder
	for i, f := range t.Files {
		if i > 0 {
			code.WriteString("\n")
		}
		if f.Before == "" {
			fmt.Fprintf(&code, "### %s\n(does not exist yet)\n", f.Path)
			continue
		}
		body := f.Before
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		fence := "```"
		for strings.Contains(body, fence) {
			fence += "`"
		}
		fmt.Fprintf(&code, "### %s\n%spython\n%s%s\n", f.Path, fence, body, fence)
	}
	aspect := t.Aspect.Code()
	if n, ok := aspectNames[aspect]; ok {
		aspect = n
	}
	r := strings.NewReplacer(
		"{description}", strings.TrimSpace(t.Description),
		"{aspect}", aspect,
		"{files}", strings.Join(t.TargetPaths(), ", "),
		"{code_before}", code.String(),
	)
	return r.Replace(NFIPromptTemplate)
}

// InstancePrompt renders InstancePromptTemplate for in.
func InstancePrompt(in *dataset.Instance) string {
	lang := in.Language
	if lang == "" {
		lang = "software"
	}
	r := strings.NewReplacer(
		"{language}", lang,
		"{repo}", in.Repo,
		"{base_commit}", in.BaseCommit,
		"{problem_statement}", strings.TrimSpace(in.ProblemStatement),
	)
	return r.Replace(InstancePromptTemplate) + "\n"
}
