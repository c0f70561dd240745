// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The stat family (tests/generic/_family.h): stat, lstat, fstat, fstatat,
// their 64 forms and statx, writing their structure, and stat's path read
// up to its terminator, each on a heap, a stack and a global buffer
// exactly, then one byte past it (the structures one byte short).
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <sys/stat.h>

#define ST(T) ((struct T *)(b + over))
#define Z family_zero_fd

FAMILY_CASE_SIZED(stat_buf, sizeof(struct stat), "Write", , kasan_int_result = stat("/", ST(stat)), b + over, sizeof(struct stat))
FAMILY_CASE_SIZED(lstat_buf, sizeof(struct stat), "Write", , kasan_int_result = lstat("/", ST(stat)), b + over, sizeof(struct stat))
FAMILY_CASE_SIZED(fstat_buf, sizeof(struct stat), "Write", , kasan_int_result = fstat(Z, ST(stat)), b + over, sizeof(struct stat))
FAMILY_CASE_SIZED(fstatat_buf, sizeof(struct stat), "Write", , kasan_int_result = fstatat(AT_FDCWD, "/", ST(stat), 0), b + over, sizeof(struct stat))
FAMILY_CASE_SIZED(stat64_buf, sizeof(struct stat64), "Write", , kasan_int_result = stat64("/", ST(stat64)), b + over, sizeof(struct stat64))
FAMILY_CASE_SIZED(lstat64_buf, sizeof(struct stat64), "Write", , kasan_int_result = lstat64("/", ST(stat64)), b + over, sizeof(struct stat64))
FAMILY_CASE_SIZED(fstat64_buf, sizeof(struct stat64), "Write", , kasan_int_result = fstat64(Z, ST(stat64)), b + over, sizeof(struct stat64))
FAMILY_CASE_SIZED(fstatat64_buf, sizeof(struct stat64), "Write", , kasan_int_result = fstatat64(AT_FDCWD, "/", ST(stat64), 0), b + over, sizeof(struct stat64))
FAMILY_CASE_SIZED(statx_buf, sizeof(struct statx), "Write", , kasan_int_result = statx(AT_FDCWD, "/", 0, STATX_BASIC_STATS, ST(statx)), b + over, sizeof(struct statx))
FAMILY_CASE(stat_path, "Read", family_string(b, n); struct stat st, kasan_int_result = stat(b, &st), b, n)

int main(void)
{
	family_open();
	FAMILY_RUN(stat_buf);
	FAMILY_RUN(lstat_buf);
	FAMILY_RUN(fstat_buf);
	FAMILY_RUN(fstatat_buf);
	FAMILY_RUN(stat64_buf);
	FAMILY_RUN(lstat64_buf);
	FAMILY_RUN(fstat64_buf);
	FAMILY_RUN(fstatat64_buf);
	FAMILY_RUN(statx_buf);
	FAMILY_RUN(stat_path);
	return 0;
}
