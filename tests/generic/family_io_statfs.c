// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The file system's statistics (tests/generic/_family.h): statfs, fstatfs,
// statvfs, fstatvfs and their 64 forms, writing their structure, and
// statvfs's path read up to its terminator, each on a heap, a stack and a
// global buffer exactly, then one byte past it (the structures one byte
// short).
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <sys/statfs.h>
#include <sys/statvfs.h>

#define ST(T) ((struct T *)(b + over))
#define Z family_zero_fd

FAMILY_CASE_SIZED(statfs_buf, sizeof(struct statfs), "Write", , kasan_int_result = statfs("/", ST(statfs)), b + over, sizeof(struct statfs))
FAMILY_CASE_SIZED(fstatfs_buf, sizeof(struct statfs), "Write", , kasan_int_result = fstatfs(Z, ST(statfs)), b + over, sizeof(struct statfs))
FAMILY_CASE_SIZED(statfs64_buf, sizeof(struct statfs64), "Write", , kasan_int_result = statfs64("/", ST(statfs64)), b + over, sizeof(struct statfs64))
FAMILY_CASE_SIZED(fstatfs64_buf, sizeof(struct statfs64), "Write", , kasan_int_result = fstatfs64(Z, ST(statfs64)), b + over, sizeof(struct statfs64))
FAMILY_CASE_SIZED(statvfs_buf, sizeof(struct statvfs), "Write", , kasan_int_result = statvfs("/", ST(statvfs)), b + over, sizeof(struct statvfs))
FAMILY_CASE_SIZED(fstatvfs_buf, sizeof(struct statvfs), "Write", , kasan_int_result = fstatvfs(Z, ST(statvfs)), b + over, sizeof(struct statvfs))
FAMILY_CASE_SIZED(statvfs64_buf, sizeof(struct statvfs64), "Write", , kasan_int_result = statvfs64("/", ST(statvfs64)), b + over, sizeof(struct statvfs64))
FAMILY_CASE_SIZED(fstatvfs64_buf, sizeof(struct statvfs64), "Write", , kasan_int_result = fstatvfs64(Z, ST(statvfs64)), b + over, sizeof(struct statvfs64))
FAMILY_CASE(statvfs_path, "Read", family_string(b, n); struct statvfs st, kasan_int_result = statvfs(b, &st), b, n)

int main(void)
{
	family_open();
	FAMILY_RUN(statfs_buf);
	FAMILY_RUN(fstatfs_buf);
	FAMILY_RUN(statfs64_buf);
	FAMILY_RUN(fstatfs64_buf);
	FAMILY_RUN(statvfs_buf);
	FAMILY_RUN(fstatvfs_buf);
	FAMILY_RUN(statvfs64_buf);
	FAMILY_RUN(fstatvfs64_buf);
	FAMILY_RUN(statvfs_path);
	return 0;
}
