/* Checked conversions between multibyte and wide-character strings
 * (mbstowcs, wcstombs, mbsrtowcs, wcsrtombs, mbsnrtowcs, wcsnrtombs, their
 * fortified forms) and single characters (mbtowc, wctomb, mbrtowc, wcrtomb,
 * mbrlen, mblen), linked into instrumented programs.
 *
 * What a conversion writes depends on the text, so it is found before the
 * call, writing nothing: for a string, from glibc's own count on a copy of
 * the conversion state; for a character, by converting into a buffer of our
 * own and copying out what was checked (as AddressSanitizer's wcrtomb does).
 * A bad destination, char ** or mbstate_t makes the call fail with EFAULT
 * without writing, so that a caller never takes text that was not written
 * for converted. What was read (the source up to where the conversion
 * stopped) is checked after the call, from where glibc left *src. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <wchar.h>

#include "intercept.h"

REAL(size_t, strlen, const char *)
REAL(size_t, strnlen, const char *, size_t)
REAL(size_t, wcslen, const wchar_t *)
REAL(size_t, wcsnlen, const wchar_t *, size_t)
REAL(size_t, mbsrtowcs, wchar_t *, const char **, size_t, mbstate_t *)
REAL(size_t, mbsnrtowcs, wchar_t *, const char **, size_t, size_t, mbstate_t *)
REAL(size_t, wcsrtombs, char *, const wchar_t **, size_t, mbstate_t *)
REAL(size_t, wcsnrtombs, char *, const wchar_t **, size_t, size_t, mbstate_t *)
REAL(size_t, mbrtowc, wchar_t *, const char *, size_t, mbstate_t *)
REAL(size_t, mbrlen, const char *, size_t, mbstate_t *)
REAL(size_t, wcrtomb, char *, wchar_t, mbstate_t *)
REAL(int, mbtowc, wchar_t *, const char *, size_t)
REAL(int, mblen, const char *, size_t)
REAL(int, wctomb, char *, wchar_t)

#define W        sizeof(wchar_t)
#define NO_LIMIT ((size_t)-1)
#define FAILED   ((size_t)-1)

static int check(const void *p, size_t n, int write, uintptr_t ip)
{
	return __ukasan_check_range((uintptr_t)p, n, write, ip);
}

/* A read checked after the call: a report must not change the errno the
 * call left. */
static void check_read_after(const void *p, size_t n, uintptr_t ip)
{
	int e = errno;
	check(p, n, 0, ip);
	errno = e;
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* A bad call of a fortified form: glibc's verdict on it (it aborts when its
 * object-size check fails), then EFAULT. */
static size_t fail(int overflows)
{
	if (overflows)
		__chk_fail();
	errno = EFAULT;
	return FAILED;
}

/* glibc's functions called with a NULL state use a static state of their
 * own, one per function; these stand in for them, so that the state can be
 * copied for the count that comes before the call. */
static mbstate_t mbsrtowcs_state, mbsnrtowcs_state, wcsrtombs_state, wcsnrtombs_state;

/* The conversion, one character at a time with glibc's mbrtowc/wcrtomb on
 * a copy of the state: what it writes (the terminator included) and reads
 * (including the first unit of an invalid sequence, and a character cut off
 * by the nms limit, which goes into the state). Only for what glibc's own
 * count cannot tell: text past an invalid sequence, or a destination too
 * small for the whole. */
struct extent {
	size_t out, in;
};

static struct extent towcs_walk(const char *s, size_t nms, size_t len, mbstate_t st)
{
	struct extent e = {0, 0};
	while (e.out < len && e.in < nms) {
		size_t avail = min_size(nms - e.in, MB_LEN_MAX);
		size_t r = get_mbrtowc()(NULL, s + e.in, avail, &st);
		if (r == FAILED) {
			e.in++;
			break;
		}
		if (r == (size_t)-2) {
			e.in += avail;
			break;
		}
		e.out++;
		if (r == 0) {
			e.in++;
			break;
		}
		e.in += r;
	}
	return e;
}

