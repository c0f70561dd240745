/* A seccomp filter for x86-64 that kills the process on each system call
 * listed and allows every other, for the tests that sandbox themselves as
 * a service manager or a program's own sandbox would:
 *
 *   static struct sock_filter insns[] =
 *       SECCOMP_KILL_ONLY(SECCOMP_KILL(__NR_open), SECCOMP_KILL(__NR_madvise));
 *   static struct sock_fprog prog = SECCOMP_PROG(insns);
 *
 * Another architecture's system call is killed too. */
#ifndef UKASAN_TESTS_SECCOMP_KILL_H
#define UKASAN_TESTS_SECCOMP_KILL_H

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/syscall.h>

#define SECCOMP_KILL(nr)                                                                           \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                                           \
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

#define SECCOMP_KILL_ONLY(...)                                                                     \
	{                                                                                          \
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),           \
		    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),                  \
		    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),                           \
		    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),         \
		    __VA_ARGS__, BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)                      \
	}

#define SECCOMP_PROG(insns)                                                                        \
	{                                                                                          \
		sizeof(insns) / sizeof((insns)[0]), (insns)                                        \
	}

#endif
