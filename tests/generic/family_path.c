// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Paths read up to their terminator (tests/generic/_family.h): open and its
// 64, at and fortified __*_2 forms, creat, access, faccessat, unlink,
// unlinkat, mkdir, mkdirat, rmdir, rename, renameat and renameat2, link,
// linkat, symlink and symlinkat (both paths), mkfifo, mknod, chroot,
// euidaccess, eaccess, chdir, chmod, fchmodat, chown, lchown, fchownat,
// truncate, utimes and utimensat (and their times), each on a heap, a stack and a global buffer
// exactly, then one byte past it. The paths are in /proc, where nothing
// is made or changed.
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dir, const char *path, int flags);
int __openat64_2(int dir, const char *path, int flags);

/* A path in /proc, where none of the calls can make or change a file. */
#define S family_string(b, n); family_put(b, "/proc/", 6)
#define AT AT_FDCWD
/* The file whose times are set. */
static char tfile[] = "/tmp/ukpathXXXXXX";
#define AT2(T) ((T *)(b + over))
/* A pointer to the times, the same times again. */
#define NOW(T, get) T t[2]; get; family_put(b + over, t, sizeof(t))

FAMILY_CASE(open_path, "Read", S, kasan_int_result = open(b, O_RDONLY), b, n)
FAMILY_CASE(open_creat_path, "Read", S, kasan_int_result = open(b, O_WRONLY | O_CREAT, 0600), b, n)
FAMILY_CASE(open64_path, "Read", S, kasan_int_result = open64(b, O_RDONLY), b, n)
FAMILY_CASE(openat_path, "Read", S, kasan_int_result = openat(AT, b, O_RDONLY), b, n)
FAMILY_CASE(openat64_path, "Read", S, kasan_int_result = openat64(AT, b, O_RDONLY), b, n)
FAMILY_CASE(open_2_path, "Read", S, kasan_int_result = __open_2(b, O_RDONLY), b, n)
FAMILY_CASE(open64_2_path, "Read", S, kasan_int_result = __open64_2(b, O_RDONLY), b, n)
FAMILY_CASE(openat_2_path, "Read", S, kasan_int_result = __openat_2(AT, b, O_RDONLY), b, n)
FAMILY_CASE(openat64_2_path, "Read", S, kasan_int_result = __openat64_2(AT, b, O_RDONLY), b, n)
FAMILY_CASE(creat_path, "Read", S, kasan_int_result = creat(b, 0600), b, n)
FAMILY_CASE(access_path, "Read", S, kasan_int_result = access(b, F_OK), b, n)
FAMILY_CASE(faccessat_path, "Read", S, kasan_int_result = faccessat(AT, b, F_OK, 0), b, n)
FAMILY_CASE(unlink_path, "Read", S, kasan_int_result = unlink(b), b, n)
FAMILY_CASE(unlinkat_path, "Read", S, kasan_int_result = unlinkat(AT, b, 0), b, n)
FAMILY_CASE(mkdir_path, "Read", S, kasan_int_result = mkdir(b, 0700), b, n)
FAMILY_CASE(mkdirat_path, "Read", S, kasan_int_result = mkdirat(AT, b, 0700), b, n)
FAMILY_CASE(rmdir_path, "Read", S, kasan_int_result = rmdir(b), b, n)
FAMILY_CASE(rename_from, "Read", S, kasan_int_result = rename(b, "/proc/zz"), b, n)
FAMILY_CASE(rename_to, "Read", S, kasan_int_result = rename("/proc/zz", b), b, n)
FAMILY_CASE(renameat_from, "Read", S, kasan_int_result = renameat(AT, b, AT, "/proc/zz"), b, n)
FAMILY_CASE(renameat_to, "Read", S, kasan_int_result = renameat(AT, "/proc/zz", AT, b), b, n)
FAMILY_CASE(renameat2_from, "Read", S, kasan_int_result = renameat2(AT, b, AT, "/proc/zz", 0), b, n)
FAMILY_CASE(renameat2_to, "Read", S, kasan_int_result = renameat2(AT, "/proc/zz", AT, b, 0), b, n)
FAMILY_CASE(link_from, "Read", S, kasan_int_result = link(b, "/proc/zz"), b, n)
FAMILY_CASE(link_to, "Read", S, kasan_int_result = link("/proc/zz", b), b, n)
FAMILY_CASE(linkat_from, "Read", S, kasan_int_result = linkat(AT, b, AT, "/proc/zz", 0), b, n)
FAMILY_CASE(linkat_to, "Read", S, kasan_int_result = linkat(AT, "/proc/zz", AT, b, 0), b, n)
FAMILY_CASE(symlink_target, "Read", S, kasan_int_result = symlink(b, "/proc/zz"), b, n)
FAMILY_CASE(symlink_path, "Read", S, kasan_int_result = symlink("x", b), b, n)
FAMILY_CASE(symlinkat_path, "Read", S, kasan_int_result = symlinkat("x", AT, b), b, n)
FAMILY_CASE(mkfifo_path, "Read", S, kasan_int_result = mkfifo(b, 0600), b, n)
FAMILY_CASE(mknod_path, "Read", S, kasan_int_result = mknod(b, S_IFIFO | 0600, 0), b, n)
FAMILY_CASE(chroot_path, "Read", S, kasan_int_result = chroot(b), b, n)
FAMILY_CASE(euidaccess_path, "Read", S, kasan_int_result = euidaccess(b, F_OK), b, n)
FAMILY_CASE(eaccess_path, "Read", S, kasan_int_result = eaccess(b, F_OK), b, n)
FAMILY_CASE(chdir_path, "Read", S, kasan_int_result = chdir(b), b, n)
FAMILY_CASE(chmod_path, "Read", S, kasan_int_result = chmod(b, 0700), b, n)
FAMILY_CASE(fchmodat_path, "Read", S, kasan_int_result = fchmodat(AT, b, 0700, 0), b, n)
FAMILY_CASE(chown_path, "Read", S, kasan_int_result = chown(b, -1, -1), b, n)
FAMILY_CASE(lchown_path, "Read", S, kasan_int_result = lchown(b, -1, -1), b, n)
FAMILY_CASE(fchownat_path, "Read", S, kasan_int_result = fchownat(AT, b, -1, -1, 0), b, n)
FAMILY_CASE(truncate_path, "Read", S, kasan_int_result = truncate(b, 0), b, n)
FAMILY_CASE(utimes_path, "Read", S, kasan_int_result = utimes(b, NULL), b, n)
FAMILY_CASE(utimensat_path, "Read", S, kasan_int_result = utimensat(AT, b, NULL, 0), b, n)
FAMILY_CASE_SIZED(utimes_times, 2 * sizeof(struct timeval), "Read", NOW(struct timeval, gettimeofday(t, NULL); t[1] = t[0]), kasan_int_result = utimes(tfile, AT2(struct timeval)), b + over, 2 * sizeof(struct timeval))
FAMILY_CASE_SIZED(utimensat_times, 2 * sizeof(struct timespec), "Read", NOW(struct timespec, t[0].tv_nsec = t[1].tv_nsec = UTIME_NOW; t[0].tv_sec = t[1].tv_sec = 0), kasan_int_result = utimensat(AT, tfile, AT2(struct timespec), 0), b + over, 2 * sizeof(struct timespec))

