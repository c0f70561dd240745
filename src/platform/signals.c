#define _GNU_SOURCE
#include "signals.h"

#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <string.h>
#include <ucontext.h>

#include "../base/compiler.h"
#include "../arch/arch.h"
#include "dynlink.h"
#include "lock.h"
#include "os.h"
#include "sys.h"

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
/* Writers of app (sigaction, our installs, fork_prepare) take app_lock,
 * a leaf, last in lock.h's fork order, with every signal blocked, and write only
 * our own memory under it; app_seq is odd while they write. A signal's
 * delivery reads app with no lock, between two reads of app_seq: a
 * handler that ran on a thread in the middle of a write (a signal, or a
 * fault in the program's struct sigaction) would otherwise wait on it
 * for ever, and every delivery would pay for a lock. */
static struct spinlock app_lock;
static unsigned app_seq;
static int installed[NSIGS]; /* our handler is the kernel's for these */

static void restore_mask(const sigset_t *old)
{
	os_syscall(SYS_rt_sigprocmask, SIG_SETMASK, old, NULL, sizeof(unsigned long));
}

static void app_lock_take(sigset_t *old)
{
	sigset_t all;
	sigfillset(&all);
	os_syscall(SYS_rt_sigprocmask, SIG_BLOCK, &all, old, sizeof(unsigned long));
	spin_lock(&app_lock);
	__atomic_store_n(&app_seq, app_seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static void app_lock_drop(const sigset_t *old)
{
	__atomic_store_n(&app_seq, app_seq + 1, __ATOMIC_RELEASE);
	spin_unlock(&app_lock);
	restore_mask(old);
}

static __thread sigset_t fork_held __attribute__((tls_model("initial-exec")));

void signals_fork_prepare(void)
{
	app_lock_take(&fork_held);
}

void signals_fork_done(void)
{
	app_lock_drop(&fork_held);
}

/* What the program installed for sig, as of a moment no write was under
 * way (a writer on this thread cannot be, its signals blocked). */
static struct sigaction app_read(int sig)
{
	struct sigaction a;
	for (;;) {
		unsigned seq = __atomic_load_n(&app_seq, __ATOMIC_ACQUIRE);
		if (seq & 1) {
			cpu_relax();
			continue;
		}
		rt_memcpy(&a, &app[sig], sizeof(a));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&app_seq, __ATOMIC_RELAXED) == seq)
			return a;
	}
}

/* Shadow mapped on demand faults in anywhere instrumented code runs,
 * handlers included (ours: the report path reaches the program's checked
 * str* functions), and the kernel kills a thread that faults with SIGSEGV
 * blocked. So once it is in use, SIGSEGV is never blocked: not by our
 * handler, not in a handler's mask, not by the program's own masks. While
 * a program's handler runs that believes it blocked, a fault that is not
 * ours ends the program, as the kernel would. */
static int segv_open;

void signals_keep_segv_open(void)
{
	segv_open = 1;
}

/* The faults our hooks take (KFENCE's guard pages, tag checks, shadow on
 * demand) can happen in any handler, so our handler leaves these signals
 * unblocked while it runs, and while a program's handler it calls runs: a
 * handler that interrupted ours (a signal arriving while a report is made,
 * or while the program's SIGSEGV handler runs) faults into ours again
 * instead of being killed by the kernel for faulting with the signal
 * blocked. What the program believes blocked is kept in program_blocks. */
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGTRAP};
#define NFAULT_SIGNALS 3

/* sig's index in fault_signals, or -1. */
static int fault_slot(int sig)
{
	for (int i = 0; i < NFAULT_SIGNALS; i++)
		if (fault_signals[i] == sig)
			return i;
	return -1;
}

/* Bit i: the program's running handler believes fault_signals[i] blocked
 * (its mask). pending: one of them was sent by a process (not raised by a
 * fault) meanwhile, held back as the kernel would hold it, with its info. */
static __thread unsigned program_blocks __attribute__((tls_model("initial-exec")));
static __thread unsigned pending __attribute__((tls_model("initial-exec")));
/* What a sender can set (si_code, and si_pid, si_uid, si_value, which
 * si_addr overlaps) lies in the first 32 bytes: all that is kept, as
 * static TLS is scarce. */
