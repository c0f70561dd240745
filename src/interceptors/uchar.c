/* Checked conversions between multibyte characters and UTF-8, UTF-16 and
 * UTF-32 units (mbrtoc8, mbrtoc16, mbrtoc32, c8rtomb, c16rtomb, c32rtomb),
 * linked into instrumented programs. As mbrtowc and wcrtomb in mbconv.c:
 * the conversion state is read first; the bytes read are checked after the
 * call; the unit or bytes made go to a variable or buffer of ours, and are
 * copied out once their destination is checked, a bad one making the call
 * fail with EFAULT without writing.
 *
 * Beyond mbrtowc: a character that takes more than one unit (a surrogate
 * pair, the bytes of UTF-8) is handed out one unit per call, the later
 * ones from the state with -3, reading nothing; and a unit that only
 * begins a character (a high surrogate, a UTF-8 lead byte) goes into the
 * state, the call writing no byte and returning 0. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <uchar.h>

#include "intercept.h"

REAL(size_t, mbrtoc8, char8_t *, const char *, size_t, mbstate_t *)
REAL(size_t, mbrtoc16, char16_t *, const char *, size_t, mbstate_t *)
REAL(size_t, mbrtoc32, char32_t *, const char *, size_t, mbstate_t *)
REAL(size_t, c8rtomb, char *, char8_t, mbstate_t *)
REAL(size_t, c16rtomb, char *, char16_t, mbstate_t *)
REAL(size_t, c32rtomb, char *, char32_t, mbstate_t *)

#define FAILED     ((size_t)-1)
#define INCOMPLETE ((size_t)-2)
#define FROM_STATE ((size_t)-3)

static int check(const void *p, size_t n, int write, uintptr_t ip)
{
	return __ukasan_check_range((uintptr_t)p, n, write, ip);
}

static size_t fail(void)
{
	errno = EFAULT;
	return FAILED;
}

/* The state is read (and written) by every call that has one. */
static int state_ok(const mbstate_t *ps, uintptr_t ip)
{
	return !ps || check(ps, sizeof(*ps), 0, ip);
}

/* The bytes of s one call read: r of them, the terminator's one, all n of
 * an incomplete character, at least the first of an invalid one, none for
 * a unit handed out from the state. A report must not change the errno the
 * call left. */
static void check_read(const char *s, size_t n, size_t r, uintptr_t ip)
{
	if (!s || !n || r == FROM_STATE)
		return;
	size_t len = r == INCOMPLETE ? n : r == 0 || r == FAILED ? 1 : r;
	int e = errno;
	check(s, len, 0, ip);
	errno = e;
}

/* Whether the unit made is to be written: whenever one was, a character's
 * or one from the state. */
static int unit_made(size_t r)
{
	return r != FAILED && r != INCOMPLETE;
}

size_t mbrtoc8(char8_t *pc8, const char *s, size_t n, mbstate_t *ps)
{
	if (!state_ok(ps, RET_IP))
		return fail();
	char8_t c;
	size_t r = get_mbrtoc8()(pc8 ? &c : NULL, s, n, ps);
	check_read(s, n, r, RET_IP);
	if (pc8 && s && unit_made(r)) {
		if (!CHECK_WRITE(pc8, sizeof(*pc8)))
			return fail();
		*pc8 = c;
	}
	return r;
}

size_t mbrtoc16(char16_t *pc16, const char *s, size_t n, mbstate_t *ps)
{
	if (!state_ok(ps, RET_IP))
		return fail();
	char16_t c;
	size_t r = get_mbrtoc16()(pc16 ? &c : NULL, s, n, ps);
	check_read(s, n, r, RET_IP);
	if (pc16 && s && unit_made(r)) {
		if (!CHECK_WRITE(pc16, sizeof(*pc16)))
			return fail();
		*pc16 = c;
	}
	return r;
}

size_t mbrtoc32(char32_t *pc32, const char *s, size_t n, mbstate_t *ps)
{
	if (!state_ok(ps, RET_IP))
		return fail();
	char32_t c;
	size_t r = get_mbrtoc32()(pc32 ? &c : NULL, s, n, ps);
	check_read(s, n, r, RET_IP);
	if (pc32 && s && unit_made(r)) {
		if (!CHECK_WRITE(pc32, sizeof(*pc32)))
			return fail();
		*pc32 = c;
	}
	return r;
}

/* The bytes made, copied out of our buffer once checked. */
static size_t put_bytes(char *s, const char *buf, size_t r, uintptr_t ip)
{
	if (r != FAILED && r && !check(s, r, 1, ip))
		return fail();
	if (r != FAILED)
		libc_memcpy(s, buf, r);
	return r;
}

size_t c8rtomb(char *s, char8_t c8, mbstate_t *ps)
{
	if (!state_ok(ps, RET_IP))
		return fail();
	if (!s)
		return get_c8rtomb()(NULL, c8, ps);
	char buf[MB_LEN_MAX];
	return put_bytes(s, buf, get_c8rtomb()(buf, c8, ps), RET_IP);
}

size_t c16rtomb(char *s, char16_t c16, mbstate_t *ps)
{
	if (!state_ok(ps, RET_IP))
		return fail();
	if (!s)
		return get_c16rtomb()(NULL, c16, ps);
	char buf[MB_LEN_MAX];
	return put_bytes(s, buf, get_c16rtomb()(buf, c16, ps), RET_IP);
}

size_t c32rtomb(char *s, char32_t c32, mbstate_t *ps)
{
	if (!state_ok(ps, RET_IP))
		return fail();
	if (!s)
		return get_c32rtomb()(NULL, c32, ps);
	char buf[MB_LEN_MAX];
	return put_bytes(s, buf, get_c32rtomb()(buf, c32, ps), RET_IP);
}
