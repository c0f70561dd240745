// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ioctl and ptrace (tests/generic/_family.h): what the kernel writes or
// reads through their pointer, by the size the request implies, on a heap,
// a stack and a global buffer exactly, then one byte past it (the
// structures one byte short). Named requests (FIONREAD, TIOCGWINSZ,
// TIOCSWINSZ, FIONBIO, SIOCGIFINDEX, SIOCGIFCONF's buffer), one decoded
// from its number (BLKGETSIZE64, _IOR), and ptrace's PTRACE_GETREGS
// (x86-64), PTRACE_GETREGSET's buffer and PTRACE_GETSIGINFO. The checks come
// before the call, so no tracing is needed: the in-bounds calls fail with
// ENOTTY, EBADF or ESRCH, unreported.
// NOT: TEST FAILED
#include "_family_io.h"

#include <linux/fs.h>
#include <net/if.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/user.h>

#define P2 int p[2]; kasan_int_result = pipe(p)
#define SOCK int s = socket(AF_INET, SOCK_DGRAM, 0)

FAMILY_CASE_SIZED(ioctl_fionread, sizeof(int), "Write", P2, kasan_int_result = ioctl(p[0], FIONREAD, (int *)(b + over)), b + over, sizeof(int))
FAMILY_CASE_SIZED(ioctl_fionbio, sizeof(int), "Read", P2; memset(b, 0, sizeof(int)), kasan_int_result = ioctl(p[0], FIONBIO, (int *)(b + over)), b + over, sizeof(int))
FAMILY_CASE_SIZED(ioctl_tiocgwinsz, sizeof(struct winsize), "Write", P2, kasan_int_result = ioctl(p[0], TIOCGWINSZ, (struct winsize *)(b + over)), b + over, sizeof(struct winsize))
FAMILY_CASE_SIZED(ioctl_tiocswinsz, sizeof(struct winsize), "Read", memset(b, 0, sizeof(struct winsize)), kasan_int_result = ioctl(-1, TIOCSWINSZ, (struct winsize *)(b + over)), b + over, sizeof(struct winsize))
FAMILY_CASE_SIZED(ioctl_siocgifindex, sizeof(struct ifreq), "Read", SOCK; memset(b, 0, sizeof(struct ifreq)), kasan_int_result = ioctl(s, SIOCGIFINDEX, (struct ifreq *)(b + over)), b + over, sizeof(struct ifreq))
FAMILY_CASE(ioctl_siocgifconf, "Write", SOCK; struct ifconf c; c.ifc_len = (int)n; c.ifc_buf = b, kasan_int_result = ioctl(s, SIOCGIFCONF, &c), b, n)
FAMILY_CASE_SIZED(ioctl_blkgetsize64, sizeof(uint64_t), "Write", P2, kasan_int_result = ioctl(p[0], BLKGETSIZE64, (uint64_t *)(b + over)), b + over, sizeof(uint64_t))
#ifdef __x86_64__
FAMILY_CASE_SIZED(ptrace_getregs, sizeof(struct user_regs_struct), "Write", , kasan_int_result = ptrace(PTRACE_GETREGS, 1, NULL, b + over), b + over, sizeof(struct user_regs_struct))
#endif
FAMILY_CASE(ptrace_getregset, "Write", struct iovec v; v.iov_base = b; v.iov_len = n, kasan_int_result = ptrace(PTRACE_GETREGSET, 1, (void *)1, &v), b, n)
FAMILY_CASE_SIZED(ptrace_getsiginfo, sizeof(siginfo_t), "Write", , kasan_int_result = ptrace(PTRACE_GETSIGINFO, 1, NULL, b + over), b + over, sizeof(siginfo_t))

int main(void)
{
	FAMILY_RUN(ioctl_fionread);
	FAMILY_RUN(ioctl_fionbio);
	FAMILY_RUN(ioctl_tiocgwinsz);
	FAMILY_RUN(ioctl_tiocswinsz);
	FAMILY_RUN(ioctl_siocgifindex);
	FAMILY_RUN(ioctl_siocgifconf);
	FAMILY_RUN(ioctl_blkgetsize64);
#ifdef __x86_64__
	FAMILY_RUN(ptrace_getregs);
#endif
	FAMILY_RUN(ptrace_getregset);
	FAMILY_RUN(ptrace_getsiginfo);
	return 0;
}
