#ifndef UKASAN_RUNTIME_INIT_H
#define UKASAN_RUNTIME_INIT_H

#include "../base/compiler.h"

/* Set up on first use: the first malloc may come before any constructor. */
int ukasan_ready_slow(void);
extern RT_HIDDEN int ukasan_state;
static inline int ukasan_ready(void)
{
	if (__builtin_expect(__atomic_load_n(&ukasan_state, __ATOMIC_ACQUIRE) == 2, 1))
		return 1;
	return ukasan_ready_slow();
}
void ukasan_init(void);
/* The pthread_create and dlclose wrappers' targets (libc.c). */
void libc_wrappers_init(void);
void sandbox_wrappers_init(void);
/* The exit status of a run with reports, and its summary line (exit.c). */
void exit_status_init(void);
/* The program's __sanitizer_report_error_summary, if it has one. */
void sanitizer_summary_init(void);
void exit_status_finish(void);
void exit_status_after_fork(void);

/* kmemleak's check at the end of the run (lsan_api.c): once, unless
 * __lsan_do_leak_check ran it. */
void lsan_check_at_exit(void);
/* The leak check's only candidates are KFENCE's sampled objects (the
 * preload at its defaults): no check when none is live. */
extern RT_HIDDEN int leak_sampled_only;

#endif
