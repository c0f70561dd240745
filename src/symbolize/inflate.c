#include "inflate.h"

/* Debian's -dbgsym files compress their debug sections with zlib
 * (SHF_COMPRESSED), libc's among them; decoding them here is what lets a
 * report with libc frames avoid starting llvm-symbolizer. RFC 1950/1951,
 * with the whole output as the window, and every read and copy bounded. */

/* Tops the bit buffer up to at least 56 bits, or to the end of the input.
 * Eight bytes are read at once where eight are left: the bits above the
 * count are then the next input's, which a later read ORs in again
 * unchanged, so p only moves past the bytes counted. A report's libc frames
 * inflate libc's line table (1.3 MB); a byte at a time, that took 33 ms. */
static inline __attribute__((always_inline)) void refill(struct zlib_bits *b)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (b->end - b->p >= 8) {
		uint64_t v;
		__builtin_memcpy(&v, b->p, sizeof(v));
		b->buf |= v << b->cnt;
		b->p += (63 - b->cnt) >> 3;
		b->cnt |= 56;
		return;
	}
#endif
	while (b->cnt <= 56 && b->p < b->end) {
		b->buf |= (uint64_t)*b->p++ << b->cnt;
		b->cnt += 8;
	}
}

static inline __attribute__((always_inline)) unsigned get(struct zlib_bits *b, unsigned n)
{
	if (b->cnt < n) {
		refill(b);
		if (b->cnt < n) {
			b->bad = 1;
			return 0;
		}
	}
	unsigned v = (unsigned)(b->buf & ((1u << n) - 1));
	b->buf >>= n;
	b->cnt -= n;
	return v;
}

#define FAST 9 /* bits looked up at once: most codes are shorter */

/* A canonical code: how many codes of each length, the symbols in code
 * order, and for the next FAST bits of input, the symbol of a code no
 * longer than FAST with its length (len << 9 | symbol), or 0. */
struct huff {
	uint16_t count[16];
	uint16_t sym[288];
	uint16_t fast[1 << FAST];
};

static int build(struct huff *h, const unsigned char *len, unsigned n)
{
	uint16_t next[16];
	int left = 1;
	for (unsigned i = 0; i < 16; i++)
		h->count[i] = 0;
	for (unsigned i = 0; i < n; i++)
		h->count[len[i]]++;
	for (unsigned l = 1; l < 16; l++) {
		left = 2 * left - h->count[l];
		if (left < 0)
			return -1; /* more codes than the lengths allow */
	}
	next[1] = 0;
	for (unsigned l = 1; l < 15; l++)
		next[l + 1] = next[l] + h->count[l];
	for (unsigned i = 0; i < n; i++)
		if (len[i])
			h->sym[next[len[i]]++] = (uint16_t)i;
	for (unsigned i = 0; i < (1u << FAST); i++)
		h->fast[i] = 0;
	/* Input bits come first bit first, so a code's entries are at its bit
	 * reversal, repeated for every value of the bits after it. */
	unsigned code = 0, index = 0;
	for (unsigned l = 1; l <= FAST; l++) {
		for (unsigned k = 0; k < h->count[l]; k++, code++) {
			unsigned rev = 0;
			for (unsigned bit = 0; bit < l; bit++)
				rev |= ((code >> bit) & 1) << (l - 1 - bit);
			for (unsigned j = rev; j < (1u << FAST); j += 1u << l)
				h->fast[j] = (uint16_t)(l << 9 | h->sym[index + k]);
		}
		index += h->count[l];
		code <<= 1;
	}
	return 0;
}

/* Codes are sent first bit first, so the code grows one bit at a time and
 * is compared with the first code of each length. */
