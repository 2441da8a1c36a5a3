#include "slugify.h"

static int is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

size_t slugify(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)in;

	int pending = 0; /* a separator seen since the last letter or digit */

	if (cap == 0)
		return 0;
	for (; *p != '\0'; p++) {
		unsigned char c = *p;
		if (!is_alnum(c)) {
			pending = n > 0;
			continue;
		}
		/* room for the separator and this character, and the NUL */
		if (n + (size_t)pending + 1 >= cap)
			break;
		if (pending)
			out[n++] = '-';
		pending = 0;
		out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : (char)c;
	}
	out[n] = '\0';
	return n;
}
