#include "slugify.h"

static int is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

size_t slugify(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)in;

	if (cap == 0)
		return 0;
	for (; *p != '\0' && n + 1 < cap; p++) {
		unsigned char c = *p;
		if (is_alnum(c)) {
			out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : (char)c;
		} else {
			out[n++] = '-';
		}
	}
	out[n] = '\0';
	return n;
}
