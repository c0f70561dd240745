// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Paths written and read (tests/generic/_family.h): getcwd, getwd,
// realpath and __realpath_chk, readlink and readlinkat writing, and
// realpath, canonicalize_file_name and readlink reading, each on a heap, a
// stack and a global buffer exactly, then one byte past it. getwd and
// realpath write the path and its terminator: the case's directory has a
// name one byte shorter than the buffer, or as long. The fortified builds
// make the _chk calls.
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <limits.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* getwd */

char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);

/* /tmp/ukXXXXXX/a and /tmp/ukXXXXXX/ab: 15 and 16 bytes. */
static char base[] = "/tmp/ukXXXXXX", dir15[32], dir16[32];
static const char *dir_of(size_t len)
{
	return len == 15 ? dir15 : dir16;
}

/* realpath is given an object smaller than PATH_MAX, which glibc's
 * fortified realpath rejects by itself; __realpath_chk has its own case. */
static char *(*volatile realpath_fn)(const char *, char *) = realpath;

#define OUT char out[PATH_MAX]

FAMILY_CASE(getcwd_buf, "Write", , kasan_ptr_result = getcwd(b, n), b, n)
/* getwd is made in a directory of the right length: the report then names
 * the test's source by its absolute path, which the expectation would not
 * find; it leaves the line out, as for the fortified builds. */
#pragma push_macro("FAMILY_FORTIFIED")
#undef FAMILY_FORTIFIED
#define FAMILY_FORTIFIED 1
FAMILY_CASE(getwd_buf, "Write", chdir(dir_of(n - 1)), kasan_ptr_result = getwd(b), b, n)
#pragma pop_macro("FAMILY_FORTIFIED")
FAMILY_CASE(realpath_buf, "Write", , kasan_ptr_result = realpath_fn(dir_of(n - 1), b), b, n)
FAMILY_CASE(realpath_chk_buf, "Write", , kasan_ptr_result = __realpath_chk(dir_of(n - 1), b, PATH_MAX), b, n)
FAMILY_CASE(realpath_path, "Read", family_string(b, n); OUT, kasan_ptr_result = realpath(b, out), b, n)
FAMILY_CASE(canonicalize_file_name_path, "Read", family_string(b, n), kasan_ptr_result = canonicalize_file_name(b), b, n)
FAMILY_CASE(readlink_buf, "Write", , kasan_int_result = readlink("/proc/self/exe", b, n), b, n)
FAMILY_CASE(readlinkat_buf, "Write", , kasan_int_result = readlinkat(AT_FDCWD, "/proc/self/exe", b, n), b, n)
FAMILY_CASE(readlink_path, "Read", family_string(b, n); OUT, kasan_int_result = readlink(b, out, 8), b, n)

int main(void)
{
	char real[PATH_MAX];
	if (!mkdtemp(base))
		kasan_test_fail("cannot make a directory");
	snprintf(dir15, sizeof(dir15), "%s/a", base);
	snprintf(dir16, sizeof(dir16), "%s/ab", base);
	if (mkdir(dir15, 0700) || mkdir(dir16, 0700) || !realpath(dir16, real) || strcmp(real, dir16))
		kasan_test_fail("cannot make the directories, or /tmp is not where it says");
	FAMILY_RUN(getcwd_buf);
	FAMILY_RUN(getwd_buf);
	FAMILY_RUN(realpath_buf);
	FAMILY_RUN(realpath_chk_buf);
	FAMILY_RUN(realpath_path);
	FAMILY_RUN(canonicalize_file_name_path);
	FAMILY_RUN(readlink_buf);
	FAMILY_RUN(readlinkat_buf);
	FAMILY_RUN(readlink_path);
	rmdir(dir15);
	rmdir(dir16);
	rmdir(base);
	return 0;
}
