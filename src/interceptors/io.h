/* What the interceptors of calls that fill or drain program memory share
 * (io*.c, file*.c, sys*.c): the system calls and the libc functions around
 * them. Each checks the memory the call will use before making it, as the
 * kernel's copy_{to,from}_user do; a bad range is reported and the call
 * fails with EFAULT, which is what the kernel itself answers for memory it
 * cannot use, without touching it. Where the size is a capacity the caller
 * states (read's count, getcwd's size, *addrlen), the whole of it is
 * checked, as glibc's fortified entry points hold the caller to it. */
#ifndef UKASAN_INTERCEPTORS_IO_H
#define UKASAN_INTERCEPTORS_IO_H

#include <errno.h>
#include <sys/uio.h>

#include "intercept.h"

/* glibc's function, typed as glibc's header declares it (so that each
 * interceptor's signature is checked against glibc's), found once.
 * Every such lookup is also made at start-up, before main, by a
 * constructor of its own: a first call from a signal handler (waitpid in
 * a SIGCHLD handler, say) must not run dlsym there. Not a table of
 * pointers in a section of ours: linkers put such a writable section
 * right after the program's __sancov_guards, and AFL++'s PCGUARD
 * instrumentation computes guard addresses up to __stop___sancov_guards
 * (vectorised selects): with our function pointers there instead of the
 * zeros of .bss, a guard read past the end indexes the coverage map with
 * half a pointer, and the run dies, a false crash. */
#define LIBC(name)                                                                                 \
	static __typeof__(name) *real_##name;                                                      \
	static __typeof__(name) *get_##name(void)                                                  \
	{                                                                                          \
		if (!real_##name)                                                                  \
			real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name);                 \
		return real_##name;                                                                \
	}                                                                                          \
	__attribute__((constructor)) static void resolve_##name(void)                              \
	{                                                                                          \
		get_##name();                                                                      \
	}

/* Every interposer here is weak: a program that defines a function of the
 * same name itself (an old one's own getline, say) keeps it, and links. */
#define INTERPOSER __attribute__((weak))

/* ret name params: when the check fails (it has reported), the call fails
 * with EFAULT and returns fail; else glibc's does the work. */
#define CHECKED(ret, name, params, args, check, fail)                                              \
	LIBC(name)                                                                                 \
	INTERPOSER ret name params                                                                 \
	{                                                                                          \
		if (!(check)) {                                                                    \
			errno = EFAULT;                                                            \
			return fail;                                                               \
		}                                                                                  \
		return get_##name() args;                                                          \
	}

/* The fortified entry points (__getcwd_chk...): checked as the plain call;
 * glibc's own then keeps its object-size check. When the check fails, the
 * call is skipped as the plain one is, unless glibc's verdict on the same
 * call (overflows) is its "buffer overflow detected" abort: that is kept,
 * after the report. */
#define CHECKED_CHK(ret, name, params, args, check, overflows, fail)                               \
	LIBC(name)                                                                                 \
	INTERPOSER ret name params                                                                 \
	{                                                                                          \
		if (!(check)) {                                                                    \
			if (overflows)                                                             \
				__chk_fail();                                                      \
			errno = EFAULT;                                                            \
			return fail;                                                               \
		}                                                                                  \
		return get_##name() args;                                                          \
	}

/* libukasan.so calls some of these names itself (fstat, readlink, poll,
 * sigprocmask...), on its own uninstrumented memory: not checked. */
#define FROM_RUNTIME __ukasan_runtime_ip(RET_IP)

/* A pointer the call may be given as NULL: then nothing is touched. */
#define CHECK_WRITE_OPT(p, n) (!(p) || CHECK_WRITE(p, n))
#define CHECK_READ_OPT(p, n)  (!(p) || CHECK_READ(p, n))

/* A pointer that glibc's header declares non-null but the kernel takes as
 * NULL (gettimeofday's tv): hidden from the compiler, which would drop the
 * test. */
#define MAYBE_NULL(p)                                                                              \
	({                                                                                         \
		__typeof__(p) p_ = (p);                                                            \
		__asm__("" : "+r"(p_));                                                            \
		p_;                                                                                \
	})

/* A path or other string argument, read up to its terminator (as the
 * kernel's strncpy_from_user reads it). */
HIDDEN size_t io_strlen(const char *s);
#define CHECK_STR(s) CHECK_READ(s, io_strlen(s) + 1)

/* An iovec array of n entries is read, and each buffer checked as read()
 * or write() checks its one; none when n is out of the kernel's range
 * (EINVAL or EMSGSIZE, nothing touched) or the array is missing (EFAULT).
 * Reported at ip. */
HIDDEN int io_check_iov(const struct iovec *iov, long n, int write, uintptr_t ip);

/* size * count, or 0 when it overflows: glibc then fails the call itself. */
static inline size_t io_total(size_t size, size_t count)
{
	size_t t;
	return __builtin_mul_overflow(size, count, &t) ? 0 : t;
}

#endif
