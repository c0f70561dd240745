// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- the filter is written for x86-64's system call numbers; it execs itself
// A seccomp filter in force before the program starts (systemd's
// SystemCallFilter=, a container runtime's), here one that kills on
// readlink, prctl, fcntl and vfork: ukasan sees it at start (from
// /proc/self/status) and its report makes none of those calls.
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT-RE: ^CPU: \d+ UID: \d+ PID: \d+ Comm: kfence_sandbox_$
// COUNT: 1 BUG: KFENCE:
// STDOUT: ran on under the filter
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "_seccomp_kill.h"
#include "kfence_test.h"

int main(int argc, char **argv)
{
	if (argc > 1) {
		report_use_after_free();
		printf("ran on under the filter\n");
		return 0;
	}
	static struct sock_filter insns[] = SECCOMP_KILL_ONLY(
	    SECCOMP_KILL(__NR_readlink), SECCOMP_KILL(__NR_readlinkat), SECCOMP_KILL(__NR_prctl),
	    SECCOMP_KILL(__NR_fcntl), SECCOMP_KILL(__NR_vfork));
	static struct sock_fprog prog = SECCOMP_PROG(insns);
	/* By raw system calls, as a service manager does before exec: nothing
	 * here tells ukasan; the new image must find the filter itself. */
	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return 90;
	fflush(stdout);
	execl(argv[0], argv[0], "again", (char *)NULL);
	return 91;
}
