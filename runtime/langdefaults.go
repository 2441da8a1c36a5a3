package runtime

import (
	"strings"
	"time"
)

// BuildTimeout is the default timeout of a test run that compiles the
// project first (C, C++, Rust), in seconds 1800: SWE-bench's own default
// for every instance (swebench/harness/run_evaluation.py, --timeout
// 1_800), which its Multilingual C, C++ and Rust instances run under.
const BuildTimeout = 1800 * time.Second

// LanguageDefaults are the container limits and test timeout a language's
// instances get when the run does not set them: CPUs in cores, MemoryBytes
// in bytes (a container's memory limit, swap included), Timeout the test
// command's wall time.
type LanguageDefaults struct {
	Language    string
	CPUs        float64
	MemoryBytes int64
	Timeout     time.Duration
}

// languageDefaults is the table of DefaultsFor, in the order the README
// shows it. Timeouts: SWE-PolyBench's (JAVA_TIMEOUT 1800 s, DEFAULT_TIMEOUT
// 1200 s) and SWE-bench's 1800 s for the languages that compile and link
// before a test runs. CPUs and memory are polynfi's choice, no benchmark
// publishes per-language limits: 2 cores and 4 GiB (the Docker runtime's
// limits before they were per language, enough for a JVM with Maven and
// forked Surefire, ~1.5 GiB, or Jest's workers); 4 cores and 8 GiB where a
// test run is a parallel native build whose link steps (rustc and LLVM,
// C++ template-heavy translation units with googletest) take 1-2 GiB per
// job.
var languageDefaults = []LanguageDefaults{
	{"Python", 2, 4 << 30, DefaultTimeout},
	{"Java", 2, 4 << 30, JavaTimeout},
	{"JavaScript", 2, 4 << 30, DefaultTimeout},
	{"TypeScript", 2, 4 << 30, DefaultTimeout},
	{"Go", 2, 4 << 30, DefaultTimeout},
	{"PHP", 2, 4 << 30, DefaultTimeout},
	{"Ruby", 2, 4 << 30, DefaultTimeout},
	{"C", 2, 4 << 30, BuildTimeout},
	{"C++", 4, 8 << 30, BuildTimeout},
	{"Rust", 4, 8 << 30, BuildTimeout},
}

// otherDefaults is DefaultsFor of a language not in the table.
var otherDefaults = LanguageDefaults{CPUs: 2, MemoryBytes: 4 << 30, Timeout: DefaultTimeout}

// DefaultsFor returns the defaults of language, matched case-insensitively
// with the spellings SWE-PolyBench, SWE-bench Multilingual and
// Multi-SWE-bench use ("cpp" and "c++" are C++, "js" JavaScript, "ts"
// TypeScript, "golang" Go); any other language gets 2 cores, 4 GiB and
// DefaultTimeout, with Language set to the name given.
func DefaultsFor(language string) LanguageDefaults {
	l := strings.ToLower(strings.TrimSpace(language))
	switch l {
	case "cpp", "cxx":
		l = "c++"
	case "js":
		l = "javascript"
	case "ts":
		l = "typescript"
	case "golang":
		l = "go"
	case "py":
		l = "python"
	case "rs":
		l = "rust"
	case "rb":
		l = "ruby"
	}
	for _, d := range languageDefaults {
		if strings.ToLower(d.Language) == l {
			return d
		}
	}
	d := otherDefaults
	d.Language = strings.TrimSpace(language)
	return d
}

// LanguageTable returns a copy of the per-language defaults, in a fixed
// order (the README's table).
func LanguageTable() []LanguageDefaults {
	return append([]LanguageDefaults(nil), languageDefaults...)
}

// WithDefaults returns l with every limit it leaves zero (CPUs,
// MemoryBytes) taken from d; Pids is left as it is.
func (l Limits) WithDefaults(d LanguageDefaults) Limits {
	if l.CPUs == 0 {
		l.CPUs = d.CPUs
	}
	if l.MemoryBytes == 0 {
		l.MemoryBytes = d.MemoryBytes
	}
	return l
}
