/* A zlib stream's data, for compressed debug sections. No allocation: the
 * caller gives the output buffer, which is also the window. */
#ifndef UKASAN_SYMBOLIZE_INFLATE_H
#define UKASAN_SYMBOLIZE_INFLATE_H

#include <stddef.h>
#include <stdint.h>

/* A stream inflated a part at a time: a lookup in one early unit of
 * libc's 5.8 MB .debug_info needs its first kilobytes, not all of it. */
struct zlib_bits {
	const unsigned char *p, *end;
	uint64_t buf;
	unsigned cnt;
	int bad;
};
struct zlib_stream {
	struct zlib_bits b;
	int state;              /* 0 more to come, 1 ended, -1 corrupt */
	int last;               /* the block under way is the stream's last */
	const void *lit, *dist; /* its codes, while a block is under way */
	void *tables;           /* room for a block's codes: ZLIB_TABLES bytes */
};
#define ZLIB_TABLES 4096
/* tables: ZLIB_TABLES bytes, kept as long as the stream is inflated. */
void zlib_stream_init(struct zlib_stream *z, const unsigned char *in, size_t inlen, void *tables);
/* Into out, after the *have bytes of earlier calls (the window), until
 * *have reaches want or the stream ends, stopping within a block if need
 * be: the state (1 at the end, 0 stopped short, -1 for a corrupt stream or
 * one longer than cap). */
int zlib_inflate_more(struct zlib_stream *z, unsigned char *out, size_t cap, size_t *have,
                      size_t want);

/* The bytes written to out, or -1 for a corrupt stream or one longer than
 * cap. The trailing checksum is not verified. */
long zlib_inflate(const unsigned char *in, size_t inlen, unsigned char *out, size_t cap);

#endif
