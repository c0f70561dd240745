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
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kfence_test.h"

#define KILL(nr)                                                                                   \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

int main(int argc, char **argv)
{
	if (argc > 1) {
		report_use_after_free();
		printf("ran on under the filter\n");
		return 0;
	}
	static struct sock_filter insns[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    KILL(__NR_readlink), KILL(__NR_readlinkat), KILL(__NR_prctl), KILL(__NR_fcntl),
	    KILL(__NR_vfork),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	static struct sock_fprog prog = {sizeof(insns) / sizeof(insns[0]), insns};
	/* By raw system calls, as a service manager does before exec: nothing
	 * here tells ukasan; the new image must find the filter itself. */
	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return 90;
	fflush(stdout);
	execl(argv[0], argv[0], "again", (char *)NULL);
	return 91;
}
