// Package plural writes counts with their nouns for polynfi's output:
// "1 run", "2 runs", "0 runs". Every noun polynfi counts takes a plain -s
// plural; an irregular one is given whole to Of.
package plural

import "strconv"

// Count is n and noun, the noun plural (noun+"s") unless n is 1:
// Count(1, "run") = "1 run", Count(3, "run") = "3 runs".
func Count(n int, noun string) string {
	return strconv.Itoa(n) + " " + Noun(n, noun)
}

// Noun is noun for n = 1, noun+"s" otherwise.
func Noun(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// Of is n with one or other noun given whole: Of(1, "child", "children").
func Of(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
