#ifndef SLUGIFY_H
#define SLUGIFY_H

#include <stddef.h>

/* slugify writes a URL slug of the NUL-terminated UTF-8 string in into out
 * (capacity cap bytes, NUL included): ASCII letters lower-cased, digits
 * kept, every other byte a separator written as '-'. At most cap-1 bytes
 * are written. Returns the length of the slug (without the NUL). */
size_t slugify(const char *in, char *out, size_t cap);

#endif