static inline __attribute__((always_inline)) int decode(struct zlib_bits *b, const struct huff *h)
{
	int code = 0, first = 0, index = 0;
	if (b->cnt < 15) /* the longest code */
		refill(b);
	unsigned e = h->fast[b->buf & ((1u << FAST) - 1)];
	if (e && (e >> 9) <= b->cnt) {
		b->buf >>= e >> 9;
		b->cnt -= e >> 9;
		return e & 0x1ff;
	}
	for (unsigned l = 1; l < 16; l++) {
		code |= (int)get(b, 1);
		int count = h->count[l];
		if (code - first < count)
			return h->sym[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
		if (b->bad)
			return -1;
	}
	return -1;
}

static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                      15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
    1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
    193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

struct out {
	unsigned char *p;
	size_t n, cap;
};

/* The bit reader is a local copy while the output is written (given back
 * at the block's end): stores through the output's char pointer could alias
 * it, and the compiler would keep it in memory. */
static int codes(struct zlib_bits *in, struct out *o, const struct huff *lit,
                 const struct huff *dist, size_t want)
{
	struct zlib_bits local = *in, *b = &local;
	for (;;) {
		if (o->n >= want) { /* enough for now: the block goes on later */
			*in = local;
			return 1;
		}
		int s = decode(b, lit);
		if (s < 0)
			return -1;
		if (s < 256) {
			if (o->n >= o->cap)
				return -1;
			o->p[o->n++] = (unsigned char)s;
			continue;
		}
		if (s == 256) {
			*in = local;
			return 0;
		}
		s -= 257;
		if (s >= 29)
			return -1;
		size_t len = len_base[s] + get(b, len_extra[s]);
		int d = decode(b, dist);
		if (d < 0 || d >= 30)
			return -1;
		size_t back = dist_base[d] + get(b, dist_extra[d]);
		if (b->bad || back > o->n || len > o->cap - o->n)
			return -1;
		/* The copy may overlap its source: eight bytes at a time only
		 * from at least eight back, where those are all written. */
		unsigned char *to = o->p + o->n;
		const unsigned char *from = to - back;
		size_t i = 0;
		if (back >= 8)
			for (; i + 8 <= len; i += 8)
				__builtin_memcpy(to + i, from + i, 8);
		for (; i < len; i++)
			to[i] = from[i];
		o->n += len;
	}
}

/* A dynamic block's header: its codes into lit and dist. */
static int dynamic(struct zlib_bits *b, struct huff *lit, struct huff *dist)
{
	static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
	                                  11, 4,  12, 3, 13, 2, 14, 1, 15};
	unsigned char len[320];
	unsigned nlit = get(b, 5) + 257, ndist = get(b, 5) + 1, ncode = get(b, 4) + 4;
	if (b->bad || nlit > 286 || ndist > 30)
		return -1;
	for (unsigned i = 0; i < 19; i++)
		len[order[i]] = i < ncode ? (unsigned char)get(b, 3) : 0;
	if (build(lit, len, 19))
		return -1;
	for (unsigned i = 0; i < nlit + ndist;) {
		int s = decode(b, lit);
		unsigned rep, val = 0;
		if (s < 0)
			return -1;
		if (s < 16) {
			len[i++] = (unsigned char)s;
			continue;
		}
		if (s == 16) {
			if (!i)
				return -1;
			val = len[i - 1];
			rep = 3 + get(b, 2);
		} else if (s == 17) {
			rep = 3 + get(b, 3);
		} else {
			rep = 11 + get(b, 7);
		}
		if (b->bad || i + rep > nlit + ndist)
			return -1;
		while (rep--)
			len[i++] = (unsigned char)val;
	}
	if (!len[256] || build(lit, len, nlit) || build(dist, len + nlit, ndist))
		return -1;
	return 0;
}

static struct huff fixed_lit, fixed_dist;

static void fixed(void)
{
	static int built;
	if (!built) {
		unsigned char len[288];
		for (unsigned i = 0; i < 288; i++)
			len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
		build(&fixed_lit, len, 288);
		for (unsigned i = 0; i < 30; i++)
			len[i] = 5;
		build(&fixed_dist, len, 30);
		built = 1;
	}
}

/* A stored block starts on a byte: the bits left of the current one go,
 * but whole bytes decode() read ahead are given back. */
static int stored(struct zlib_bits *b, struct out *o)
{
	b->p -= b->cnt / 8;
	b->buf = 0;
	b->cnt = 0;
	if (b->end - b->p < 4)
		return -1;
	size_t n = b->p[0] | (size_t)b->p[1] << 8;
	if ((n ^ 0xffff) != (size_t)(b->p[2] | b->p[3] << 8))
		return -1;
	b->p += 4;
	if (n > (size_t)(b->end - b->p) || n > o->cap - o->n)
		return -1;
	for (size_t i = 0; i < n; i++)
		o->p[o->n++] = *b->p++;
	return 0;
}

void zlib_stream_init(struct zlib_stream *z, const unsigned char *in, size_t inlen, void *tables)
{
	*z = (struct zlib_stream){{in, in + inlen, 0, 0, 0}, 0, 0, NULL, NULL, tables};
	/* the zlib header: deflate, no preset dictionary */
	if (inlen < 2 || (in[0] & 0x0f) != 8 || ((in[0] << 8) | in[1]) % 31 || (in[1] & 0x20))
		z->state = -1;
	else
		z->b.p += 2;
}

int zlib_inflate_more(struct zlib_stream *z, unsigned char *out, size_t cap, size_t *have,
                      size_t want)
{
	_Static_assert(2 * sizeof(struct huff) <= ZLIB_TABLES, "ZLIB_TABLES too small");
	struct zlib_bits *b = &z->b;
	struct out o = {out, *have, cap};
	while (z->state == 0 && o.n < want) {
		if (!z->lit) { /* the next block's header */
			z->last = (int)get(b, 1);
			unsigned type = get(b, 2);
			struct huff *t = z->tables;
			if (b->bad || type == 3) {
				z->state = -1;
			} else if (type == 0) {
				z->state = stored(b, &o) ? -1 : z->last;
			} else if (type == 1) {
				fixed();
				z->lit = &fixed_lit;
				z->dist = &fixed_dist;
			} else if (dynamic(b, &t[0], &t[1])) {
				z->state = -1;
			} else {
				z->lit = &t[0];
				z->dist = &t[1];
			}
			continue;
		}
		int r = codes(b, &o, z->lit, z->dist, want);
		if (r < 0) {
			z->state = -1;
		} else if (r == 0) { /* the block's end */
			z->lit = z->dist = NULL;
			z->state = z->last;
		}
	}
	*have = o.n;
	return z->state;
}

long zlib_inflate(const unsigned char *in, size_t inlen, unsigned char *out, size_t cap)
{
	struct zlib_stream z;
	struct huff tables[2];
	size_t n = 0;
	zlib_stream_init(&z, in, inlen, tables);
	return zlib_inflate_more(&z, out, cap, &n, (size_t)-1) == 1 ? (long)n : -1;
}
