/* Sending a SIGSEGV that claims a fault at an address, as any process of the
 * same user can (rt_sigqueueinfo with si_code SI_QUEUE; si_addr shares its
 * bytes with si_pid and si_uid, which the kernel passes on as given). */
#ifndef SPOOF_H
#define SPOOF_H

#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static inline long spoof_to(pid_t pid, int code, void *addr)
{
	siginfo_t info;
	memset(&info, 0, sizeof(info));
	info.si_signo = SIGSEGV;
	info.si_code = code;
	info.si_addr = addr;
	return syscall(SYS_rt_sigqueueinfo, pid, SIGSEGV, &info);
}

/* From another process: only negative codes are let through. Returns once
 * the signal was delivered (it is pending before the child exits, and
 * taken before waitpid returns to the program). */
static inline int spoof_from_child(void *addr)
{
#ifdef __aarch64__
	/* qemu-user (the cross runs) itself dies, now and then, of a SIGSEGV
	 * another process sends (without ukasan too: 5 of 20 runs of a bare
	 * handler test); one the program sends itself reaches the program as
	 * the same SI_QUEUE signal. */
	return spoof_to(getpid(), SI_QUEUE, addr) == 0 ? 0 : -1;
#endif
	pid_t parent = getpid();
	pid_t child = fork();
	if (child == 0)
		_exit(spoof_to(parent, SI_QUEUE, addr) == 0 ? 0 : 1);
	int status;
	while (waitpid(child, &status, 0) < 0)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

#endif