#define SENT_INFO_BYTES 32
_Static_assert(offsetof(siginfo_t, si_value) + sizeof(union sigval) <= SENT_INFO_BYTES &&
                   offsetof(siginfo_t, si_addr) + sizeof(void *) <= SENT_INFO_BYTES,
               "what a sender sets lies beyond SENT_INFO_BYTES");
static __thread unsigned char pending_info[NFAULT_SIGNALS][SENT_INFO_BYTES]
    __attribute__((tls_model("initial-exec")));

static int kept_open(int sig)
{
	return fault_slot(sig) >= 0 && ((sig == SIGSEGV && segv_open) ||
	                                __atomic_load_n(&installed[sig], __ATOMIC_ACQUIRE));
}

static int program_blocked(int sig)
{
	int i = fault_slot(sig);
	return i >= 0 && (program_blocks & (1u << i));
}

/* A signal a process sent while the program believes it blocked. */
static void hold_back(int sig, const siginfo_t *info)
{
	int i = fault_slot(sig);
	rt_memcpy(pending_info[i], info, SENT_INFO_BYTES);
	pending |= 1u << i;
}

/* The signals held back, once the program no longer believes them
 * blocked: sent again, as the kernel delivers a pending signal when it is
 * unblocked (it accepts any si_code a thread sends itself). */
static void send_pending(void)
{
	for (int i = 0; i < NFAULT_SIGNALS; i++) {
		if (!(pending & (1u << i)) || (program_blocks & (1u << i)))
			continue;
		pending &= ~(1u << i);
		siginfo_t info;
		rt_memset(&info, 0, sizeof(info));
		rt_memcpy(&info, pending_info[i], SENT_INFO_BYTES);
		/* To this thread, a target the kernel could have chosen for a
		 * signal sent to the process as well; and a thread other than
		 * the main one may send SI_USER or SI_TKILL only to itself. */
		os_syscall(SYS_rt_tgsigqueueinfo, os_pid(), os_tid(), fault_signals[i], &info);
	}
}

/* A jump out of a program's handler that pass_on called: the mask the
 * program believes in is the one the jump restores, as the kernel's is;
 * what was held back meanwhile arrives now, as it would in glibc's
 * siglongjmp. */
void signals_jump(const void *env)
{
	const struct __jmp_buf_tag *j = env;
	if (!j->__mask_was_saved)
		return;
	unsigned blocks = 0;
	for (int i = 0; i < NFAULT_SIGNALS; i++)
		if (sigismember((const sigset_t *)&j->__saved_mask, fault_signals[i]))
			blocks |= 1u << i;
	program_blocks = blocks;
	if (pending)
		send_pending();
}

static void pass_on(int sig, siginfo_t *info, void *uctx)
{
	struct sigaction a = app_read(sig);
	if (a.sa_flags & SA_RESETHAND) {
		sigset_t held;
		app_lock_take(&held);
		rt_memset(&app[sig], 0, sizeof(app[sig]));
		app[sig].sa_handler = SIG_DFL;
		app_lock_drop(&held);
	}

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
	unsigned was = program_blocks;
	for (int i = 0; i < NFAULT_SIGNALS; i++)
		if (kept_open(fault_signals[i]) && sigismember(&mask, fault_signals[i])) {
			sigdelset(&mask, fault_signals[i]);
			program_blocks |= 1u << i;
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
	program_blocks = was;
	if (pending)
		send_pending();
}

#define NFATAL 4
static fatal_hook_t fatal_hooks[NFATAL];

/* A fault the kernel raised that ends the program when passed on: the
 * fatal hooks report it first, after every hook above had its say (KFENCE
 * claims its own faults before any oops, as in the kernel). */
static void run_fatal_hooks(int sig, siginfo_t *info, void *uctx)
{
	if (info->si_code <= 0 || !__atomic_load_n(&fatal_hooks[0], __ATOMIC_ACQUIRE))
		return;
	struct fatal_fault f;
	fault_decode(sig, info, uctx, &f);
	for (int i = 0; i < NFATAL; i++) {
		fatal_hook_t h = __atomic_load_n(&fatal_hooks[i], __ATOMIC_ACQUIRE);
		if (h && h(&f, uctx))
			return;
	}
}

/* The calling thread's way out of signals_guarded's work when it faults:
 * __builtin_setjmp's buffer, as glibc's siglongjmp is the runtime's own
 * interposer from here. */
static __thread void **guard_jmp __attribute__((tls_model("initial-exec")));
static __thread uintptr_t guard_addr __attribute__((tls_model("initial-exec")));

/* Faults open for the guard, the mask before in *old: a guarded reader
 * may run inside a fault handler (a report's stack), where the kernel
 * blocked SIGSEGV, and a fault while it is blocked kills the process. */
static void unblock_faults(sigset_t *old)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	sigaddset(&set, SIGBUS);
	os_syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &set, old, sizeof(unsigned long));
}

