/* Fault signals. ukasan keeps its handler installed for the signals it uses,
 * and keeps the program's own handler (set through sigaction or signal,
 * which are interposed) beside it: faults that are not ukasan's reach the
 * program's handler, or kill the program as they would without ukasan. */
#ifndef UKASAN_PLATFORM_SIGNALS_H
#define UKASAN_PLATFORM_SIGNALS_H

#include <signal.h>
#include <stdint.h>

/* Return 1 when the fault was ours and handled; 0 passes it on. */
typedef int (*fault_hook_t)(int sig, siginfo_t *info, void *uctx);

int signals_hook(int sig, fault_hook_t hook);
/* From now on SIGSEGV is never blocked (shadow mapped on demand: see
 * signals.c). Before the first signals_hook(SIGSEGV, ...) that needs it. */
void signals_keep_segv_open(void);

/* The program is about to jump (longjmp and kin) to env, a jmp_buf: when
 * the jump restores a mask sigsetjmp saved, what the program believed
 * blocked while its handler ran (ukasan keeps fault signals open, see
 * signals.c) is over. */
void signals_jump(const void *env);

/* Details of a fault, from the saved machine context. */
unsigned long fault_pc(const void *uctx);
int fault_is_write(const void *uctx);
/* The page fault's error code (x86's bits: 1 protection, 2 write, 4 user,
 * 16 instruction fetch). */
unsigned long fault_error_code(const void *uctx);
/* Whether the program has a handler of its own for sig: its faults are
 * then its own business. */
int signals_program_handles(int sig);

/* A fault the kernel raised that no hook claimed and the program has no
 * handler for: it is about to end the program. Decoded once, for the
 * reports the fatal hooks print before it does. */
struct fatal_fault {
	int sig, si_code;
	uintptr_t addr, pc, sp;
	unsigned long error_code; /* as fault_error_code */
	/* The fault is the fetch of the instruction at pc (a call through a
	 * bad pointer); caller: the return address, where the call came from
	 * (0: not known). */
	int bad_pc;
	uintptr_t caller;
	/* The access hit the guard below the thread's stack: [stack_lo,
	 * stack_hi) is the stack it ran off. */
	int stack_overflow;
	uintptr_t stack_lo, stack_hi;
};
/* f filled from the signal and its context (fault_decode.c): reads the
 * code at pc only through the kernel, as pc may be anywhere. */
void fault_decode(int sig, siginfo_t *info, void *uctx, struct fatal_fault *f);
/* Return 1 when the hook reported the fault: later hooks are not asked. */
typedef int (*fatal_hook_t)(const struct fatal_fault *f, void *uctx);
/* Asked in the order registered; installs ukasan's handler for sig. */
int signals_on_fatal(int sig, fatal_hook_t hook);

/* Unwinding a bad pc: with the context set as if the call had returned
 * (pc at the caller, sp above the return address) the unwinder starts at
 * the caller; fault_context_restore puts it back. */
struct fault_saved {
	uintptr_t pc, sp;
};
int fault_context_to_caller(void *uctx, const struct fatal_fault *f, struct fault_saved *saved);
void fault_context_restore(void *uctx, const struct fault_saved *saved);

/* Runs fn(arg); a SIGSEGV or SIGBUS in it (on this thread) ends it there
 * and answers -1 (the faulting address in *fault), without a report: for
 * reads of memory the program may change meanwhile (kmemleak's scan). 0
 * when fn returned. */
int signals_guarded(void (*fn)(void *arg), void *arg, uintptr_t *fault);

/* ukasan's own alternate signal stack for the calling thread, so that a
 * stack overflow can still be reported: set up only when the thread has
 * none (a program's own, set before or after, wins), and freed at the
 * thread's exit. */
void signals_thread_start(void);
void signals_thread_exit(void);

/* fork() while another thread writes the table of the program's handlers
 * would leave the child's table locked, and each delivery there waiting
 * for ever: prepare takes its lock (last: it is a leaf), parent and child
 * let it go. */
void signals_fork_prepare(void);
void signals_fork_done(void);

#endif
