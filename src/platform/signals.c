#define _GNU_SOURCE
#include "signals.h"

#include <errno.h>
#include <string.h>
#include <ucontext.h>

#include "../base/compiler.h"
#include "../arch/arch.h"
#include "dynlink.h"
#include "lock.h"
#include "os.h"

extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

#ifndef SA_EXPOSE_TAGBITS
#define SA_EXPOSE_TAGBITS_FLAG 0x00000800
#else
#define SA_EXPOSE_TAGBITS_FLAG SA_EXPOSE_TAGBITS
#endif
#define NSIGS 65

#define NHOOKS 4
static fault_hook_t hooks[NSIGS][NHOOKS];
static struct sigaction app[NSIGS]; /* what the program believes is installed */
static struct spinlock app_lock;

/* Shadow mapped on demand faults in anywhere instrumented code runs,
 * handlers included (ours: the report path reaches the program's checked
 * str* functions), and the kernel kills a thread that faults with SIGSEGV
 * blocked. So once it is in use, SIGSEGV is never blocked: not by our
 * handler, not in a handler's mask, not by the program's own masks. While
 * a program's handler runs that believes it blocked, a fault that is not
 * ours ends the program, as the kernel would. */
static int segv_open;
static __thread int program_blocks_segv __attribute__((tls_model("initial-exec")));

void signals_keep_segv_open(void)
{
	segv_open = 1;
}

static void pass_on(int sig, siginfo_t *info, void *uctx)
{
	struct sigaction a;
	spin_lock(&app_lock);
	a = app[sig];
	if (a.sa_flags & SA_RESETHAND) {
		rt_memset(&app[sig], 0, sizeof(app[sig]));
		app[sig].sa_handler = SIG_DFL;
	}
	spin_unlock(&app_lock);

	int from_fault = info->si_code > 0; /* sent by the kernel for an instruction */
	if (a.sa_handler == SIG_IGN && !from_fault)
		return;
	if (a.sa_handler == SIG_DFL || a.sa_handler == SIG_IGN) {
		/* The kernel forces the default action on an ignored fault too. */
		os_die(sig);
	}
	/* Deliver as the kernel would have: the handler's mask, and the signal
	 * itself blocked unless SA_NODEFER. */
	sigset_t mask, old;
	mask = a.sa_mask;
	if (!(a.sa_flags & SA_NODEFER))
		sigaddset(&mask, sig);
	else
		sigdelset(&mask, sig);
	int was = program_blocks_segv;
	if (segv_open && sigismember(&mask, SIGSEGV)) {
		sigdelset(&mask, SIGSEGV);
		program_blocks_segv = 1;
	}
	pthread_sigmask(SIG_BLOCK, &mask, &old);
#ifdef __aarch64__
	if (!(a.sa_flags & SA_EXPOSE_TAGBITS_FLAG) && from_fault)
		info->si_addr = (void *)((uintptr_t)info->si_addr & ((1ul << 56) - 1));
#endif
	if (a.sa_flags & SA_SIGINFO)
		a.sa_sigaction(sig, info, uctx);
	else
		a.sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	program_blocks_segv = was;
}

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
	int saved = errno;
	for (int i = 0; sig > 0 && sig < NSIGS && i < NHOOKS; i++) {
		fault_hook_t h = __atomic_load_n(&hooks[sig][i], __ATOMIC_ACQUIRE);
		if (h && h(sig, info, uctx)) {
			errno = saved;
#ifdef ARCH_HAS_RESUME
			/* A filter may forbid rt_sigreturn (OpenSSH's does). */
			if (os_sandboxed())
				arch_resume(uctx);
#endif
			return;
		}
	}
	if (sig == SIGSEGV && program_blocks_segv && info->si_code > 0)
		os_die(sig);
	pass_on(sig, info, uctx);
	errno = saved;
}

int signals_hook(int sig, fault_hook_t hook)
{
	struct sigaction sa, old;
	rt_memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | (segv_open ? SA_NODEFER : 0);
#ifdef __aarch64__
	/* A tag check fault's address with its tag: reports print the pointer
	 * tag. Programs' handlers get it without, as they asked (pass_on). */
	sa.sa_flags |= SA_EXPOSE_TAGBITS_FLAG;
#endif
	sigemptyset(&sa.sa_mask);
	spin_lock(&app_lock);
	if (__sigaction(sig, &sa, &old) != 0) {
		spin_unlock(&app_lock);
		return -1;
	}
	if (old.sa_sigaction != on_signal)
		app[sig] = old;
	int i = 0;
	while (i < NHOOKS && hooks[sig][i] && hooks[sig][i] != hook)
		i++;
	if (i < NHOOKS)
		__atomic_store_n(&hooks[sig][i], hook, __ATOMIC_RELEASE);
	spin_unlock(&app_lock);
	return i < NHOOKS ? 0 : -1;
}

