// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The user and group databases (tests/generic/_family.h): getpwnam's and
// getgrnam's name read, and the reentrant lookups getpwnam_r, getpwuid_r,
// getgrnam_r and getgrgid_r: the name read, the entry, the string buffer
// and the answer's pointer written, each on a heap, a stack and a global
// buffer exactly, then one byte past it (the structures one byte short).
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <grp.h>
#include <pwd.h>

#define AT(T) ((T *)(b + over))
#define PW struct passwd pw, *pr; static char pb[4096]
#define GR struct group gr, *gres; static char gb[4096]

FAMILY_CASE(getpwnam_name, "Read", family_string(b, n), kasan_ptr_result = getpwnam(b), b, n)
FAMILY_CASE(getgrnam_name, "Read", family_string(b, n), kasan_ptr_result = getgrnam(b), b, n)
FAMILY_CASE(getpwnam_r_name, "Read", family_string(b, n); PW, kasan_int_result = getpwnam_r(b, &pw, pb, sizeof(pb), &pr), b, n)
FAMILY_CASE_SIZED(getpwnam_r_pwd, sizeof(struct passwd), "Write", PW, kasan_int_result = getpwnam_r("root", AT(struct passwd), pb, sizeof(pb), &pr), b + over, sizeof(struct passwd))
FAMILY_CASE(getpwnam_r_buf, "Write", PW, kasan_int_result = getpwnam_r("root", &pw, b, n, &pr), b, n)
FAMILY_CASE_SIZED(getpwnam_r_result, sizeof(void *), "Write", PW, kasan_int_result = getpwnam_r("root", &pw, pb, sizeof(pb), AT(struct passwd *)), b + over, sizeof(void *))
FAMILY_CASE_SIZED(getpwuid_r_pwd, sizeof(struct passwd), "Write", PW, kasan_int_result = getpwuid_r(0, AT(struct passwd), pb, sizeof(pb), &pr), b + over, sizeof(struct passwd))
FAMILY_CASE(getpwuid_r_buf, "Write", PW, kasan_int_result = getpwuid_r(0, &pw, b, n, &pr), b, n)
FAMILY_CASE_SIZED(getpwuid_r_result, sizeof(void *), "Write", PW, kasan_int_result = getpwuid_r(0, &pw, pb, sizeof(pb), AT(struct passwd *)), b + over, sizeof(void *))
FAMILY_CASE(getgrnam_r_name, "Read", family_string(b, n); GR, kasan_int_result = getgrnam_r(b, &gr, gb, sizeof(gb), &gres), b, n)
FAMILY_CASE_SIZED(getgrnam_r_grp, sizeof(struct group), "Write", GR, kasan_int_result = getgrnam_r("root", AT(struct group), gb, sizeof(gb), &gres), b + over, sizeof(struct group))
FAMILY_CASE(getgrnam_r_buf, "Write", GR, kasan_int_result = getgrnam_r("root", &gr, b, n, &gres), b, n)
FAMILY_CASE_SIZED(getgrnam_r_result, sizeof(void *), "Write", GR, kasan_int_result = getgrnam_r("root", &gr, gb, sizeof(gb), AT(struct group *)), b + over, sizeof(void *))
FAMILY_CASE_SIZED(getgrgid_r_grp, sizeof(struct group), "Write", GR, kasan_int_result = getgrgid_r(0, AT(struct group), gb, sizeof(gb), &gres), b + over, sizeof(struct group))
FAMILY_CASE(getgrgid_r_buf, "Write", GR, kasan_int_result = getgrgid_r(0, &gr, b, n, &gres), b, n)
FAMILY_CASE_SIZED(getgrgid_r_result, sizeof(void *), "Write", GR, kasan_int_result = getgrgid_r(0, &gr, gb, sizeof(gb), AT(struct group *)), b + over, sizeof(void *))

int main(void)
{
	FAMILY_RUN(getpwnam_name);
	FAMILY_RUN(getgrnam_name);
	FAMILY_RUN(getpwnam_r_name);
	FAMILY_RUN(getpwnam_r_pwd);
	FAMILY_RUN(getpwnam_r_buf);
	FAMILY_RUN(getpwnam_r_result);
	FAMILY_RUN(getpwuid_r_pwd);
	FAMILY_RUN(getpwuid_r_buf);
	FAMILY_RUN(getpwuid_r_result);
	FAMILY_RUN(getgrnam_r_name);
	FAMILY_RUN(getgrnam_r_grp);
	FAMILY_RUN(getgrnam_r_buf);
	FAMILY_RUN(getgrnam_r_result);
	FAMILY_RUN(getgrgid_r_grp);
	FAMILY_RUN(getgrgid_r_buf);
	FAMILY_RUN(getgrgid_r_result);
	return 0;
}
