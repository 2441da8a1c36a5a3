package testlog

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sync"
)

// rePytestFinal matches pytest's closing line: "==== 3 passed, 1 failed in
// 0.12s ====" (and "no tests ran in ...").
var rePytestFinal = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^=+ .*(?:passed|failed|error|errors|skipped|xfailed|xpassed|deselected|no tests ran).* in [0-9.]+s(?: \([0-9:]+\))? =+\s*$`)
})

// CountReports counts the complete reports of framework fw in log: the
// JSON documents of Jest and Mocha that decode (each match of the
// report's leading key), pytest's closing summary lines, unittest's "Ran N
// tests" lines. A test run prints exactly one; a second is a report that
// something other than the runner printed (a forged summary at exit, fake
// JSON among the tests' own output). For other frameworks, whose logs hold
// one line per test or per class and no single closing report, it returns
// 1 (-1 when fw is unknown).
func CountReports(fw Framework, log []byte) int {
	switch fw {
	case Jest:
		return countJSON(log, reJestJSON())
	case Mocha:
		return countJSON(log, reMochaJSON())
	case Pytest:
		return len(rePytestFinal().FindAllIndex(log, -1))
	case Unittest:
		return len(reUnittestRan().FindAllIndex(log, -1))
	case "":
		return -1
	}
	return 1
}

func countJSON(log []byte, start *regexp.Regexp) int {
	n := 0
	for _, loc := range start.FindAllIndex(log, -1) {
		var v map[string]json.RawMessage
		if err := json.NewDecoder(bytes.NewReader(log[loc[0]:])).Decode(&v); err == nil {
			n++
		}
	}
	return n
}
