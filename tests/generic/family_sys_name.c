// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Names and bytes the system gives (tests/generic/_family.h): gethostname,
// getdomainname, confstr, ttyname_r, ptsname_r, getlogin_r, getgroups,
// getrandom and getentropy, each on a heap, a stack and a global buffer
// exactly, then one byte past it. The fortified builds make the _chk calls.
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <stdlib.h>
#include <sys/random.h>
#include <unistd.h>

/* Whole gid_t: 4, one byte past the buffer when over; counted at run
 * time, so that the fortified builds check it. */
#define G ((gid_t *)(b + over))
#define NG (int)(n / sizeof(gid_t))

/* A pseudo-terminal's master, or -1 where there is none to open: the call
 * is checked before it fails all the same. */
static int pty;

FAMILY_CASE(gethostname_buf, "Write", , kasan_int_result = gethostname(b, n), b, n)
FAMILY_CASE(getdomainname_buf, "Write", , kasan_int_result = getdomainname(b, n), b, n)
FAMILY_CASE(confstr_buf, "Write", , kasan_int_result = confstr(_CS_PATH, b, n), b, n)
FAMILY_CASE(ttyname_r_buf, "Write", , kasan_int_result = ttyname_r(0, b, n), b, n)
FAMILY_CASE(ptsname_r_buf, "Write", , kasan_int_result = ptsname_r(pty, b, n), b, n)
FAMILY_CASE(getlogin_r_buf, "Write", , kasan_int_result = getlogin_r(b, n), b, n)
FAMILY_CASE(getgroups_list, "Write", , kasan_int_result = getgroups(NG, G), b + over, FAMILY_SIZE)
FAMILY_CASE(getrandom_buf, "Write", , kasan_int_result = getrandom(b, n, 0), b, n)
FAMILY_CASE(getentropy_buf, "Write", , kasan_int_result = getentropy(b, n), b, n)

int main(void)
{
	pty = posix_openpt(O_RDWR | O_NOCTTY);
	FAMILY_RUN(gethostname_buf);
	FAMILY_RUN(getdomainname_buf);
	FAMILY_RUN(confstr_buf);
	FAMILY_RUN(ttyname_r_buf);
	FAMILY_RUN(ptsname_r_buf);
	FAMILY_RUN(getlogin_r_buf);
	FAMILY_RUN(getgroups_list);
	FAMILY_RUN(getrandom_buf);
	FAMILY_RUN(getentropy_buf);
	return 0;
}
