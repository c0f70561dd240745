/* The file system's answers written into program memory: the stat family
 * (the whole structure), the working directory, link targets and
 * canonical paths; and the paths read, up to their terminator. Checked
 * before the call (io.h). Where no size is given (getwd, realpath), the
 * answer is made in a buffer of our own first, and only the bytes it takes
 * are checked in the program's, then copied. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* getwd */

char *__getcwd_chk(char *buf, size_t size, size_t buflen);
char *__getwd_chk(char *buf, size_t buflen);
char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);
ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
ssize_t __readlinkat_chk(int fd, const char *path, char *buf, size_t len, size_t buflen);

/* Linux takes an empty path, or none, for the descriptor itself. */
#define CHECK_AT_PATH(path, flags) (((flags)&AT_EMPTY_PATH && !MAYBE_NULL(path)) || CHECK_STR(path))

#define CHECK_STAT(path, st)   (CHECK_STR(path) && CHECK_WRITE(st, sizeof(*(st))))
#define CHECK_STATFD(fd, st)   CHECK_WRITE(st, sizeof(*(st)))
#define CHECK_STATAT(p, f, st) (CHECK_AT_PATH(p, f) && CHECK_WRITE(st, sizeof(*(st))))

// clang-format off
CHECKED(int, stat, (const char *path, struct stat *st), (path, st), CHECK_STAT(path, st), -1)
CHECKED(int, lstat, (const char *path, struct stat *st), (path, st), CHECK_STAT(path, st), -1)
/* libukasan.so sizes the files it reads with fstat. */
CHECKED(int, fstat, (int fd, struct stat *st), (fd, st), FROM_RUNTIME || CHECK_STATFD(fd, st), -1)
CHECKED(int, fstatat, (int dir, const char *path, struct stat *st, int flags),
	(dir, path, st, flags), CHECK_STATAT(path, flags, st), -1)
CHECKED(int, stat64, (const char *path, struct stat64 *st), (path, st), CHECK_STAT(path, st), -1)
CHECKED(int, lstat64, (const char *path, struct stat64 *st), (path, st), CHECK_STAT(path, st), -1)
CHECKED(int, fstat64, (int fd, struct stat64 *st), (fd, st), CHECK_STATFD(fd, st), -1)
CHECKED(int, fstatat64, (int dir, const char *path, struct stat64 *st, int flags),
	(dir, path, st, flags), CHECK_STATAT(path, flags, st), -1)
/* Rust's std calls statx(0, NULL, 0, mask, NULL) to learn whether the
 * kernel has it (EFAULT: it does), before its first metadata call. */
CHECKED(int, statx,
	(int dir, const char *path, int flags, unsigned int mask, struct statx *st),
	(dir, path, flags, mask, st), (!MAYBE_NULL(path) && !MAYBE_NULL(st)) || CHECK_STATAT(path, flags, st), -1)
CHECKED(int, statfs, (const char *path, struct statfs *st), (path, st), CHECK_STAT(path, st), -1)
CHECKED(int, fstatfs, (int fd, struct statfs *st), (fd, st), CHECK_STATFD(fd, st), -1)
CHECKED(int, statfs64, (const char *path, struct statfs64 *st), (path, st),
	CHECK_STAT(path, st), -1)
CHECKED(int, fstatfs64, (int fd, struct statfs64 *st), (fd, st), CHECK_STATFD(fd, st), -1)
CHECKED(int, statvfs, (const char *path, struct statvfs *st), (path, st),
	CHECK_STAT(path, st), -1)
CHECKED(int, fstatvfs, (int fd, struct statvfs *st), (fd, st), CHECK_STATFD(fd, st), -1)
CHECKED(int, statvfs64, (const char *path, struct statvfs64 *st), (path, st),
	CHECK_STAT(path, st), -1)
CHECKED(int, fstatvfs64, (int fd, struct statvfs64 *st), (fd, st), CHECK_STATFD(fd, st), -1)

/* With no buffer getcwd allocates one; libukasan.so asks for its own. */
CHECKED(char *, getcwd, (char *buf, size_t size), (buf, size),
	!buf || FROM_RUNTIME || CHECK_WRITE(buf, size), NULL)