__attribute__((noinline)) int signals_guarded(void (*fn)(void *arg), void *arg, uintptr_t *fault)
{
	void *buf[5];
	void **volatile prev = guard_jmp;
	sigset_t mask; /* in memory: its address is taken, kept across the jump */
	sigset_t *volatile old = &mask;
	unblock_faults(old);
	if (__builtin_setjmp(buf)) {
		guard_jmp = prev;
		/* the handler was left without sigreturn: the mask as before */
		restore_mask(old);
		if (fault)
			*fault = guard_addr;
		return -1;
	}
	guard_jmp = buf;
	fn(arg);
	guard_jmp = prev;
	restore_mask(old);
	return 0;
}

/* How deep this thread is in our handler for a fault signal: a fault in a
 * handler that interrupted ours comes back in, but a fault our own hooks
 * keep making must not recurse without end. */
static __thread int fault_depth __attribute__((tls_model("initial-exec")));
#define MAX_FAULT_DEPTH 8

static void on_signal(int sig, siginfo_t *info, void *uctx)
{
	int saved = errno;
	/* Only faults the kernel raised for an access are ours (si_code > 0:
	 * no process can send itself another's positive code). A SIGSEGV that
	 * kill, tgkill, raise or sigqueue sent, whatever si_addr it claims, is
	 * the program's, exactly as without ukasan: no hook sees it, so no
	 * guard page opens, no shadow is mapped, nothing is reported. */
	int fault = fault_slot(sig) >= 0;
	int from_kernel = info->si_code > 0;
	if (fault && !from_kernel) {
		if (program_blocked(sig))
			hold_back(sig, info);
		else
			pass_on(sig, info, uctx);
		errno = saved;
		return;
	}
	int deep = fault && fault_depth >= MAX_FAULT_DEPTH;
	fault_depth += fault;
	for (int i = 0; !deep && sig > 0 && sig < NSIGS && i < NHOOKS; i++) {
		fault_hook_t h = __atomic_load_n(&hooks[sig][i], __ATOMIC_ACQUIRE);
		if (h && h(sig, info, uctx)) {
			fault_depth -= fault;
			errno = saved;
#ifdef ARCH_HAS_RESUME
			/* A filter may forbid rt_sigreturn (OpenSSH's does). */
			if (os_sandboxed())
				arch_resume(uctx);
#endif
			return;
		}
	}
	fault_depth -= fault;
	/* After the hooks: one maps arm64's shadow on demand. */
	if ((sig == SIGSEGV || sig == SIGBUS) && guard_jmp) {
		guard_addr = (uintptr_t)info->si_addr;
		__builtin_longjmp(guard_jmp, 1);
	}
	/* The kernel ends the program for a fault it cannot deliver. */
	if (fault && program_blocked(sig)) {
		run_fatal_hooks(sig, info, uctx);
		os_die(sig);
	}
	if ((sig == SIGSEGV || sig == SIGBUS) && !signals_program_handles(sig))
		run_fatal_hooks(sig, info, uctx);
	pass_on(sig, info, uctx);
	errno = saved;
}

/* Our handler for sig, keeping what the program had installed. Under
 * app_lock. */
static int install_locked(int sig)
{
	struct sigaction sa, old;
	rt_memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART |
	              (segv_open || fault_slot(sig) >= 0 ? SA_NODEFER : 0);
#ifdef __aarch64__
	/* A tag check fault's address with its tag: reports print the pointer
	 * tag. Programs' handlers get it without, as they asked (pass_on). */
	sa.sa_flags |= SA_EXPOSE_TAGBITS_FLAG;
#endif
	sigemptyset(&sa.sa_mask);
	if (__sigaction(sig, &sa, &old) != 0)
		return -1;
	if (old.sa_sigaction != on_signal)
		app[sig] = old;
	__atomic_store_n(&installed[sig], 1, __ATOMIC_RELEASE);
	return 0;
}

