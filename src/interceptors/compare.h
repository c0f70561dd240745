/* How far a string comparison reads: up to the first difference or
 * terminator, and its check covers that much and no more, since a buffer
 * that differs early need not be terminated. One walk for the str* and
 * wcs* comparisons, exact or folding case. */
#ifndef UKASAN_INTERCEPTORS_COMPARE_H
#define UKASAN_INTERCEPTORS_COMPARE_H

#include <ctype.h>
#include <locale.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#include <wctype.h>

/* Case folding as the intercepted function does it: none, the thread's
 * locale (strcasecmp), or the one passed (strcasecmp_l). */
enum cmp_fold { CMP_EXACT, CMP_CASE, CMP_CASE_L };

/* len elements read; a and b the last pair (0, 0 when none was), which
 * the exact comparisons' results come from. long holds a wchar_t of
 * either signedness (signed on x86-64, unsigned on arm64) unchanged. */
struct cmp_scan {
	size_t len;
	long a, b;
};

static inline __attribute__((always_inline)) long cmp_fold(long c, size_t w, enum cmp_fold fold,
                                                           locale_t loc)
{
	if (fold == CMP_EXACT)
		return c;
	if (w == 1)
		return fold == CMP_CASE ? tolower((int)c) : tolower_l((int)c, loc);
	return fold == CMP_CASE ? (long)towlower((wint_t)c) : (long)towlower_l((wint_t)c, loc);
}

/* Elements of width w (1, or sizeof(wchar_t)) up to and including the
 * first pair that differs after folding, or a's terminator, at most n
 * (SIZE_MAX for the unbounded names). Inlined with constant w and fold,
 * each caller gets the plain loop it would have written. */
static inline __attribute__((always_inline)) struct cmp_scan
cmp_scan(const void *a, const void *b, size_t n, size_t w, enum cmp_fold fold, locale_t loc)
{
	struct cmp_scan s = {0, 0, 0};
	/* The unbounded names test no count: a string cannot reach SIZE_MAX. */
	while (n == SIZE_MAX || s.len < n) {
		if (w == 1) {
			s.a = ((const unsigned char *)a)[s.len];
			s.b = ((const unsigned char *)b)[s.len];
		} else {
			s.a = ((const wchar_t *)a)[s.len];
			s.b = ((const wchar_t *)b)[s.len];
		}
		s.len++;
		if (!s.a || cmp_fold(s.a, w, fold, loc) != cmp_fold(s.b, w, fold, loc))
			break;
	}
	return s;
}

#endif
