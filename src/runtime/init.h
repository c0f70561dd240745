#ifndef UKASAN_RUNTIME_INIT_H
#define UKASAN_RUNTIME_INIT_H

/* Set up on first use: the first malloc may come before any constructor. */
int ukasan_ready_slow(void);
extern int ukasan_state;
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

#endif
