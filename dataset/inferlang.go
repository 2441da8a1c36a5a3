package dataset

import (
	"path"
	"strings"

	"github.com/polynfi/polynfi/diff"
)

// extLanguage maps a file extension (lower case, with the dot) to the
// language whose source it holds, as the language constants spell it. A
// ".h" header is C here and counts for C++ only beside C++ files
// (InferLanguage).
var extLanguage = map[string]string{
	".py": Python, ".pyi": Python,
	".java": Java,
	".js":   JavaScript, ".jsx": JavaScript, ".mjs": JavaScript, ".cjs": JavaScript,
	".ts": TypeScript, ".tsx": TypeScript, ".mts": TypeScript, ".cts": TypeScript,
	".go": Go,
	".rs": Rust,
	".c":  C, ".h": C,
	".cc": CPP, ".cpp": CPP, ".cxx": CPP, ".c++": CPP, ".hh": CPP, ".hpp": CPP, ".hxx": CPP, ".h++": CPP, ".ipp": CPP, ".tpp": CPP,
	".php": PHP, ".phtml": PHP,
	".rb": Ruby, ".rake": Ruby, ".gemspec": Ruby,
}

// InferLanguage names the language of a row that says none (SWE-bench and
// SWE-bench Multilingual rows carry no language field) from the files its
// patches change: the language with the most changed source files of the
// gold patch, else of the test patch; ties go to the language first
// changed. A ".h" header counts for C++ when the patch changes C++ files
// and no .c file, else for C. It returns "" when neither patch changes a
// source file of a language in extLanguage (Python, Java, JavaScript,
// TypeScript, Go, Rust, C, C++, PHP, Ruby). The patches are only scanned
// for their "diff --git" paths; a patch that does not parse gives "".
func InferLanguage(patch, testPatch string) string {
	for _, p := range []string{patch, testPatch} {
		if l := patchLanguage(p); l != "" {
			return l
		}
	}
	return ""
}

func patchLanguage(patch string) string {
	if patch == "" {
		return ""
	}
	count := map[string]int{}
	var order []string
	headers := 0
	for _, fp := range diff.ScanPaths(patch) {
		name := fp.New
		if name == "" || name == diff.DevNull {
			name = fp.Old
		}
		ext := strings.ToLower(path.Ext(name))
		if ext == ".h" {
			headers++
			continue
		}
		l, ok := extLanguage[ext]
		if !ok {
			continue
		}
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l]++
	}
	if headers > 0 {
		l := C
		if count[CPP] > 0 && count[C] == 0 {
			l = CPP
		}
		if count[l] == 0 {
			order = append(order, l)
		}
		count[l] += headers
	}
	best := ""
	for _, l := range order {
		if count[l] > count[best] {
			best = l
		}
	}
	return best
}
