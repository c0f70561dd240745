// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Timers, usage and time as text (tests/generic/_family.h): getitimer,
// setitimer's new and old values, times, getrusage, ctime_r and asctime_r
// writing their 26 bytes, strftime writing its text and reading its format
// and struct tm, each on a heap, a stack and a global buffer exactly, then
// one byte past it (the structures one byte short; strftime's text one
// byte longer than its buffer).
// NOT: TEST FAILED
#include "_family_io.h"

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

#define ITV ((struct itimerval *)(b + over))
#define Z0 struct itimerval z = {{0, 0}, {0, 0}}; family_zero(b + over, sizeof(z))
/* "Thu Jan  1 00:00:00 1970\n", in the 26 bytes it takes. */
#define TEXT 26
#define T0 time_t t0 = 0; struct tm tm0; gmtime_r(&t0, &tm0)
#define OUT char out[64]
/* A format of n - 1 characters, which strftime copies. */
#define FMT T0; char fmt[32]; memset(fmt, 'x', n - 1); fmt[n - 1] = 0

FAMILY_CASE_SIZED(getitimer_v, sizeof(struct itimerval), "Write", , kasan_int_result = getitimer(ITIMER_VIRTUAL, ITV), b + over, sizeof(struct itimerval))
FAMILY_CASE_SIZED(setitimer_v, sizeof(struct itimerval), "Read", Z0, kasan_int_result = setitimer(ITIMER_VIRTUAL, ITV, NULL), b + over, sizeof(struct itimerval))
FAMILY_CASE_SIZED(setitimer_old, sizeof(struct itimerval), "Write", Z0, kasan_int_result = setitimer(ITIMER_VIRTUAL, &z, ITV), b + over, sizeof(struct itimerval))
FAMILY_CASE_SIZED(times_buf, sizeof(struct tms), "Write", , kasan_int_result = times((struct tms *)(b + over)), b + over, sizeof(struct tms))
FAMILY_CASE_SIZED(getrusage_buf, sizeof(struct rusage), "Write", , kasan_int_result = getrusage(RUSAGE_SELF, (struct rusage *)(b + over)), b + over, sizeof(struct rusage))
FAMILY_CASE_SIZED(ctime_r_buf, TEXT, "Write", T0, kasan_ptr_result = ctime_r(&t0, b + over), b + over, TEXT)
FAMILY_CASE_SIZED(asctime_r_buf, TEXT, "Write", T0, kasan_ptr_result = asctime_r(&tm0, b + over), b + over, TEXT)
FAMILY_CASE(strftime_buf, "Write", FMT, kasan_int_result = strftime(b, n, fmt, &tm0), b, n)
FAMILY_CASE(strftime_fmt, "Read", T0; OUT; family_string(b, n), kasan_int_result = strftime(out, sizeof(out), b, &tm0), b, n)
FAMILY_CASE_SIZED(strftime_tm, sizeof(struct tm), "Read", OUT; T0; family_put(b + over, &tm0, sizeof(tm0)), kasan_int_result = strftime(out, sizeof(out), "%Y", (struct tm *)(b + over)), b + over, sizeof(struct tm))

int main(void)
{
	setenv("TZ", "UTC0", 1);
	tzset();
	FAMILY_RUN(getitimer_v);
	FAMILY_RUN(setitimer_v);
	FAMILY_RUN(setitimer_old);
	FAMILY_RUN(times_buf);
	FAMILY_RUN(getrusage_buf);
	FAMILY_RUN(ctime_r_buf);
	FAMILY_RUN(asctime_r_buf);
	FAMILY_RUN(strftime_buf);
	FAMILY_RUN(strftime_fmt);
	FAMILY_RUN(strftime_tm);
	return 0;
}
