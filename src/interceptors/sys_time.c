/* Clocks, timers, sleeps, resource usage and the broken-down time
 * functions: the structures they fill (all of them) and read. Checked
 * before the call (io.h); a bad one fails it with EFAULT. The text ones
 * (ctime_r, asctime_r, strftime), which are not told how large the buffer
 * is or only its capacity, make their text in a buffer of our own first:
 * the bytes it takes, with its terminator, are checked in the program's
 * buffer, then copied, as printf.c does for snprintf. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

#include "io.h"

#define CHECK_TM(p) CHECK_WRITE(p, sizeof(struct tm))

// clang-format off
CHECKED(int, gettimeofday, (struct timeval *tv, void *tz), (tv, tz),
	CHECK_WRITE_OPT(MAYBE_NULL(tv), sizeof(*tv)) &&
	CHECK_WRITE_OPT(tz, sizeof(struct timezone)), -1)
CHECKED(time_t, time, (time_t *t), (t), CHECK_WRITE_OPT(t, sizeof(*t)), (time_t)-1)
/* libukasan.so times its own work. */
CHECKED(int, clock_gettime, (clockid_t clock, struct timespec *tp), (clock, tp),
	FROM_RUNTIME || CHECK_WRITE(tp, sizeof(*tp)), -1)
CHECKED(int, clock_getres, (clockid_t clock, struct timespec *tp), (clock, tp),
	CHECK_WRITE_OPT(tp, sizeof(*tp)), -1)
CHECKED(int, nanosleep, (const struct timespec *req, struct timespec *rem), (req, rem),
	CHECK_READ(req, sizeof(*req)) && CHECK_WRITE_OPT(rem, sizeof(*rem)), -1)
/* It answers an error number. */
CHECKED(int, clock_nanosleep,
	(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem),
	(clock, flags, req, rem),
	CHECK_READ(req, sizeof(*req)) && CHECK_WRITE_OPT(rem, sizeof(*rem)), EFAULT)
CHECKED(int, getitimer, (__itimer_which_t which, struct itimerval *v), (which, v),
	CHECK_WRITE(v, sizeof(*v)), -1)
CHECKED(int, setitimer,
	(__itimer_which_t which, const struct itimerval *v, struct itimerval *old),
	(which, v, old), CHECK_READ_OPT(v, sizeof(*v)) && CHECK_WRITE_OPT(old, sizeof(*old)), -1)
CHECKED(clock_t, times, (struct tms *t), (t), CHECK_WRITE(t, sizeof(*t)), (clock_t)-1)
CHECKED(int, getrusage, (__rusage_who_t who, struct rusage *u), (who, u),
	CHECK_WRITE(u, sizeof(*u)), -1)

CHECKED(struct tm *, localtime_r, (const time_t *t, struct tm *tm), (t, tm),
	CHECK_READ(t, sizeof(*t)) && CHECK_TM(tm), NULL)
CHECKED(struct tm *, gmtime_r, (const time_t *t, struct tm *tm), (t, tm),
	CHECK_READ(t, sizeof(*t)) && CHECK_TM(tm), NULL)
CHECKED(struct tm *, localtime, (const time_t *t), (t), CHECK_READ(t, sizeof(*t)), NULL)
CHECKED(struct tm *, gmtime, (const time_t *t), (t), CHECK_READ(t, sizeof(*t)), NULL)
CHECKED(char *, ctime, (const time_t *t), (t), CHECK_READ(t, sizeof(*t)), NULL)
CHECKED(char *, asctime, (const struct tm *tm), (tm), CHECK_READ(tm, sizeof(*tm)), NULL)
/* They normalise the structure in place. */
CHECKED(time_t, mktime, (struct tm *tm), (tm), CHECK_TM(tm), (time_t)-1)
CHECKED(time_t, timegm, (struct tm *tm), (tm), CHECK_TM(tm), (time_t)-1)
// clang-format on

LIBC(ctime_r)
LIBC(asctime_r)
LIBC(strftime)

/* The 26 bytes glibc formats a time into; when the text does not fit, it
 * writes what does and fails with EOVERFLOW. tmp was made with its first
 * byte 0: still 0, nothing was written. */
static char *put_text(char *buf, const char *tmp, char *r, uintptr_t ip)
{
	int e = errno;
	if (!tmp[0])
		return r;
	size_t n = io_strlen(tmp) + 1;
	if (!__ukasan_check_range((uintptr_t)buf, n, 1, ip)) {
		errno = EFAULT;
		return NULL;
	}
	libc_memcpy(buf, tmp, n);
	errno = e;
	return r ? buf : NULL;
}

INTERPOSER char *ctime_r(const time_t *t, char *buf)
{
	char tmp[26] = "";
	if (!CHECK_READ(t, sizeof(*t))) {
		errno = EFAULT;
		return NULL;
	}
	return put_text(buf, tmp, get_ctime_r()(t, tmp), RET_IP);
}

INTERPOSER char *asctime_r(const struct tm *tm, char *buf)
{
	char tmp[26] = "";
	if (!CHECK_READ(tm, sizeof(*tm))) {
		errno = EFAULT;
		return NULL;
	}
	return put_text(buf, tmp, get_asctime_r()(tm, tmp), RET_IP);
}

/* The text made in tmp (cap bytes): its length, or -1 when it does not fit
 * (glibc answers 0 for both an empty text and one too long; the first byte
 * tells them apart). */
static long format(char *tmp, size_t cap, const char *fmt, const struct tm *tm)
{
	tmp[0] = 1;
	size_t r = get_strftime()(tmp, cap, fmt, tm);
	return r || !tmp[0] ? (long)r : -1;
}

/* The text and its terminator are written; most texts fit a small buffer
 * of ours, whatever max says. One that does not fit in max has glibc answer
 * 0 having written some of the max bytes: then all max are checked, and
 * glibc's writes them. */
INTERPOSER size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm)
{
	char small[512], *tmp = small;
	if (!CHECK_STR(fmt) || !CHECK_READ(tm, sizeof(*tm))) {
		errno = EFAULT;
		return 0;
	}
	if (max == 0)
		return get_strftime()(s, max, fmt, tm);
	long len = format(small, max < sizeof(small) ? max : sizeof(small), fmt, tm);
	if (len < 0 && max > sizeof(small) && (tmp = malloc(max)))
		len = format(tmp, max, fmt, tm);
	size_t r = 0;
	if (!CHECK_WRITE(s, len < 0 ? max : (size_t)len + 1)) {
		errno = EFAULT;
	} else if (len >= 0) {
		r = (size_t)len;
		libc_memcpy(s, tmp, r + 1);
	} else {
		r = get_strftime()(s, max, fmt, tm);
	}
	if (tmp && tmp != small)
		free(tmp);
	return r;
}