int main(void)
{
	int fd = mkstemp(tfile);
	if (fd < 0)
		kasan_test_fail("cannot make a file");
	close(fd);
	FAMILY_RUN(open_path);
	FAMILY_RUN(open_creat_path);
	FAMILY_RUN(open64_path);
	FAMILY_RUN(openat_path);
	FAMILY_RUN(openat64_path);
	FAMILY_RUN(open_2_path);
	FAMILY_RUN(open64_2_path);
	FAMILY_RUN(openat_2_path);
	FAMILY_RUN(openat64_2_path);
	FAMILY_RUN(creat_path);
	FAMILY_RUN(access_path);
	FAMILY_RUN(faccessat_path);
	FAMILY_RUN(unlink_path);
	FAMILY_RUN(unlinkat_path);
	FAMILY_RUN(mkdir_path);
	FAMILY_RUN(mkdirat_path);
	FAMILY_RUN(rmdir_path);
	FAMILY_RUN(rename_from);
	FAMILY_RUN(rename_to);
	FAMILY_RUN(renameat_from);
	FAMILY_RUN(renameat_to);
	FAMILY_RUN(renameat2_from);
	FAMILY_RUN(renameat2_to);
	FAMILY_RUN(link_from);
	FAMILY_RUN(link_to);
	FAMILY_RUN(linkat_from);
	FAMILY_RUN(linkat_to);
	FAMILY_RUN(symlink_target);
	FAMILY_RUN(symlink_path);
	FAMILY_RUN(symlinkat_path);
	FAMILY_RUN(mkfifo_path);
	FAMILY_RUN(mknod_path);
	FAMILY_RUN(chroot_path);
	FAMILY_RUN(euidaccess_path);
	FAMILY_RUN(eaccess_path);
	FAMILY_RUN(chdir_path);
	FAMILY_RUN(chmod_path);
	FAMILY_RUN(fchmodat_path);
	FAMILY_RUN(chown_path);
	FAMILY_RUN(lchown_path);
	FAMILY_RUN(fchownat_path);
	FAMILY_RUN(truncate_path);
	FAMILY_RUN(utimes_path);
	FAMILY_RUN(utimensat_path);
	FAMILY_RUN(utimes_times);
	FAMILY_RUN(utimensat_times);
	unlink(tfile);
	return 0;
}
