/* The process's and the system's answers written into program memory:
 * limits, names, identities, random bytes, wait statuses; with the
 * fortified forms glibc has for the named ones. Checked before the call
 * (io.h): structures whole, named buffers up to the size the caller states;
 * a bad one fails the call with EFAULT (those that answer an error number
 * answer EFAULT). */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io.h"

size_t __confstr_chk(int name, char *buf, size_t len, size_t buflen);
int __ttyname_r_chk(int fd, char *buf, size_t buflen, size_t nreal);
int __getlogin_r_chk(char *buf, size_t buflen, size_t nreal);
int __gethostname_chk(char *buf, size_t buflen, size_t nreal);
int __getdomainname_chk(char *buf, size_t buflen, size_t nreal);
int __getgroups_chk(int size, gid_t *list, size_t listlen);
int __ptsname_r_chk(int fd, char *buf, size_t buflen, size_t nreal);

#define CHECK_GROUPS(n, list) ((n) <= 0 || CHECK_WRITE(list, (size_t)(n) * sizeof(gid_t)))
#define CHECK_STATUS(s, ru)                                                                        \
	(CHECK_WRITE_OPT(s, sizeof(int)) && CHECK_WRITE_OPT(ru, sizeof(struct rusage)))

// clang-format off
CHECKED(int, getrlimit, (__rlimit_resource_t r, struct rlimit *l), (r, l),
	CHECK_WRITE(l, sizeof(*l)), -1)
CHECKED(int, getrlimit64, (__rlimit_resource_t r, struct rlimit64 *l), (r, l),
	CHECK_WRITE(l, sizeof(*l)), -1)
CHECKED(int, setrlimit, (__rlimit_resource_t r, const struct rlimit *l), (r, l),
	CHECK_READ(l, sizeof(*l)), -1)
CHECKED(int, setrlimit64, (__rlimit_resource_t r, const struct rlimit64 *l), (r, l),
	CHECK_READ(l, sizeof(*l)), -1)
CHECKED(int, prlimit, (pid_t pid, enum __rlimit_resource r, const struct rlimit *l,
	struct rlimit *old), (pid, r, l, old),
	CHECK_READ_OPT(l, sizeof(*l)) && CHECK_WRITE_OPT(old, sizeof(*old)), -1)
CHECKED(int, prlimit64, (pid_t pid, enum __rlimit_resource r, const struct rlimit64 *l,
	struct rlimit64 *old), (pid, r, l, old),
	CHECK_READ_OPT(l, sizeof(*l)) && CHECK_WRITE_OPT(old, sizeof(*old)), -1)
CHECKED(int, uname, (struct utsname *u), (u), CHECK_WRITE(u, sizeof(*u)), -1)
CHECKED(int, sysinfo, (struct sysinfo *i), (i), CHECK_WRITE(i, sizeof(*i)), -1)
CHECKED(int, sched_getaffinity, (pid_t pid, size_t size, cpu_set_t *set), (pid, size, set),
	CHECK_WRITE(set, size), -1)

CHECKED(int, gethostname, (char *buf, size_t len), (buf, len), CHECK_WRITE(buf, len), -1)
CHECKED(int, getdomainname, (char *buf, size_t len), (buf, len), CHECK_WRITE(buf, len), -1)
CHECKED(size_t, confstr, (int name, char *buf, size_t len), (name, buf, len),
	!buf || CHECK_WRITE(buf, len), 0)
CHECKED(int, ttyname_r, (int fd, char *buf, size_t len), (fd, buf, len),
	CHECK_WRITE(buf, len), EFAULT)
CHECKED(int, getlogin_r, (char *buf, size_t len), (buf, len), CHECK_WRITE(buf, len), EFAULT)
CHECKED(int, getgroups, (int n, gid_t *list), (n, list), CHECK_GROUPS(n, list), -1)
CHECKED(int, ptsname_r, (int fd, char *buf, size_t len), (fd, buf, len), CHECK_WRITE(buf, len),
	EFAULT)
CHECKED_CHK(int, __gethostname_chk, (char *buf, size_t len, size_t nreal), (buf, len, nreal),
	CHECK_WRITE(buf, len), len > nreal, -1)
CHECKED_CHK(int, __getdomainname_chk, (char *buf, size_t len, size_t nreal), (buf, len, nreal),
	CHECK_WRITE(buf, len), len > nreal, -1)
CHECKED_CHK(size_t, __confstr_chk, (int name, char *buf, size_t len, size_t buflen),
	(name, buf, len, buflen), !buf || CHECK_WRITE(buf, len), buflen < len, 0)
CHECKED_CHK(int, __ttyname_r_chk, (int fd, char *buf, size_t len, size_t nreal),
	(fd, buf, len, nreal), CHECK_WRITE(buf, len), len > nreal, EFAULT)
CHECKED_CHK(int, __getlogin_r_chk, (char *buf, size_t len, size_t nreal), (buf, len, nreal),
	CHECK_WRITE(buf, len), len > nreal, EFAULT)
CHECKED_CHK(int, __ptsname_r_chk, (int fd, char *buf, size_t len, size_t nreal),
	(fd, buf, len, nreal), CHECK_WRITE(buf, len), len > nreal, EFAULT)
CHECKED_CHK(int, __getgroups_chk, (int n, gid_t *list, size_t listlen), (n, list, listlen),
	CHECK_GROUPS(n, list), n > 0 && (size_t)n * sizeof(gid_t) > listlen, -1)

CHECKED(int, getresuid, (uid_t *r, uid_t *e, uid_t *s), (r, e, s),
	CHECK_WRITE(r, sizeof(*r)) && CHECK_WRITE(e, sizeof(*e)) && CHECK_WRITE(s, sizeof(*s)), -1)
CHECKED(int, getresgid, (gid_t *r, gid_t *e, gid_t *s), (r, e, s),
	CHECK_WRITE(r, sizeof(*r)) && CHECK_WRITE(e, sizeof(*e)) && CHECK_WRITE(s, sizeof(*s)), -1)
/* libukasan.so seeds itself with getrandom. */
CHECKED(ssize_t, getrandom, (void *buf, size_t len, unsigned int flags), (buf, len, flags),
	FROM_RUNTIME || CHECK_WRITE(buf, len), -1)
/* Past 256 bytes glibc fails it with EIO, writing nothing. */
CHECKED(int, getentropy, (void *buf, size_t len), (buf, len),
	len > 256 || CHECK_WRITE(buf, len), -1)

CHECKED(pid_t, wait, (int *status), (status), CHECK_STATUS(status, (struct rusage *)NULL), -1)
/* libukasan.so waits for its symbolizer. */
CHECKED(pid_t, waitpid, (pid_t pid, int *status, int options), (pid, status, options),
	FROM_RUNTIME || CHECK_STATUS(status, (struct rusage *)NULL), -1)
CHECKED(pid_t, wait3, (int *status, int options, struct rusage *ru), (status, options, ru),
	CHECK_STATUS(status, ru), -1)
CHECKED(pid_t, wait4, (pid_t pid, int *status, int options, struct rusage *ru),
	(pid, status, options, ru), CHECK_STATUS(status, ru), -1)
CHECKED(int, waitid, (idtype_t type, id_t id, siginfo_t *info, int options),
	(type, id, info, options), CHECK_WRITE_OPT(info, sizeof(*info)), -1)
// clang-format on
