package doc

import (
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/polynfi/polynfi/internal/corpus"
	"github.com/polynfi/polynfi/nfi/pyast"
)

// TestCommentContainsCode pins verdicts observed from ruff 0.17 ERA001 on
// the same comments.
func TestCommentContainsCode(t *testing.T) {
	code := []string{
		"# x = 1", "# # x = 1", "#x=1", "## x = 1", "# import os", "# from os import path",
		"# print(foo)", "# return", "# return x", "# break", "# continue", "# foo(bar)",
		"# else:", "# else :", "# elif x:", "# try:", "# except ValueError:", "# except:",
		"# finally:", "# case 1:", "# case _:", "# if x: y = 1", "# def f(): pass",
		"# Note: this", "# default: None", "# Example: foo()", "# ValueError: bad",
		"# todo: x = 1", "# HACK: x = 1", `# "key": value,`, "# 'a': 1,", `# "a": {`,
		"# x = [", "# x = (", "# foo = bar(", "# a, b = (", "# x == (", "# }", "# )", "# ]]", "# [1]",
		"# x % y", "# x += 1", "# x == 1", "# x: int = 1", "# lambda: 0", "# e.g. foo(x)",
		"# x = 1 \\", "# infinity: value[1] is ignored", "# class A(Generic[*Ts]): ...",
		"# dict(a=1)", "# return (x)",
	}
	prose := []string{
		"#", "# if x:", "# for i in range(3):", "# def foo():", "# class A:", "# with open(f) as g:",
		"# print foo", "# print", "# Note: this is", "# TODO: x = 1", "# FIXME: x = 1",
		"# TODO(bob) x = 1", "# see issue #12 x = 1", "# type: ignore", "# noqa: E501",
		"# pylint: disable=foo", "# foo:", "# import", "# foo(", "# ),", "# x = (1,", "# 'a': 1",
		"# (see below)", "# Return True if x == 1", "# see foo()", "# i.e., x = 1", "# `foo()`",
		"# nosec x = 1", "# pyright: basic", "# region x = 1", "# -*- coding: utf-8 -*-",
		"# Result: 50%", "# yield x", "# This is a (real) comment.", "# 1, 2, 3",
		"# 1: ERROR_INVALID_FUNCTION", "# Date: 2009-06-24", "# raise ValueError, 'x'",
		"# data := *urlchar", "# HLS: Hue, Luminance, Saturation", "# then:",
		"# a (dirname, filenames) tuple", "# self - other is computed as self + other",
		"# flake8: noqa", "# transport, ex: SelectorSocketTransport", "# a.b = c(",
		"# x[0] = (", "# return (", "# \"a b\": {", "# language=python",
	}
	for _, c := range code {
		if !CommentContainsCode(c) {
			t.Errorf("CommentContainsCode(%q) = false, want true", c)
		}
	}
	for _, c := range prose {
		if CommentContainsCode(c) {
			t.Errorf("CommentContainsCode(%q) = true, want false", c)
		}
	}
}

func TestTaskDirective(t *testing.T) {
	for _, tc := range []struct {
		comment string
		tag     string
		offset  int
	}{
		{"# TODO: x", "TODO", 2},
		{"#todo", "todo", 1},
		{"# FixMe(bob)", "FixMe", 2},
		{"# foo # XXX bar", "XXX", 8},
		{"## HACK", "HACK", 3},
		{"# this is a TODO", "", 0},
		{"# TODOS", "", 0},
		{"# :TODO", "", 0},
	} {
		tag, off, ok := taskDirective(tc.comment)
		if tag != tc.tag || off != tc.offset || ok != (tc.tag != "") {
			t.Errorf("taskDirective(%q) = %q, %d, %v; want %q, %d", tc.comment, tag, off, ok, tc.tag, tc.offset)
		}
	}
}

func TestDocumentedParams(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string
	}{
		{"google", "Do.\n\nArgs:\n    a: x.\n    b (int): y.\n        continued: not an entry.\n    *args: z.\n\nReturns:\n    c: no.", []string{"a", "args", "b"}},
		{"numpy", "Do.\n\nParameters\n----------\na : int\n    x.\nb, c\n    y.\n\nReturns\n-------\nd : int", []string{"a", "b", "c"}},
		{"sphinx", "Do.\n\n:param a: x.\n:param int b: y.\n:type a: int\n:returns: z.", []string{"a", "b"}},
		{"none", "Do a and b.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := documentedParams(splitTestLines(tc.doc))
			var names []string
			for n := range got {
				names = append(names, n)
			}
			sortStrings(names)
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("documented (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLineWidth(t *testing.T) {
	for s, want := range map[string]int{
		"abc": 3, "\tx": 5, "ab\tx": 5, "全角": 4, "e\u0301": 1, "": 0,
	} {
		if got := lineWidth(s); got != want {
			t.Errorf("lineWidth(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzCommentContainsCode(f *testing.F) {
	for _, s := range []string{"# x = 1", "# else:", "# 'a': {", "# (", "#\t`x`", "# a, b = f("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		CommentContainsCode(s)
		taskDirective(s)
		pyast.PragmaStart(s)
	})
}

func FuzzDocumentedParams(f *testing.F) {
	for _, s := range []string{"Args:\n  a: b", "Parameters\n---\nx : y", ":param a:", ":param :::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		documentedParams(splitTestLines(s))
	})
}

func splitTestLines(s string) []string { return pyast.SplitLines(s) }

func sortStrings(s []string) { sort.Strings(s) }

// TestHasCodeIndicator checks the one-pass scan against its definition on
// every line of a stdlib sample and on edge cases.
func TestHasCodeIndicator(t *testing.T) {
	want := func(s string) bool {
		if strings.ContainsAny(s, "()[]{}:=%") {
			return true
		}
		for _, kw := range []string{"return", "break", "continue", "import"} {
			if strings.Contains(s, kw) {
				return true
			}
		}
		return false
	}
	lines := []string{"", "r", "retur", "xreturnx", "brea", "break", "continu", "imports", "é:", "\xff=", "a b c"}
	for _, f := range corpus.StdlibSample(t, 20) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(src), "\n")...)
	}
	for _, s := range lines {
		if got := hasCodeIndicator(s); got != want(s) {
			t.Errorf("hasCodeIndicator(%q) = %v, want %v", s, got, want(s))
		}
	}
}

// TestIsTaskTag checks isTaskTag against its definition, including
// non-ASCII letters that lower-case to ASCII ones.
func TestIsTaskTag(t *testing.T) {
	words := []string{"", "todo", "TODO", "ToDo", "fixme", "FIXME", "xxx", "XXX", "hack", "HACK",
		"todos", "tod", "xx", "HAC\u212a", "F\u0130XME", "t\u00f6do", "TODO\u0301", "hacks", "Note"}
	for _, w := range words {
		want := false
		switch strings.ToLower(w) {
		case "todo", "fixme", "xxx", "hack":
			want = true
		}
		if got := isTaskTag(w); got != want {
			t.Errorf("isTaskTag(%q) = %v, want %v", w, got, want)
		}
	}
}
