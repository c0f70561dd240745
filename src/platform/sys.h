/* The platform's system calls, made here rather than through libc's
 * syscall(), prctl() or close(): the runtime interposes those names
 * (runtime/sandbox.c), and what the platform does for a report must not
 * run back up through the runtime's wrappers. glibc's convention: -1 and
 * errno on failure. */
#ifndef UKASAN_PLATFORM_SYS_H
#define UKASAN_PLATFORM_SYS_H

#include <sys/syscall.h>

/* Not inline: its register variables stay out of callers that vfork. */
long sys_call6(long nr, long a, long b, long c, long d, long e, long f);

#define SYS_CALL_PICK(nr, a, b, c, d, e, f, ...)                                                   \
	sys_call6((long)(nr), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f))
/* os_syscall(SYS_x, args...): up to six arguments. */
#define os_syscall(...) SYS_CALL_PICK(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0)

#endif
