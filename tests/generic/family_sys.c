// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Limits and the system's structures (tests/generic/_family.h): getrlimit,
// setrlimit, prlimit and their 64 forms, uname, sysinfo,
// sched_getaffinity, getresuid and getresgid, each on a heap, a stack and a
// global buffer exactly, then one byte past it (the structures one byte
// short).
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

#define L ((struct rlimit *)(b + over))
#define L64 ((struct rlimit64 *)(b + over))
/* The limit it has, set again. */
#define CUR struct rlimit l; getrlimit(RLIMIT_NOFILE, &l); family_put(b + over, &l, sizeof(l))
#define ID(T) T id

FAMILY_CASE(getrlimit_l, "Write", , kasan_int_result = getrlimit(RLIMIT_NOFILE, L), b + over, sizeof(struct rlimit))
FAMILY_CASE(getrlimit64_l, "Write", , kasan_int_result = getrlimit64(RLIMIT_NOFILE, L64), b + over, sizeof(struct rlimit64))
FAMILY_CASE(setrlimit_l, "Read", CUR, kasan_int_result = setrlimit(RLIMIT_NOFILE, L), b + over, sizeof(struct rlimit))
FAMILY_CASE(setrlimit64_l, "Read", CUR, kasan_int_result = setrlimit64(RLIMIT_NOFILE, L64), b + over, sizeof(struct rlimit64))
FAMILY_CASE(prlimit_old, "Write", , kasan_int_result = prlimit(0, RLIMIT_NOFILE, NULL, L), b + over, sizeof(struct rlimit))
FAMILY_CASE(prlimit64_old, "Write", , kasan_int_result = prlimit64(0, RLIMIT_NOFILE, NULL, L64), b + over, sizeof(struct rlimit64))
FAMILY_CASE_SIZED(uname_buf, sizeof(struct utsname), "Write", , kasan_int_result = uname((struct utsname *)(b + over)), b + over, sizeof(struct utsname))
FAMILY_CASE_SIZED(sysinfo_buf, sizeof(struct sysinfo), "Write", , kasan_int_result = sysinfo((struct sysinfo *)(b + over)), b + over, sizeof(struct sysinfo))
FAMILY_CASE(sched_getaffinity_set, "Write", , kasan_int_result = sched_getaffinity(0, n, (cpu_set_t *)b), b, n)
FAMILY_CASE_SIZED(getresuid_r, sizeof(uid_t), "Write", ID(uid_t), kasan_int_result = getresuid((uid_t *)(b + over), &id, &id), b + over, sizeof(uid_t))
FAMILY_CASE_SIZED(getresgid_s, sizeof(gid_t), "Write", ID(gid_t), kasan_int_result = getresgid(&id, &id, (gid_t *)(b + over)), b + over, sizeof(gid_t))

int main(void)
{
	FAMILY_RUN(getrlimit_l);
	FAMILY_RUN(getrlimit64_l);
	FAMILY_RUN(setrlimit_l);
	FAMILY_RUN(setrlimit64_l);
	FAMILY_RUN(prlimit_old);
	FAMILY_RUN(prlimit64_old);
	FAMILY_RUN(uname_buf);
	FAMILY_RUN(sysinfo_buf);
	FAMILY_RUN(sched_getaffinity_set);
	FAMILY_RUN(getresuid_r);
	FAMILY_RUN(getresgid_s);
	return 0;
}
