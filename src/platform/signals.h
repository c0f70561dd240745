/* Fault signals. ukasan keeps its handler installed for the signals it uses,
 * and keeps the program's own handler (set through sigaction or signal,
 * which are interposed) beside it: faults that are not ukasan's reach the
 * program's handler, or kill the program as they would without ukasan. */
#ifndef UKASAN_PLATFORM_SIGNALS_H
#define UKASAN_PLATFORM_SIGNALS_H

#include <signal.h>

/* Return 1 when the fault was ours and handled; 0 passes it on. */
typedef int (*fault_hook_t)(int sig, siginfo_t *info, void *uctx);

int signals_hook(int sig, fault_hook_t hook);
/* From now on SIGSEGV is never blocked (shadow mapped on demand: see
 * signals.c). Before the first signals_hook(SIGSEGV, ...) that needs it. */
void signals_keep_segv_open(void);

/* Details of a fault, from the saved machine context. */
unsigned long fault_pc(const void *uctx);
int fault_is_write(const void *uctx);
/* The page fault's error code (x86's bits: 1 protection, 2 write, 4 user,
 * 16 instruction fetch). */
unsigned long fault_error_code(const void *uctx);
/* Whether the program has a handler of its own for sig: its faults are
 * then its own business. */
int signals_program_handles(int sig);

#endif