static struct extent tombs_walk(const wchar_t *s, size_t nwc, size_t len, mbstate_t st)
{
	struct extent e = {0, 0};
	char buf[MB_LEN_MAX];
	while (e.in < nwc) {
		size_t r = get_wcrtomb()(buf, s[e.in], &st);
		if (r == FAILED) {
			e.in++;
			break;
		}
		if (e.out + r > len)
			break;
		e.out += r;
		if (!s[e.in++])
			break;
	}
	return e;
}

/* The wchar_t a conversion into len of them writes. glibc counts over no
 * more bytes than len characters can take (MB_CUR_MAX each), so that a long
 * string converted a piece at a time is not counted whole each time: fewer
 * than len characters there means the text (or nms) ended first, and the
 * terminator is written when it is within reach. */
static size_t towcs_written(const char *s, size_t nms, size_t len, const mbstate_t *ps)
{
	size_t mb = MB_CUR_MAX;
	size_t lim = min_size(nms, len > NO_LIMIT / mb ? NO_LIMIT : len * mb);
	mbstate_t st = *ps;
	const char *p = s;
	size_t t = get_mbsnrtowcs()(NULL, &p, lim, 0, &st);
	if (t == FAILED)
		return towcs_walk(s, nms, len, *ps).out;
	if (t >= len)
		return len;
	return t + (get_strnlen()(s, lim) < lim);
}

/* The bytes a conversion into len of them writes: every character makes at
 * least one byte, so glibc counts over at most len of them; when the count
 * passes len, the last character that fits decides. */
static size_t tombs_written(const wchar_t *s, size_t nwc, size_t len, const mbstate_t *ps)
{
	size_t lim = min_size(nwc, len);
	mbstate_t st = *ps;
	const wchar_t *p = s;
	size_t t = get_wcsnrtombs()(NULL, &p, lim, 0, &st);
	if (t != FAILED && t < len)
		return t + (get_wcsnlen()(s, lim) < lim);
	if (t == len)
		return len;
	return tombs_walk(s, nwc, len, *ps).out;
}

/* mbsnrtowcs, or mbsrtowcs when nms is NO_LIMIT; overflows: the fortified
 * form's object-size check fails. */
static size_t towcs(wchar_t *dst, const char **src, size_t nms, size_t len, mbstate_t *ps,
                    int overflows, uintptr_t ip)
{
	const char *s = *src;
	mbstate_t before = *ps;
	int e = errno; /* the count may fail where the call will not */
	if (dst && !check(dst, towcs_written(s, nms, len, ps) * W, 1, ip))
		return fail(overflows);
	errno = e;
	if (overflows)
		__chk_fail();
	size_t r = nms == NO_LIMIT ? get_mbsrtowcs()(dst, src, len, ps)
	                           : get_mbsnrtowcs()(dst, src, nms, len, ps);
	size_t in;
	if (dst) /* glibc moved *src: to NULL past the terminator */
		in = !*src ? get_strlen()(s) + 1 : (size_t)(*src - s) + (r == FAILED);
	else if (r != FAILED)
		in = min_size(get_strnlen()(s, nms) + 1, nms);
	else
		in = towcs_walk(s, nms, NO_LIMIT, before).in;
	check_read_after(s, in, ip);
	return r;
}

static size_t tombs(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *ps,
                    int overflows, uintptr_t ip)
{
	const wchar_t *s = *src;
	mbstate_t before = *ps;
	int e = errno;
	if (dst && !check(dst, tombs_written(s, nwc, len, ps), 1, ip))
		return fail(overflows);
	errno = e;
	if (overflows)
		__chk_fail();
	size_t r = nwc == NO_LIMIT ? get_wcsrtombs()(dst, src, len, ps)
	                           : get_wcsnrtombs()(dst, src, nwc, len, ps);
	size_t in;
	if (dst)
		in = !*src ? get_wcslen()(s) + 1 : (size_t)(*src - s) + (r == FAILED);
	else if (r != FAILED)
		in = min_size(get_wcsnlen()(s, nwc) + 1, nwc);
	else
		in = tombs_walk(s, nwc, NO_LIMIT, before).in;
	check_read_after(s, in * W, ip);
	return r;
}

