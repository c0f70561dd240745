// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Directories (tests/generic/_family.h): opendir's, scandir's and
// scandir64's path read up to its terminator, scandir's list pointer and
// readdir_r's and readdir64_r's entry and result written, each on a heap, a
// stack and a global buffer exactly, then one byte past it (the structures
// one byte short).
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <dirent.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* readdir_r */

/* A path in /proc, which does not exist. */
#define S family_string(b, n); family_put(b, "/proc/", 6)
#define AT(T) ((T *)(b + over))
#define D DIR *d = opendir("/")
#define E(T) D; struct T e, *r

FAMILY_CASE(opendir_path, "Read", S, kasan_ptr_result = opendir(b), b, n)
FAMILY_CASE(scandir_path, "Read", S; struct dirent **l, kasan_int_result = scandir(b, &l, NULL, NULL), b, n)
FAMILY_CASE(scandir64_path, "Read", S; struct dirent64 **l, kasan_int_result = scandir64(b, &l, NULL, NULL), b, n)
FAMILY_CASE_SIZED(scandir_list, sizeof(void *), "Write", , kasan_int_result = scandir("/", AT(struct dirent **), NULL, NULL), b + over, sizeof(void *))
FAMILY_CASE_SIZED(scandir64_list, sizeof(void *), "Write", , kasan_int_result = scandir64("/", AT(struct dirent64 **), NULL, NULL), b + over, sizeof(void *))
FAMILY_CASE_SIZED(readdir_r_entry, sizeof(struct dirent), "Write", E(dirent), kasan_int_result = readdir_r(d, AT(struct dirent), &r), b + over, sizeof(struct dirent))
FAMILY_CASE_SIZED(readdir_r_result, sizeof(void *), "Write", E(dirent), kasan_int_result = readdir_r(d, &e, AT(struct dirent *)), b + over, sizeof(void *))
FAMILY_CASE_SIZED(readdir64_r_entry, sizeof(struct dirent64), "Write", E(dirent64), kasan_int_result = readdir64_r(d, AT(struct dirent64), &r), b + over, sizeof(struct dirent64))
FAMILY_CASE_SIZED(readdir64_r_result, sizeof(void *), "Write", E(dirent64), kasan_int_result = readdir64_r(d, &e, AT(struct dirent64 *)), b + over, sizeof(void *))

int main(void)
{
	FAMILY_RUN(opendir_path);
	FAMILY_RUN(scandir_path);
	FAMILY_RUN(scandir64_path);
	FAMILY_RUN(scandir_list);
	FAMILY_RUN(scandir64_list);
	FAMILY_RUN(readdir_r_entry);
	FAMILY_RUN(readdir_r_result);
	FAMILY_RUN(readdir64_r_entry);
	FAMILY_RUN(readdir64_r_result);
	return 0;
}