UKASAN_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction unblocked;
	if (segv_open && act && sigismember(&act->sa_mask, SIGSEGV)) {
		unblocked = *act;
		sigdelset(&unblocked.sa_mask, SIGSEGV);
		act = &unblocked;
	}
	if (sig <= 0 || sig >= NSIGS || !__atomic_load_n(&hooks[sig][0], __ATOMIC_ACQUIRE))
		return __sigaction(sig, act, old);
	spin_lock(&app_lock);
	if (old)
		*old = app[sig];
	if (act)
		app[sig] = *act;
	spin_unlock(&app_lock);
	return 0;
}

#if ARCH_SHADOW_ON_DEMAND
/* The program's own masks: worker threads of servers commonly block every
 * signal. Only where the shadow can be mapped on demand. */
typedef int (*mask_fn)(int, const sigset_t *, sigset_t *);
static void *real_pthread_sigmask, *real_sigprocmask;

static int set_mask(void **cache, const char *name, int how, const sigset_t *set, sigset_t *old)
{
	mask_fn real = (mask_fn)__atomic_load_n(cache, __ATOMIC_ACQUIRE);
	if (!real) {
		real = (mask_fn)dl_next_definition((const void *)&set_mask, name, NULL);
		__atomic_store_n(cache, (void *)real, __ATOMIC_RELEASE);
	}
	sigset_t open;
	if (segv_open && set && how != SIG_UNBLOCK && sigismember(set, SIGSEGV)) {
		open = *set;
		sigdelset(&open, SIGSEGV);
		set = &open;
	}
	if (real)
		return real(how, set, old);
	errno = ENOSYS;
	return -1;
}

UKASAN_EXPORT int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	int saved = errno;
	int r = set_mask(&real_pthread_sigmask, "pthread_sigmask", how, set, old);
	if (r == -1) { /* pthread_sigmask answers the error number */
		r = errno;
		errno = saved;
	}
	return r;
}

UKASAN_EXPORT int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	return set_mask(&real_sigprocmask, "sigprocmask", how, set, old);
}
#endif

/* glibc's signal() and sysv_signal() call its internal sigaction directly,
 * so they need interposers of their own, with glibc's semantics. */
static sighandler_t set_handler(int sig, sighandler_t handler, int block_self, int flags)
{
	struct sigaction sa, old;
	if (handler == SIG_ERR || sig <= 0 || sig >= NSIGS) {
		errno = EINVAL;
		return SIG_ERR;
	}
	rt_memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	if (block_self)
		sigaddset(&sa.sa_mask, sig);
	sa.sa_flags = flags;
	if (sigaction(sig, &sa, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

UKASAN_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	return set_handler(sig, handler, 1, SA_RESTART); /* BSD semantics */
}

UKASAN_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler)
{
	return signal(sig, handler);
}

UKASAN_EXPORT sighandler_t sysv_signal(int sig, sighandler_t handler)
{
	return set_handler(sig, handler, 0, SA_RESETHAND | SA_NODEFER);
}

unsigned long fault_pc(const void *uctx)
{
	return arch_fault_pc(uctx);
}

unsigned long fault_error_code(const void *uctx)
{
	unsigned long code = arch_fault_error_code(uctx);
#ifdef ARCH_FAULT_FROM_INSN
	uint32_t insn;
	if (!code && os_copy_readable(&insn, (const void *)arch_fault_pc(uctx), sizeof(insn)) ==
	                 sizeof(insn))
		code = arch_fault_code_from_insn(insn);
#endif
	return code;
}

int fault_is_write(const void *uctx)
{
	return arch_fault_code_is_write(fault_error_code(uctx));
}

int signals_program_handles(int sig)
{
	if (sig <= 0 || sig >= NSIGS)
		return 0;
	spin_lock(&app_lock);
	int own = app[sig].sa_handler != SIG_DFL && app[sig].sa_handler != SIG_IGN;
	spin_unlock(&app_lock);
	return own;
}