/* The char ** is read (and written) and so is the state. */
static int args_ok(const void *src, const mbstate_t *ps, uintptr_t ip)
{
	return (!src || check(src, sizeof(char *), 0, ip)) &&
	       (!ps || check(ps, sizeof(*ps), 0, ip));
}

/* glibc's mbstowcs and wcstombs are mbsrtowcs and wcsrtombs from a fresh
 * state. */
size_t mbstowcs(wchar_t *dst, const char *s, size_t len)
{
	mbstate_t st = {0};
	return towcs(dst, &s, NO_LIMIT, len, &st, 0, RET_IP);
}

size_t __mbstowcs_chk(wchar_t *dst, const char *s, size_t len, size_t dstlen)
{
	mbstate_t st = {0};
	return towcs(dst, &s, NO_LIMIT, len, &st, len > dstlen, RET_IP);
}

size_t wcstombs(char *dst, const wchar_t *s, size_t len)
{
	mbstate_t st = {0};
	return tombs(dst, &s, NO_LIMIT, len, &st, 0, RET_IP);
}

size_t __wcstombs_chk(char *dst, const wchar_t *s, size_t len, size_t dstlen)
{
	mbstate_t st = {0};
	return tombs(dst, &s, NO_LIMIT, len, &st, len > dstlen, RET_IP);
}

size_t mbsrtowcs(wchar_t *dst, const char **src, size_t len, mbstate_t *ps)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(0);
	return towcs(dst, src, NO_LIMIT, len, ps ? ps : &mbsrtowcs_state, 0, RET_IP);
}

size_t __mbsrtowcs_chk(wchar_t *dst, const char **src, size_t len, mbstate_t *ps, size_t dstlen)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(len > dstlen);
	return towcs(dst, src, NO_LIMIT, len, ps ? ps : &mbsrtowcs_state, len > dstlen, RET_IP);
}

size_t mbsnrtowcs(wchar_t *dst, const char **src, size_t nms, size_t len, mbstate_t *ps)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(0);
	return towcs(dst, src, nms, len, ps ? ps : &mbsnrtowcs_state, 0, RET_IP);
}

size_t __mbsnrtowcs_chk(wchar_t *dst, const char **src, size_t nms, size_t len, mbstate_t *ps,
                        size_t dstlen)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(len > dstlen);
	return towcs(dst, src, nms, len, ps ? ps : &mbsnrtowcs_state, len > dstlen, RET_IP);
}

size_t wcsrtombs(char *dst, const wchar_t **src, size_t len, mbstate_t *ps)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(0);
	return tombs(dst, src, NO_LIMIT, len, ps ? ps : &wcsrtombs_state, 0, RET_IP);
}

size_t __wcsrtombs_chk(char *dst, const wchar_t **src, size_t len, mbstate_t *ps, size_t dstlen)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(len > dstlen);
	return tombs(dst, src, NO_LIMIT, len, ps ? ps : &wcsrtombs_state, len > dstlen, RET_IP);
}

size_t wcsnrtombs(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *ps)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(0);
	return tombs(dst, src, nwc, len, ps ? ps : &wcsnrtombs_state, 0, RET_IP);
}

size_t __wcsnrtombs_chk(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *ps,
                        size_t dstlen)
{
	if (!args_ok(src, ps, RET_IP))
		return fail(len > dstlen);
	return tombs(dst, src, nwc, len, ps ? ps : &wcsnrtombs_state, len > dstlen, RET_IP);
}

/* The bytes of one character read by mbrtowc and mbrlen: r of them, the
 * terminator's one, all n of an incomplete one, and at least the first of
 * an invalid one. */
