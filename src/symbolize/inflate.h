/* A zlib stream's data, for compressed debug sections. No allocation: the
 * caller gives the output buffer, which is also the window. */
#ifndef UKASAN_SYMBOLIZE_INFLATE_H
#define UKASAN_SYMBOLIZE_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/* The bytes written to out, or -1 for a corrupt stream or one longer than
 * cap. The trailing checksum is not verified. */
long zlib_inflate(const unsigned char *in, size_t inlen, unsigned char *out, size_t cap);

#endif
