// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Clocks and sleeps (tests/generic/_family.h): gettimeofday's time and
// zone, time, clock_gettime, clock_getres, nanosleep's request and
// remainder and clock_nanosleep's, each on a heap, a stack and a global
// buffer exactly, then one byte past it (the structures one byte short).
// NOT: TEST FAILED
#include "_family_io.h"

#include <sys/time.h>
#include <time.h>

#define TV ((struct timeval *)(b + over))
#define TS ((struct timespec *)(b + over))
#define ZERO family_zero(b + over, sizeof(struct timespec))
#define T0 struct timespec z = {0, 0}

FAMILY_CASE(gettimeofday_tv, "Write", , kasan_int_result = gettimeofday(TV, NULL), b + over, sizeof(struct timeval))
FAMILY_CASE_SIZED(gettimeofday_tz, sizeof(struct timezone), "Write", struct timeval tv, kasan_int_result = gettimeofday(&tv, (struct timezone *)(b + over)), b + over, sizeof(struct timezone))
FAMILY_CASE_SIZED(time_buf, sizeof(time_t), "Write", , kasan_int_result = time((time_t *)(b + over)), b + over, sizeof(time_t))
FAMILY_CASE(clock_gettime_ts, "Write", , kasan_int_result = clock_gettime(CLOCK_MONOTONIC, TS), b + over, sizeof(struct timespec))
FAMILY_CASE(clock_getres_ts, "Write", , kasan_int_result = clock_getres(CLOCK_MONOTONIC, TS), b + over, sizeof(struct timespec))
FAMILY_CASE(nanosleep_req, "Read", ZERO, kasan_int_result = nanosleep(TS, NULL), b + over, sizeof(struct timespec))
FAMILY_CASE(nanosleep_rem, "Write", T0, kasan_int_result = nanosleep(&z, TS), b + over, sizeof(struct timespec))
FAMILY_CASE(clock_nanosleep_rem, "Write", T0, kasan_int_result = clock_nanosleep(CLOCK_MONOTONIC, 0, &z, TS), b + over, sizeof(struct timespec))

int main(void)
{
	FAMILY_RUN(gettimeofday_tv);
	FAMILY_RUN(gettimeofday_tz);
	FAMILY_RUN(time_buf);
	FAMILY_RUN(clock_gettime_ts);
	FAMILY_RUN(clock_getres_ts);
	FAMILY_RUN(nanosleep_req);
	FAMILY_RUN(nanosleep_rem);
	FAMILY_RUN(clock_nanosleep_rem);
	return 0;
}