int signals_hook(int sig, fault_hook_t hook)
{
	sigset_t held;
	app_lock_take(&held);
	if (install_locked(sig) != 0) {
		app_lock_drop(&held);
		return -1;
	}
	int i = 0;
	while (i < NHOOKS && hooks[sig][i] && hooks[sig][i] != hook)
		i++;
	if (i < NHOOKS)
		__atomic_store_n(&hooks[sig][i], hook, __ATOMIC_RELEASE);
	app_lock_drop(&held);
	return i < NHOOKS ? 0 : -1;
}

int signals_on_fatal(int sig, fatal_hook_t hook)
{
	if (sig != SIGSEGV && sig != SIGBUS)
		return -1;
	sigset_t held;
	app_lock_take(&held);
	if (install_locked(sig) != 0) {
		app_lock_drop(&held);
		return -1;
	}
	int i = 0;
	while (i < NFATAL && fatal_hooks[i] && fatal_hooks[i] != hook)
		i++;
	if (i < NFATAL)
		__atomic_store_n(&fatal_hooks[i], hook, __ATOMIC_RELEASE);
	app_lock_drop(&held);
	return i < NFATAL ? 0 : -1;
}

UKASAN_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction unblocked;
	if (segv_open && act && sigismember(&act->sa_mask, SIGSEGV)) {
		unblocked = *act;
		sigdelset(&unblocked.sa_mask, SIGSEGV);
		act = &unblocked;
	}
	if (sig <= 0 || sig >= NSIGS || !__atomic_load_n(&installed[sig], __ATOMIC_ACQUIRE))
		return __sigaction(sig, act, old);
	/* The program's structures are read and written outside the lock: a
	 * bad pointer faults here, as in glibc's sigaction, not under it. */
	struct sigaction next, prev;
	if (act)
		next = *act;
	sigset_t held;
	app_lock_take(&held);
	prev = app[sig];
	if (act)
		app[sig] = next;
	app_lock_drop(&held);
	if (old)
		*old = prev;
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

int signals_program_handles(int sig)
{
	if (sig <= 0 || sig >= NSIGS)
		return 0;
	struct sigaction a = app_read(sig);
	return a.sa_handler != SIG_DFL && a.sa_handler != SIG_IGN;
}

/* Big enough for a report (the unwinder's and the symbolizer's frames)
 * and for the program's own handlers, which run on it when they were
 * called through ours. */
#define ALT_STACK_SIZE (128ul << 10)
static __thread uintptr_t alt_stack __attribute__((tls_model("initial-exec")));

void signals_thread_start(void)
{
	/* A filter may refuse sigaltstack, and kill for it. */
	if (alt_stack || os_sandboxed())
		return;
	stack_t ss;
	if (os_syscall(SYS_sigaltstack, NULL, &ss) != 0 || !(ss.ss_flags & SS_DISABLE))
		return; /* the program's own */
	size_t guard = os_page_size();
	uintptr_t p = (uintptr_t)os_reserve(guard + ALT_STACK_SIZE, OS_PROT_RW);
	if (!p)
		return;
	/* A report that overflowed it would otherwise run into whatever is
	 * mapped below. */
	os_protect((void *)p, guard, OS_PROT_NONE);
	ss.ss_sp = (void *)(p + guard);
	ss.ss_size = ALT_STACK_SIZE;
	ss.ss_flags = 0;
	if (os_syscall(SYS_sigaltstack, &ss, NULL) != 0) {
		os_release((void *)p, guard + ALT_STACK_SIZE);
		return;
	}
	alt_stack = p;
}

void signals_thread_exit(void)
{
	uintptr_t p = alt_stack;
	size_t guard = os_page_size();
	if (!p || os_sandboxed()) /* left mapped: the calls may be refused */
		return;
	stack_t ss;
	if (os_syscall(SYS_sigaltstack, NULL, &ss) != 0)
		return;
	if ((uintptr_t)ss.ss_sp == p + guard) {
		if (ss.ss_flags & SS_ONSTACK) /* the thread ends in a handler on it */
			return;
		stack_t off;
		rt_memset(&off, 0, sizeof(off));
		off.ss_flags = SS_DISABLE;
		if (os_syscall(SYS_sigaltstack, &off, NULL) != 0)
			return;
	}
	alt_stack = 0;
	os_release((void *)p, guard + ALT_STACK_SIZE);
}
