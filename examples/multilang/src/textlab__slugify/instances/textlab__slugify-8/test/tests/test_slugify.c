#include <stdio.h>
#include <string.h>

#include "slugify.h"

static int check(const char *in, size_t cap, const char *want)
{
	char out[128];
	size_t n = slugify(in, out, cap);
	if (strcmp(out, want) != 0 || n != strlen(want)) {
		fprintf(stderr, "slugify(\"%s\", %zu) = \"%s\" (%zu), want \"%s\"\n", in, cap, out, n, want);
		return 1;
	}
	return 0;
}

static int lowercases(void)
{
	return check("ABC", 128, "abc") | check("MiXeD", 128, "mixed");
}

static int keeps_digits(void)
{
	return check("route66", 128, "route66") | check("2024", 128, "2024");
}

static int truncates_to_capacity(void)
{
	return check("abcdef", 4, "abc") | check("abc", 1, "");
}

static int empty_input(void)
{
	return check("", 128, "");
}

static int collapses_separators(void)
{
	return check("Hello, World!", 128, "hello-world") | check("a  --  b", 128, "a-b");
}

static int trims_separators(void)
{
	return check("  --Hello--  ", 128, "hello") | check("!!!", 128, "") | check("ab  cd", 4, "ab");
}

static const struct {
	const char *name;
	int (*run)(void);
} cases[] = {
	{"lowercases", lowercases},
	{"keeps_digits", keeps_digits},
	{"truncates_to_capacity", truncates_to_capacity},
	{"empty_input", empty_input},
	{"collapses_separators", collapses_separators},
	{"trims_separators", trims_separators},
};

int main(int argc, char **argv)
{
	size_t i;
	if (argc != 2) {
		fprintf(stderr, "usage: %s CASE\n", argv[0]);
		return 2;
	}
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (strcmp(argv[1], cases[i].name) == 0)
			return cases[i].run();
	fprintf(stderr, "no case %s\n", argv[1]);
	return 2;
}
