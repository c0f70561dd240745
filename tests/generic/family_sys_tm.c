// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Broken-down time (tests/generic/_family.h): localtime_r and gmtime_r
// writing their struct tm and reading the time, localtime, gmtime and
// ctime reading it, asctime reading a struct tm, mktime and timegm
// normalising one, each on a heap, a stack and a global buffer exactly,
// then one byte past it (the structures one byte short).
// NOT: TEST FAILED
#include "_family_io.h"

#include <time.h>

#define TM ((struct tm *)(b + over))
#define T ((time_t *)(b + over))
#define TIME family_zero(b + over, sizeof(time_t)); struct tm tm
/* 1 January 1970, a valid struct tm. */
#define PUTTM struct tm tm0; time_t t0 = 0; gmtime_r(&t0, &tm0); family_put(b + over, &tm0, sizeof(tm0))

FAMILY_CASE_SIZED(localtime_r_tm, sizeof(struct tm), "Write", time_t t = 0, kasan_ptr_result = localtime_r(&t, TM), b + over, sizeof(struct tm))
FAMILY_CASE_SIZED(localtime_r_t, sizeof(time_t), "Read", TIME, kasan_ptr_result = localtime_r(T, &tm), b + over, sizeof(time_t))
FAMILY_CASE_SIZED(gmtime_r_tm, sizeof(struct tm), "Write", time_t t = 0, kasan_ptr_result = gmtime_r(&t, TM), b + over, sizeof(struct tm))
FAMILY_CASE_SIZED(gmtime_r_t, sizeof(time_t), "Read", TIME, kasan_ptr_result = gmtime_r(T, &tm), b + over, sizeof(time_t))
FAMILY_CASE_SIZED(localtime_t, sizeof(time_t), "Read", TIME, kasan_ptr_result = localtime(T), b + over, sizeof(time_t))
FAMILY_CASE_SIZED(gmtime_t, sizeof(time_t), "Read", TIME, kasan_ptr_result = gmtime(T), b + over, sizeof(time_t))
FAMILY_CASE_SIZED(ctime_t, sizeof(time_t), "Read", TIME, kasan_ptr_result = ctime(T), b + over, sizeof(time_t))
FAMILY_CASE_SIZED(asctime_tm, sizeof(struct tm), "Read", PUTTM, kasan_ptr_result = asctime(TM), b + over, sizeof(struct tm))
FAMILY_CASE_SIZED(mktime_tm, sizeof(struct tm), "Write", PUTTM, kasan_int_result = mktime(TM), b + over, sizeof(struct tm))
FAMILY_CASE_SIZED(timegm_tm, sizeof(struct tm), "Write", PUTTM, kasan_int_result = timegm(TM), b + over, sizeof(struct tm))

int main(void)
{
	FAMILY_RUN(localtime_r_tm);
	FAMILY_RUN(localtime_r_t);
	FAMILY_RUN(gmtime_r_tm);
	FAMILY_RUN(gmtime_r_t);
	FAMILY_RUN(localtime_t);
	FAMILY_RUN(gmtime_t);
	FAMILY_RUN(ctime_t);
	FAMILY_RUN(asctime_tm);
	FAMILY_RUN(mktime_tm);
	FAMILY_RUN(timegm_tm);
	return 0;
}
