#include "slugify.h"

static int is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* ASCII letters for U+00C0..U+00FF (UTF-8 0xC3 0x80..0xBF), '-' where a
 * character has no one-letter fold (Æ, Ð, ×, Þ, ß, æ, ð, ÷, þ). */
static const char latin1_fold[] =
	"AAAAAA-CEEEEIIII-NOOOOO-OUUUUY--"
	"aaaaaa-ceeeeiiii-nooooo-ouuuuy-y";

size_t slugify(const char *in, char *out, size_t cap)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)in;

	if (cap == 0)
		return 0;
	for (; *p != '\0' && n + 1 < cap; p++) {
		unsigned char c = *p;
		if (c == 0xC3 && p[1] >= 0x80 && p[1] <= 0xBF) {
			/* a Latin-1 letter: its unaccented ASCII letter */
			c = (unsigned char)latin1_fold[p[1] - 0x80];
			p++;
		}
		if (is_alnum(c)) {
			out[n++] = (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : (char)c;
		} else {
			out[n++] = '-';
		}
	}
	out[n] = '\0';
	return n;
}