static size_t char_read(size_t r, size_t n)
{
	if (r == (size_t)-2)
		return n;
	return r == 0 || r == FAILED ? 1 : r;
}

size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps)
{
	if (ps && !CHECK_READ(ps, sizeof(*ps)))
		return fail(0);
	if (!s)
		return get_mbrtowc()(NULL, NULL, n, ps);
	wchar_t wc;
	size_t r = get_mbrtowc()(pwc ? &wc : NULL, s, n, ps);
	if (n)
		check_read_after(s, char_read(r, n), RET_IP);
	if (pwc && r < (size_t)-2) {
		if (!CHECK_WRITE(pwc, W))
			return fail(0);
		*pwc = wc;
	}
	return r;
}

size_t mbrlen(const char *s, size_t n, mbstate_t *ps)
{
	if (ps && !CHECK_READ(ps, sizeof(*ps)))
		return fail(0);
	size_t r = get_mbrlen()(s, n, ps);
	if (s && n)
		check_read_after(s, char_read(r, n), RET_IP);
	return r;
}

/* The name <wchar.h>'s inline mbrlen calls when optimizing. */
size_t __mbrlen(const char *s, size_t n, mbstate_t *ps) __attribute__((alias("mbrlen")));

/* mbtowc and mblen read the first byte even when n is 0, and fold an
 * incomplete character into -1. */
int mbtowc(wchar_t *pwc, const char *s, size_t n)
{
	if (!s)
		return get_mbtowc()(pwc, s, n);
	wchar_t wc;
	int r = get_mbtowc()(pwc ? &wc : NULL, s, n);
	check_read_after(s, r > 0 ? (size_t)r : 1, RET_IP);
	if (pwc && r != -1) {
		if (!CHECK_WRITE(pwc, W))
			return (int)fail(0);
		*pwc = wc;
	}
	return r;
}

int mblen(const char *s, size_t n)
{
	int r = get_mblen()(s, n);
	if (s)
		check_read_after(s, r > 0 ? (size_t)r : 1, RET_IP);
	return r;
}

/* One character into a buffer of ours, then the bytes it took copied out
 * once checked. */
static size_t put_char(char *s, const char *buf, size_t r, int overflows, uintptr_t ip)
{
	if (r != FAILED && !check(s, r, 1, ip))
		return fail(overflows);
	if (overflows)
		__chk_fail();
	if (r != FAILED)
		libc_memcpy(s, buf, r);
	return r;
}

size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps)
{
	if (ps && !CHECK_READ(ps, sizeof(*ps)))
		return fail(0);
	if (!s)
		return get_wcrtomb()(NULL, wc, ps);
	char buf[MB_LEN_MAX];
	return put_char(s, buf, get_wcrtomb()(buf, wc, ps), 0, RET_IP);
}

/* glibc's check: room for MB_CUR_MAX bytes, whatever the character. */
size_t __wcrtomb_chk(char *s, wchar_t wc, mbstate_t *ps, size_t buflen)
{
	int overflows = buflen < MB_CUR_MAX;
	if (ps && !CHECK_READ(ps, sizeof(*ps)))
		return fail(overflows);
	char buf[MB_LEN_MAX];
	return put_char(s, buf, get_wcrtomb()(buf, wc, ps), overflows, RET_IP);
}

int wctomb(char *s, wchar_t wc)
{
	if (!s)
		return get_wctomb()(NULL, wc);
	char buf[MB_LEN_MAX];
	return (int)put_char(s, buf, (size_t)(long)get_wctomb()(buf, wc), 0, RET_IP);
}

int __wctomb_chk(char *s, wchar_t wc, size_t buflen)
{
	char buf[MB_LEN_MAX];
	return (int)put_char(s, buf, (size_t)(long)get_wctomb()(buf, wc), buflen < MB_CUR_MAX,
	                     RET_IP);
}
