/* Paths read by the calls that name a file, up to their terminator (as the
 * kernel's strncpy_from_user reads them), and the directory calls'
 * answers: readdir_r's entry and result, scandir's list pointer. Checked
 * before the call (io.h); a bad one fails it with EFAULT (readdir_r
 * answers EFAULT). */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "io.h"

/* Linux takes an empty path, or none, for the descriptor itself. */
#define CHECK_AT_PATH(path, flags) (((flags)&AT_EMPTY_PATH && !MAYBE_NULL(path)) || CHECK_STR(path))

#pragma GCC diagnostic ignored "-Wdeprecated-declarations" /* readdir_r */

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dir, const char *path, int flags);
int __openat64_2(int dir, const char *path, int flags);

/* The mode is there only when the call creates a file. */
#define MODE(flags)                                                                                \
	({                                                                                         \
		mode_t m_ = 0;                                                                     \
		if ((flags)&O_CREAT || ((flags)&O_TMPFILE) == O_TMPFILE) {                         \
			va_list ap;                                                                \
			va_start(ap, flags);                                                       \
			m_ = va_arg(ap, mode_t);                                                   \
			va_end(ap);                                                                \
		}                                                                                  \
		m_;                                                                                \
	})

#define FAIL_EFAULT                                                                                \
	do {                                                                                       \
		errno = EFAULT;                                                                    \
		return -1;                                                                         \
	} while (0)

/* libukasan.so opens its log and the files it reads. */
LIBC(open)
INTERPOSER int open(const char *path, int flags, ...)
{
	mode_t mode = MODE(flags);
	if (!(FROM_RUNTIME || CHECK_STR(path)))
		FAIL_EFAULT;
	return get_open()(path, flags, mode);
}

LIBC(open64)
INTERPOSER int open64(const char *path, int flags, ...)
{
	mode_t mode = MODE(flags);
	if (!(FROM_RUNTIME || CHECK_STR(path)))
		FAIL_EFAULT;
	return get_open64()(path, flags, mode);
}

LIBC(openat)
INTERPOSER int openat(int dir, const char *path, int flags, ...)
{
	mode_t mode = MODE(flags);
	if (!CHECK_STR(path))
		FAIL_EFAULT;
	return get_openat()(dir, path, flags, mode);
}

LIBC(openat64)
INTERPOSER int openat64(int dir, const char *path, int flags, ...)
{
	mode_t mode = MODE(flags);
	if (!CHECK_STR(path))
		FAIL_EFAULT;
	return get_openat64()(dir, path, flags, mode);
}

#define P(path)  CHECK_STR(path)
#define P2(a, b) (CHECK_STR(a) && CHECK_STR(b))
/* utimes' and utimensat's two times, when given; utimensat's path may be
 * missing (the descriptor itself). */
#define TIMES(t) CHECK_READ_OPT(MAYBE_NULL(t), 2 * sizeof(*(t)))

// clang-format off
/* The fortified ones are called only for flags without a mode. */
CHECKED(int, __open_2, (const char *path, int flags), (path, flags), P(path), -1)
CHECKED(int, __open64_2, (const char *path, int flags), (path, flags), P(path), -1)
CHECKED(int, __openat_2, (int dir, const char *path, int flags), (dir, path, flags), P(path), -1)
CHECKED(int, __openat64_2, (int dir, const char *path, int flags), (dir, path, flags), P(path),
	-1)
CHECKED(int, creat, (const char *path, mode_t mode), (path, mode), P(path), -1)
CHECKED(int, creat64, (const char *path, mode_t mode), (path, mode), P(path), -1)
/* libukasan.so looks for its symbolizer. */
CHECKED(int, access, (const char *path, int how), (path, how), FROM_RUNTIME || P(path), -1)
CHECKED(int, faccessat, (int dir, const char *path, int how, int flags), (dir, path, how, flags),
	P(path), -1)
CHECKED(int, unlink, (const char *path), (path), P(path), -1)
CHECKED(int, unlinkat, (int dir, const char *path, int flags), (dir, path, flags), P(path), -1)
CHECKED(int, mkdir, (const char *path, mode_t mode), (path, mode), P(path), -1)
CHECKED(int, mkdirat, (int dir, const char *path, mode_t mode), (dir, path, mode), P(path), -1)
CHECKED(int, rmdir, (const char *path), (path), P(path), -1)
CHECKED(int, rename, (const char *from, const char *to), (from, to), P2(from, to), -1)
CHECKED(int, renameat, (int fd1, const char *from, int fd2, const char *to),
	(fd1, from, fd2, to), P2(from, to), -1)