CHECKED_CHK(char *, __getcwd_chk, (char *buf, size_t size, size_t buflen), (buf, size, buflen),
	CHECK_WRITE(buf, size), size > buflen, NULL)
/* ... and reads where its executable is. */
CHECKED(ssize_t, readlink, (const char *path, char *buf, size_t size), (path, buf, size),
	FROM_RUNTIME || (CHECK_STR(path) && CHECK_WRITE(buf, size)), -1)
CHECKED(ssize_t, readlinkat, (int dir, const char *path, char *buf, size_t size),
	(dir, path, buf, size), CHECK_STR(path) && CHECK_WRITE(buf, size), -1)
CHECKED_CHK(ssize_t, __readlink_chk, (const char *path, char *buf, size_t size, size_t buflen),
	(path, buf, size, buflen), CHECK_STR(path) && CHECK_WRITE(buf, size), size > buflen, -1)
CHECKED_CHK(ssize_t, __readlinkat_chk,
	(int dir, const char *path, char *buf, size_t size, size_t buflen),
	(dir, path, buf, size, buflen), CHECK_STR(path) && CHECK_WRITE(buf, size), size > buflen,
	-1)
/* glibc fails a missing path with EINVAL; the answer is a new allocation. */
CHECKED(char *, canonicalize_file_name, (const char *path), (path), !MAYBE_NULL(path) || CHECK_STR(path),
	NULL)
// clang-format on

LIBC(getwd)
LIBC(realpath)

/* The bytes of an answer made in tmp, checked in buf (reported at ip) and
 * copied there: buf, or NULL with EFAULT. Past limit (the object's size, a
 * fortified call) glibc aborts, after the report. */
static char *answer(char *buf, const char *tmp, size_t limit, uintptr_t ip)
{
	size_t n = io_strlen(tmp) + 1;
	int ok = __ukasan_check_range((uintptr_t)buf, n, 1, ip);
	if (n > limit)
		__chk_fail();
	if (!ok) {
		errno = EFAULT;
		return NULL;
	}
	return libc_memcpy(buf, tmp, n);
}

/* getwd writes the directory, or on failure glibc's message about it into
 * the PATH_MAX bytes it assumes. */
INTERPOSER char *getwd(char *buf)
{
	char tmp[PATH_MAX];
	if (get_getcwd()(tmp, sizeof(tmp)))
		return answer(buf, tmp, SIZE_MAX, RET_IP);
	if (!CHECK_WRITE(buf, PATH_MAX)) {
		errno = EFAULT;
		return NULL;
	}
	return get_getwd()(buf);
}

/* glibc's: getcwd into the object, which aborts when it is too small. */
INTERPOSER char *__getwd_chk(char *buf, size_t buflen)
{
	char tmp[PATH_MAX];
	if (!get_getcwd()(tmp, sizeof(tmp))) {
		if (errno == ERANGE)
			__chk_fail();
		return NULL;
	}
	return answer(buf, tmp, buflen, RET_IP);
}

/* glibc's realpath writes the canonical path, or when it fails part way
 * what it had resolved, into the PATH_MAX bytes it assumes; it always
 * starts with a '/'. The fortified one aborts (chk_fails) whenever the
 * object is smaller than PATH_MAX: after the report, if any. */
static char *resolve(const char *path, char *resolved, int chk_fails, uintptr_t ip)
{
	char tmp[PATH_MAX];
	if (!path || !resolved) {
		if (chk_fails)
			__chk_fail();
		return get_realpath()(path, resolved);
	}
	if (!__ukasan_check_range((uintptr_t)path, io_strlen(path) + 1, 0, ip)) {
		if (chk_fails)
			__chk_fail();
		errno = EFAULT;
		return NULL;
	}
	tmp[0] = 0;
	char *r = get_realpath()(path, tmp);
	int e = errno;
	if (!tmp[0]) {
		if (chk_fails)
			__chk_fail();
		return r;
	}
	char *out = answer(resolved, tmp, chk_fails ? 0 : SIZE_MAX, ip);
	if (!out || r)
		return out;
	errno = e;
	return NULL;
}

INTERPOSER char *realpath(const char *path, char *resolved)
{
	return resolve(path, resolved, 0, RET_IP);
}

INTERPOSER char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen)
{
	return resolve(path, resolved, resolvedlen < PATH_MAX, RET_IP);
}