CHECKED(int, chdir, (const char *path), (path), P(path), -1)
CHECKED(int, chmod, (const char *path, mode_t mode), (path, mode), P(path), -1)
CHECKED(int, fchmodat, (int dir, const char *path, mode_t mode, int flags),
	(dir, path, mode, flags), P(path), -1)
CHECKED(int, chown, (const char *path, uid_t u, gid_t g), (path, u, g), P(path), -1)
CHECKED(int, lchown, (const char *path, uid_t u, gid_t g), (path, u, g), P(path), -1)
CHECKED(int, fchownat, (int dir, const char *path, uid_t u, gid_t g, int flags),
	(dir, path, u, g, flags), CHECK_AT_PATH(path, flags), -1)
CHECKED(int, truncate, (const char *path, off_t len), (path, len), P(path), -1)
CHECKED(int, truncate64, (const char *path, off64_t len), (path, len), P(path), -1)
CHECKED(int, utimes, (const char *path, const struct timeval t[2]), (path, t),
	P(path) && TIMES(t), -1)
CHECKED(int, utimensat, (int dir, const char *path, const struct timespec t[2], int flags),
	(dir, path, t, flags), (!MAYBE_NULL(path) || P(path)) && TIMES(t), -1)

CHECKED(int, renameat2, (int fd1, const char *from, int fd2, const char *to, unsigned int flags),
	(fd1, from, fd2, to, flags), P2(from, to), -1)
CHECKED(int, link, (const char *from, const char *to), (from, to), P2(from, to), -1)
CHECKED(int, linkat, (int fd1, const char *from, int fd2, const char *to, int flags),
	(fd1, from, fd2, to, flags), CHECK_AT_PATH(from, flags) && P(to), -1)
CHECKED(int, symlink, (const char *target, const char *path), (target, path),
	P2(target, path), -1)
CHECKED(int, symlinkat, (const char *target, int dir, const char *path), (target, dir, path),
	P2(target, path), -1)
CHECKED(int, mkfifo, (const char *path, mode_t mode), (path, mode), P(path), -1)
CHECKED(int, mknod, (const char *path, mode_t mode, dev_t dev), (path, mode, dev), P(path), -1)
CHECKED(int, chroot, (const char *path), (path), P(path), -1)
CHECKED(int, euidaccess, (const char *path, int how), (path, how), P(path), -1)
CHECKED(int, eaccess, (const char *path, int how), (path, how), P(path), -1)

CHECKED(DIR *, opendir, (const char *path), (path), P(path), NULL)
CHECKED(int, scandir, (const char *dir, struct dirent ***list,
	int (*filter)(const struct dirent *), int (*cmp)(const struct dirent **, const struct dirent **)),
	(dir, list, filter, cmp), P(dir) && CHECK_WRITE(list, sizeof(*list)), -1)
CHECKED(int, scandir64, (const char *dir, struct dirent64 ***list,
	int (*filter)(const struct dirent64 *),
	int (*cmp)(const struct dirent64 **, const struct dirent64 **)),
	(dir, list, filter, cmp), P(dir) && CHECK_WRITE(list, sizeof(*list)), -1)
// clang-format on

/* readdir_r copies the entry, up to a whole struct dirent, and answers it
 * or NULL in *result; a bad call answers EFAULT, no entry when it can. */
#define READDIR_R(name, type)                                                                      \
	LIBC(name)                                                                                 \
	INTERPOSER int name(DIR *d, struct type *entry, struct type **result)                      \
	{                                                                                          \
		if (!CHECK_WRITE(result, sizeof(*result)))                                         \
			return EFAULT;                                                             \
		if (!CHECK_WRITE(entry, sizeof(*entry))) {                                         \
			*result = NULL;                                                            \
			return EFAULT;                                                             \
		}                                                                                  \
		return get_##name()(d, entry, result);                                             \
	}

READDIR_R(readdir_r, dirent)
READDIR_R(readdir64_r, dirent64)
